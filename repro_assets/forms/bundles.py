"""Read a form bundle folder (drop folder or samples) into pipeline inputs.

A bundle is a folder with ``input_docs/`` (>= 1 file), optional ``target_docs/``, optional
``schema.json`` (UserSchema), optional ``options.json`` (RunOptions) and a ``READY`` marker
written last by the uploader.
"""

from __future__ import annotations

import json
import posixpath
from dataclasses import dataclass, field
from typing import Any

from fsspec import AbstractFileSystem
from pydantic import ValidationError

from repro_assets.forms.models import RunOptions
from repro_assets.forms.pipeline import UploadedFile, bundle_digest
from repro_assets.forms.runfolder import FormsError

READY_MARKER = "READY"
MAX_BUNDLE_BYTES = 200 * 1024 * 1024


class BundleError(FormsError):
    """A bundle that cannot become a run (rejected with this code)."""

    code = "invalid_bundle"


@dataclass
class Bundle:
    """The contents of one bundle."""

    name: str
    input_docs: list[UploadedFile]
    target_docs: list[UploadedFile] = field(default_factory=list)
    user_schema: dict[str, Any] | None = None
    options: RunOptions = field(default_factory=RunOptions)

    def digest(self) -> str:
        """Content hash of the bundle."""
        return bundle_digest(self.input_docs, self.target_docs, self.user_schema,
                             self.options.model_dump(mode="json"))


def _files(fs: AbstractFileSystem, folder: str) -> list[UploadedFile]:
    if not fs.exists(folder):
        return []
    out = []
    for path in sorted(fs.find(folder)):
        name = posixpath.basename(path)
        if name.startswith("."):
            continue
        out.append(UploadedFile(filename=name, data=fs.cat_file(path)))
    return out


def is_ready(fs: AbstractFileSystem, path: str) -> bool:
    """True when the bundle has its ``READY`` marker."""
    return fs.exists(f"{path.rstrip('/')}/{READY_MARKER}")


def read_bundle(fs: AbstractFileSystem, path: str) -> Bundle:
    """Read a bundle folder.

    Raises:
        BundleError: ``no_input_docs``, ``invalid_options``, ``invalid_schema_json`` or
            ``bundle_too_large``.
    """
    root = path.rstrip("/")
    name = posixpath.basename(root)
    sizes = sum(int(info.get("size") or 0) for info in fs.find(root, detail=True).values())
    if sizes > MAX_BUNDLE_BYTES:
        raise BundleError(f"bundle {name} is {sizes} bytes (max {MAX_BUNDLE_BYTES})",
                          code="bundle_too_large")
    inputs = _files(fs, f"{root}/input_docs")
    if not inputs:
        raise BundleError(f"bundle {name} has no input_docs/ files", code="no_input_docs")
    schema: dict[str, Any] | None = None
    if fs.exists(f"{root}/schema.json"):
        try:
            schema = json.loads(fs.cat_file(f"{root}/schema.json"))
        except (ValueError, UnicodeDecodeError) as exc:
            raise BundleError(f"schema.json is not JSON: {exc}",
                              code="invalid_schema_json") from exc
    options = RunOptions()
    if fs.exists(f"{root}/options.json"):
        try:
            options = RunOptions.model_validate_json(fs.cat_file(f"{root}/options.json"))
        except ValidationError as exc:
            raise BundleError(f"options.json is not valid RunOptions: {exc}",
                              code="invalid_options") from exc
    return Bundle(name=name, input_docs=inputs, target_docs=_files(fs, f"{root}/target_docs"),
                  user_schema=schema, options=options)
