"""Where a factory text comes from: the drop folder, a path or URL, or the stored copy.

Shared by the ``factory_text`` asset and the drop-folder sensor (same limits, same codes).
"""

from __future__ import annotations

from pathlib import Path

import fsspec

from repro_assets.factory.store import FactoryNotFound, get_text_row, partition_key_for
from repro_assets.storage.blobstore import BlobStore
from repro_assets.storage.database import Database
from repro_assets.storage.dropfolder import DropFolder

#: The drop folder's sub-folder and the files it onboards.
INBOX = "factories"
INBOX_PATTERN = "*.txt"
MAX_TEXT_BYTES = 200_000


class FactoryIntakeError(ValueError):
    """A factory text that cannot be read or accepted; ``code`` is the project error code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def find_in_inbox(folder: DropFolder, partition_key: str) -> tuple[str, bytes] | None:
    """The ``(file name, bytes)`` of the drop-folder file whose partition key is
    ``partition_key``, or None."""
    for entry in folder.list(INBOX, INBOX_PATTERN):
        data = folder.read_bytes(entry.path)
        if partition_key_for(entry.name, data) == partition_key:
            return entry.name, data
    return None


def read_source(
    partition_key: str, *, source_path: str, inbox_path: str, blobs: BlobStore,
    folder: DropFolder, db: Database,
) -> tuple[str, bytes]:
    """Read a factory text: ``inbox_path``, else ``source_path``, else the stored text, else
    the drop-folder file of the partition.

    Raises:
        FactoryIntakeError: ``E_SOURCE_NOT_FOUND`` when no source has the text.
    """
    if inbox_path:
        return Path(inbox_path).name, folder.read_bytes(inbox_path)
    if source_path:
        fs, path = fsspec.core.url_to_fs(source_path)
        if not fs.exists(path):
            raise FactoryIntakeError("E_SOURCE_NOT_FOUND", f"no file at {source_path}")
        return Path(path).name, fs.cat_file(path)
    try:
        row = get_text_row(db, partition_key)
        return row["file_name"], blobs.read_bytes(row["blob_key"])
    except FactoryNotFound:
        pass
    found = find_in_inbox(folder, partition_key)
    if found is None:
        raise FactoryIntakeError(
            "E_SOURCE_NOT_FOUND",
            f"no stored text and no file in the drop folder matches partition {partition_key}",
        )
    return found


def accepted_text(name: str, data: bytes, partition_key: str) -> str:
    """The text of ``data`` when it belongs to ``partition_key`` and is small UTF-8 text.

    Raises:
        FactoryIntakeError: ``E_PARTITION_MISMATCH``, ``E_FILE_TOO_LARGE`` or ``E_NOT_UTF8``.
    """
    if partition_key_for(name, data) != partition_key:
        raise FactoryIntakeError(
            "E_PARTITION_MISMATCH",
            f"{name} has partition key {partition_key_for(name, data)}, not {partition_key}",
        )
    if len(data) > MAX_TEXT_BYTES:
        raise FactoryIntakeError(
            "E_FILE_TOO_LARGE", f"{name} is {len(data)} bytes (max {MAX_TEXT_BYTES})"
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FactoryIntakeError("E_NOT_UTF8", f"{name} is not UTF-8 text: {exc}") from exc
