"""Blob store over fsspec: local folder by default, ``s3://...`` or any fsspec URL in production."""

from __future__ import annotations

import posixpath
import uuid
from datetime import UTC, datetime

import fsspec
from fsspec.implementations.local import LocalFileSystem

from repro_assets import settings


class BlobStore:
    """Keys are ``/``-separated relative paths under ``root`` (an fsspec URL or a folder)."""

    def __init__(self, root: str) -> None:
        self.root = root.rstrip("/")
        self.fs, self._root_path = fsspec.core.url_to_fs(self.root)
        if isinstance(self.fs, LocalFileSystem):
            self.fs.makedirs(self._root_path, exist_ok=True)

    def _path(self, key: str) -> str:
        key = key.lstrip("/")
        normalized = posixpath.normpath(key)
        if normalized.startswith("..") or normalized.startswith("/"):
            raise ValueError(f"blob key escapes the store: {key!r}")
        return f"{self._root_path}/{normalized}"

    def url(self, key: str) -> str:
        """Return the full URL (or local path) of ``key``."""
        path = self._path(key)
        if isinstance(self.fs, LocalFileSystem):
            return path
        return self.fs.unstrip_protocol(path)

    def exists(self, key: str) -> bool:
        """True if ``key`` exists."""
        return self.fs.exists(self._path(key))

    def write_bytes(self, key: str, data: bytes) -> str:
        """Write ``data`` atomically (temp object then rename) and return the URL."""
        path = self._path(key)
        parent = posixpath.dirname(path)
        if isinstance(self.fs, LocalFileSystem):
            self.fs.makedirs(parent, exist_ok=True)
            tmp = f"{parent}/.{posixpath.basename(path)}.{uuid.uuid4().hex}.tmp"
            with self.fs.open(tmp, "wb") as handle:
                handle.write(data)
            self.fs.mv(tmp, path)
        else:  # object stores make a single PUT visible atomically
            self.fs.pipe_file(path, data)
        return self.url(key)

    def write_text(self, key: str, text: str) -> str:
        """Write UTF-8 text atomically and return the URL."""
        return self.write_bytes(key, text.encode("utf-8"))

    def read_bytes(self, key: str) -> bytes:
        """Return the bytes of ``key``."""
        return self.fs.cat_file(self._path(key))

    def read_text(self, key: str) -> str:
        """Return the UTF-8 text of ``key``."""
        return self.read_bytes(key).decode("utf-8")

    def list(self, prefix: str) -> list[str]:
        """Return keys under ``prefix`` (recursive), relative to the root."""
        base = self._path(prefix)
        if not self.fs.exists(base):
            return []
        found = self.fs.find(base)
        start = len(self._root_path) + 1
        return sorted(path[start:] for path in found)

    def delete(self, key: str) -> None:
        """Delete ``key`` if it exists."""
        path = self._path(key)
        if self.fs.exists(path):
            self.fs.rm(path)

    def local_path(self, key: str) -> str | None:
        """Return a local filesystem path for ``key`` when the store is local, else None."""
        return self._path(key) if isinstance(self.fs, LocalFileSystem) else None


def paper_pdf_key(paper_id: str, when: datetime | None = None, env: str | None = None) -> str:
    """Return the seed's storage path ``papers/{env}/YYYY/MM/DD/{paper_id}.pdf``."""
    when = when or datetime.now(UTC)
    env = env or settings.env_name()
    return f"papers/{env}/{when:%Y/%m/%d}/{paper_id}.pdf"
