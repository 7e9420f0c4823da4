"""Read side of the scholarly debate: stored transcripts for ``repro-assets show``. No Dagster."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from repro_assets import settings
from repro_assets.debate.store import DebateStore
from repro_assets.storage.blobstore import BlobStore
from repro_assets.storage.database import get_database


def show_transcript(partition_key: str | None) -> Any:
    """The stored transcript of a debate session (the latest sessions when no key is given)."""
    store = DebateStore(get_database(), BlobStore(settings.blob_root()))
    if not partition_key:
        return {"sessions": store.sessions()}
    transcript = store.load(partition_key)
    if transcript is None:
        return {"error": f"no transcript stored for debate {partition_key}"}
    return transcript.model_dump(mode="json")


SHOWS: dict[str, Callable[[str | None], Any]] = {"debate_transcript": show_transcript}
