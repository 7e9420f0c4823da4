"""The blob store resource: a thin Dagster wrapper around :mod:`repro_assets.storage.blobstore`."""

from __future__ import annotations

import dagster as dg

from repro_assets import settings
from repro_assets.storage.blobstore import BlobStore


class BlobStoreResource(dg.ConfigurableResource):
    """Blob store root; empty means ``REPRO_BLOB_ROOT`` or ``data/blobs``."""

    root: str = ""

    def get_store(self) -> BlobStore:
        """Return a :class:`BlobStore` for the configured root."""
        return BlobStore(self.root or settings.blob_root())

