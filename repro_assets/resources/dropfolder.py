"""The drop folder resource: a thin wrapper of :mod:`repro_assets.storage.dropfolder`."""

from __future__ import annotations

import dagster as dg

from repro_assets import settings
from repro_assets.storage.dropfolder import DropFolder


class DropFolderResource(dg.ConfigurableResource):
    """The inbox root; empty means ``REPRO_INBOX_ROOT`` or ``data/inbox``."""

    root: str = ""

    def get_folder(self) -> DropFolder:
        """Return the :class:`DropFolder`."""
        return DropFolder(self.root or settings.inbox_root())

