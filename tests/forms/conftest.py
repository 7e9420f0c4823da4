"""Fixtures of the forms tests: generated sample bundles, a blob store and a run helper."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

import dagster as dg
import pytest

from repro_assets.forms.pipeline import UploadedFile, ingest, run_pipeline
from repro_assets.forms.runfolder import RunFolder
from repro_assets.forms.samples import write_samples
from repro_assets.sensors import forms as forms_sensors
from repro_assets.storage.blobstore import BlobStore

TODAY = date(2025, 6, 1)
FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "forms"


@pytest.fixture(scope="session")
def sample_bundles(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The project's sample bundles, generated once per session."""
    root = tmp_path_factory.mktemp("form_samples")
    return {path.name: path for path in write_samples(root)}


@pytest.fixture()
def store(tmp_path: Path) -> BlobStore:
    """An empty local blob store."""
    return BlobStore(str(tmp_path / "blobs"))


def bundle_files(bundle: Path, sub: str = "input_docs") -> list[UploadedFile]:
    """The files of a bundle sub-folder."""
    folder = bundle / sub
    if not folder.exists():
        return []
    return [UploadedFile(p.name, p.read_bytes()) for p in sorted(folder.iterdir())]


RunHelper = Callable[..., RunFolder]


@pytest.fixture()
def run_bundle(store: BlobStore) -> RunHelper:
    """Ingest a bundle folder (or explicit files) and run the whole pipeline offline."""

    def _run(bundle: Path | None = None, *, docs: list[UploadedFile] | None = None,
             targets: list[UploadedFile] | None = None, schema: dict | None = None,
             client=None, run_id: str | None = None, options=None) -> RunFolder:
        if bundle is not None:
            docs = bundle_files(bundle)
            targets = bundle_files(bundle, "target_docs")
            if (bundle / "schema.json").exists() and schema is None:
                schema = json.loads((bundle / "schema.json").read_text())
        folder = ingest(store, docs or [], target_docs=targets, user_schema=schema,
                        options=options, source="test", run_id=run_id)
        run_pipeline(folder, client, today=TODAY)
        return folder

    return _run


def forms_definitions(resources: dict[str, Any]) -> dg.Definitions:
    """The forms workflow's definitions bound to ``resources`` (blob_store, llm, inbox)."""
    from repro_assets.assets import forms as F

    return dg.Definitions(
        assets=F.FORM_ASSETS,
        asset_checks=F.FORM_CHECKS,
        sensors=[forms_sensors.forms_dropfolder_sensor], jobs=[F.forms_job], resources=resources)


def forms_app(services: Any, llm: Any = None, instance: dg.DagsterInstance | None = None,
              **app_kwargs: Any) -> Any:
    """The API app whose job runner runs the forms job (offline LLM unless ``llm`` is given)
    on ``instance`` (default: the services' instance)."""
    from repro_assets.api.app import create_app
    from repro_assets.api.runner import JobRunner
    from repro_assets.resources.blobstore import BlobStoreResource
    from repro_assets.resources.llm import LLMResource

    app = create_app(services, **({"api_key": "", "cors_origins": []} | app_kwargs))
    defs = forms_definitions({"blob_store": BlobStoreResource(),
                              "llm": llm or LLMResource(provider="offline")})
    app.state.job_runner = JobRunner(instance or services.instance(), defs=defs)
    return app
