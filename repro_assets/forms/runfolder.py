"""The run folder ``runs/<run_id>/`` on the blob store (seed "filesystem contract").

::

    runs/<run_id>/input/request.json, input/target_docs/..., input/input_docs/...
    runs/<run_id>/artifacts/{schema,doc_index,layout,routing,candidates,final}.json
    runs/<run_id>/artifacts/evidence/<field>_<n>.png      (crops of the cited quotes)
    runs/<run_id>/artifacts/filled.pdf, review.json       (slice 2, with a fillable target)
    runs/<run_id>/trace/trace.jsonl

Artifacts are written atomically (temporary object, then rename: ``BlobStore.write_bytes``);
the trace is append-only; ``input/`` is written once and never re-copied. request.json keeps
the options as the caller set them (defaults are implied), so an explicitly requested LLM
provider stays distinguishable from the seed's default.
"""

from __future__ import annotations

import json
import re
import secrets
import threading
from datetime import UTC, datetime
from typing import Any

from repro_assets.errors import CodedError
from repro_assets.forms.models import (
    ARTIFACT_ADAPTERS,
    ARTIFACT_NAMES,
    RunOptions,
    RunRequest,
    TraceEvent,
)
from repro_assets.storage.blobstore import BlobStore

RUNS_PREFIX = "runs"
RUN_ID_RE = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z_[a-z0-9]{6}$")
#: Binary artifacts: the filled form and the evidence crops (``evidence/<field>_<n>.png``).
BINARY_RE = re.compile(r"^(?:filled\.pdf|evidence/[a-z_]{1,40}_\d{1,2}\.png)$")
_TRACE_LOCK = threading.Lock()


class FormsError(CodedError, RuntimeError):
    """A run-level error with a seed error code."""

    code = "run_failed"

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message, code=code)


class NoInputDocs(FormsError):
    """The run has no input documents (seed: 400 no_input_docs)."""

    code = "no_input_docs"


class RunFolderError(FormsError):
    """The run folder or an artifact cannot be written (seed: stop-run, run_failed)."""

    code = "run_failed"


class ArtifactNotFound(FormsError):
    """The artifact (or the run) does not exist."""

    code = "artifact_not_found"


class InvalidUserSchema(FormsError):
    """``schema_json`` is not a UserSchema (seed: 400, code invalid_schema_json)."""

    code = "invalid_schema_json"


class InvalidName(FormsError):
    """A run id or artifact name that is not allowed."""

    code = "invalid_artifact_name"


def make_run_id(now: datetime | None = None, suffix: str | None = None) -> str:
    """A run id like ``2025-12-12T11-32-01Z_ab12cd``."""
    now = (now or datetime.now(UTC)).astimezone(UTC)
    suffix = (suffix or secrets.token_hex(3))[:6].lower()
    return f"{now:%Y-%m-%dT%H-%M-%S}Z_{suffix}"


def validate_run_id(run_id: str) -> str:
    """Return ``run_id`` if it has the run-id form (no path characters), else raise."""
    if not RUN_ID_RE.fullmatch(run_id or ""):
        raise InvalidName(f"invalid run id: {run_id!r}", code="invalid_run_id")
    return run_id


def validate_artifact_name(name: str) -> str:
    """Return ``name`` if it is one of the JSON artifact names, else raise."""
    if name not in ARTIFACT_NAMES:
        raise InvalidName(f"invalid artifact name: {name!r} (one of {', '.join(ARTIFACT_NAMES)})")
    return name


def validate_binary_name(relative: str) -> str:
    """Return ``relative`` if it names filled.pdf or an evidence crop, else raise."""
    if not BINARY_RE.fullmatch(relative or ""):
        raise InvalidName(f"invalid artifact name: {relative!r}")
    return relative


def utc_ts() -> str:
    """Trace timestamp: ``2025-12-12T11:40:12.123Z``."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


class RunFolder:
    """Access to one run's folder on a blob store."""

    def __init__(self, store: BlobStore, run_id: str) -> None:
        self.store = store
        self.run_id = validate_run_id(run_id)
        self.prefix = f"{RUNS_PREFIX}/{run_id}"

    # ------------------------------------------------------------------ paths
    def key(self, relative: str) -> str:
        """Blob key of a run-relative path (``artifacts/final.json``)."""
        return f"{self.prefix}/{relative}"

    def ref(self, relative: str) -> str:
        """The seed's reference form ``runs/<run_id>/...`` (relative to the store root)."""
        return self.key(relative)

    def artifact_key(self, name: str) -> str:
        """Key of ``artifacts/<name>.json``."""
        return self.key(f"artifacts/{validate_artifact_name(name)}.json")

    # ------------------------------------------------------------------ input
    def has_input(self) -> bool:
        """True when ``input/request.json`` exists."""
        return self.store.exists(self.key("input/request.json"))

    def write_input_file(self, relative: str, data: bytes) -> None:
        """Write one input file unless it is already present (input/ is never re-copied)."""
        key = self.key(f"input/{relative}")
        if self.store.exists(key):
            return
        self._write(key, data)

    def write_request(self, request: RunRequest) -> None:
        """Write ``input/request.json`` unless present (options as the caller set them)."""
        data = request.model_dump(mode="json")
        data["options"] = request.options.model_dump(mode="json", exclude_unset=True)
        self.write_input_file("request.json", json.dumps(data, indent=2).encode())

    def read_request(self) -> RunRequest:
        """Read ``input/request.json`` (``options.model_fields_set`` = what the caller set)."""
        key = self.key("input/request.json")
        if not self.store.exists(key):
            raise ArtifactNotFound(f"run {self.run_id} has no input/request.json",
                                   code="run_not_found")
        data = json.loads(self.store.read_text(key))
        options = RunOptions.model_validate(data.pop("options", {}))
        request = RunRequest.model_validate({**data, "options": RunOptions()})
        return request.model_copy(update={"options": options})

    def read_input(self, stored_as: str) -> bytes:
        """Bytes of a run-relative input path recorded in request.json."""
        if not stored_as.startswith("input/") or ".." in stored_as.split("/"):
            raise InvalidName(f"bad input path {stored_as!r}", code="invalid_input_path")
        return self.store.read_bytes(self.key(stored_as))

    # ------------------------------------------------------------------ artifacts
    def write_artifact(self, name: str, value: Any) -> str:
        """Validate ``value`` against the artifact's model and write it atomically.

        Returns:
            The ``runs/<run_id>/artifacts/<name>.json`` reference.
        """
        adapter = ARTIFACT_ADAPTERS[validate_artifact_name(name)]
        # dump then re-validate from JSON: models built with model_copy are checked too
        data = adapter.dump_json(adapter.validate_json(adapter.dump_json(value)), indent=2)
        key = self.artifact_key(name)
        self._write(key, data)
        return key

    def has_artifact(self, name: str) -> bool:
        """True when the artifact exists."""
        return self.store.exists(self.artifact_key(name))

    def read_artifact_raw(self, name: str) -> Any:
        """The artifact's JSON content (not validated)."""
        key = self.artifact_key(name)
        if not self.store.exists(key):
            raise ArtifactNotFound(f"artifact {name} of run {self.run_id} not found")
        return json.loads(self.store.read_text(key))

    def read_artifact(self, name: str) -> Any:
        """The artifact validated against its model."""
        return ARTIFACT_ADAPTERS[name].validate_python(self.read_artifact_raw(name))

    def write_binary(self, relative: str, data: bytes) -> str:
        """Write ``artifacts/<relative>`` (filled.pdf, evidence PNGs) atomically.

        Returns:
            The ``runs/<run_id>/artifacts/<relative>`` reference.
        """
        key = self.key(f"artifacts/{validate_binary_name(relative)}")
        self._write(key, data)
        return key

    def read_binary(self, relative: str) -> bytes:
        """Bytes of ``artifacts/<relative>``."""
        key = self.key(f"artifacts/{validate_binary_name(relative)}")
        if not self.store.exists(key):
            raise ArtifactNotFound(f"artifact {relative} of run {self.run_id} not found")
        return self.store.read_bytes(key)

    # ------------------------------------------------------------------ trace
    def append_trace(self, event: TraceEvent) -> None:
        """Append one event to ``trace/trace.jsonl`` (never rewrites earlier lines locally)."""
        line = event.model_dump_json(exclude_none=False) + "\n"
        key = self.key("trace/trace.jsonl")
        local = self.store.local_path(key)
        with _TRACE_LOCK:
            try:
                if local is not None:
                    self.store.fs.makedirs(local.rsplit("/", 1)[0], exist_ok=True)
                    with open(local, "a", encoding="utf-8") as handle:
                        handle.write(line)
                else:  # object stores have no append: read, extend, write whole object
                    old = self.store.read_text(key) if self.store.exists(key) else ""
                    self.store.write_text(key, old + line)
            except OSError as exc:
                raise RunFolderError(f"cannot append to the trace of {self.run_id}: {exc}") \
                    from exc

    def read_trace(self) -> list[TraceEvent]:
        """Every trace event, in order."""
        key = self.key("trace/trace.jsonl")
        if not self.store.exists(key):
            return []
        return [TraceEvent.model_validate_json(line)
                for line in self.store.read_text(key).splitlines() if line.strip()]

    def _write(self, key: str, data: bytes) -> None:
        try:
            self.store.write_bytes(key, data)
        except OSError as exc:
            raise RunFolderError(f"cannot write {key}: {exc}") from exc


def list_runs(store: BlobStore) -> list[str]:
    """Run ids that have an ``input/request.json``, newest first."""
    ids = {
        key.split("/")[1] for key in store.list(RUNS_PREFIX)
        if key.endswith("/input/request.json") and key.count("/") == 3
    }
    return sorted((i for i in ids if RUN_ID_RE.fullmatch(i)), reverse=True)
