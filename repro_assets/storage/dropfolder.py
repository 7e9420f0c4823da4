"""Drop folders ("bucket drop folders") over fsspec, shared by every sensor."""

from __future__ import annotations

import fnmatch
import json
import posixpath
from dataclasses import dataclass
from datetime import UTC, datetime

import fsspec
from fsspec.implementations.local import LocalFileSystem


@dataclass(frozen=True)
class DropEntry:
    """A file (or bundle folder) waiting in a drop folder."""

    name: str
    path: str
    size: int
    mtime: float


class DropFolder:
    """A folder (local or any fsspec URL) that users drop documents into."""

    def __init__(self, root: str) -> None:
        self.root = root.rstrip("/")
        self.fs, self._root_path = fsspec.core.url_to_fs(self.root)

    def _folder(self, sub: str) -> str:
        return f"{self._root_path}/{sub.strip('/')}" if sub else self._root_path

    def ensure(self, sub: str) -> None:
        """Create ``sub`` (and its ``rejected/`` folder) when the store is local."""
        if isinstance(self.fs, LocalFileSystem):
            self.fs.makedirs(f"{self._folder(sub)}/rejected", exist_ok=True)

    def local_dir(self, sub: str) -> str:
        """The local folder of ``sub``.

        Raises:
            ValueError: when the drop folder is not on the local filesystem.
        """
        if not isinstance(self.fs, LocalFileSystem):
            raise ValueError(f"{self.root} is not a local folder")
        return self._folder(sub)

    def list(self, sub: str, pattern: str = "*", dirs: bool = False) -> list[DropEntry]:
        """Return entries of ``sub`` matching ``pattern`` (files, or folders when ``dirs``)."""
        folder = self._folder(sub)
        if not self.fs.exists(folder):
            return []
        entries = []
        for info in self.fs.ls(folder, detail=True):
            name = posixpath.basename(info["name"].rstrip("/"))
            is_dir = info.get("type") == "directory"
            if is_dir != dirs or name.startswith(".") or name == "rejected":
                continue
            if not fnmatch.fnmatch(name.lower(), pattern.lower()):
                continue
            mtime = info.get("mtime") or info.get("LastModified") or 0
            if isinstance(mtime, datetime):
                mtime = mtime.timestamp()
            entries.append(DropEntry(name, info["name"], int(info.get("size") or 0), float(mtime)))
        return sorted(entries, key=lambda e: (e.mtime, e.name))

    def url(self, entry: DropEntry) -> str:
        """Return a URL (or local path) that :func:`fsspec.open` can read the entry from."""
        if isinstance(self.fs, LocalFileSystem):
            return entry.path
        return self.fs.unstrip_protocol(entry.path)

    def read_bytes(self, path: str) -> bytes:
        """Return the bytes of a dropped file."""
        return self.fs.cat_file(path)

    def exists(self, path: str) -> bool:
        """True if ``path`` exists."""
        return self.fs.exists(path)

    def reject(self, sub: str, entry: DropEntry, code: str, message: str) -> str:
        """Move ``entry`` to ``sub/rejected/`` with an ``.error.json`` beside it.

        Returns:
            The new path of the rejected entry.
        """
        rejected = f"{self._folder(sub)}/rejected"
        if isinstance(self.fs, LocalFileSystem):
            self.fs.makedirs(rejected, exist_ok=True)
        target = f"{rejected}/{entry.name}"
        self.fs.mv(entry.path, target, recursive=True)
        error = {
            "code": code,
            "message": message,
            "file": entry.name,
            "rejected_at": datetime.now(UTC).isoformat(),
        }
        self.fs.pipe_file(f"{target}.error.json", json.dumps(error, indent=2).encode())
        return target
