"""A local corpus built once from a folder of PDFs and reused: the evaluators' corpus cache.

The PDFs go through the project's own ingest (``repro-assets ingest``), run in a child process
whose data folder, embedded Postgres and Dagster home live in a cache folder named after the
PDFs' content hashes. A second evaluation over the same PDFs finds the folder complete (a
``corpus.json`` manifest is written only after every PDF was ingested) and reuses it; a changed,
added or removed PDF gives another key and so another folder.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from repro_assets.settings import data_dir, environment

MANIFEST = "corpus.json"
#: Environment variables that place the data folder, the database and the Dagster instance.
PLACEMENT_ENV = ("REPRO_DATA_DIR", "REPRO_PG_DIR", "DAGSTER_HOME", "REPRO_DATABASE_URL",
                 "REPRO_BLOB_ROOT", "REPRO_INBOX_ROOT", "REPRO_DAGSTER_DATABASE")


class CorpusBuildError(RuntimeError):
    """The corpus could not be built (no PDFs, or the ingest failed)."""


@dataclass(frozen=True)
class CachedCorpus:
    """A built corpus: its folder and the PDFs it holds (file name -> sha256)."""

    folder: Path
    files: dict[str, str]

    @property
    def environment(self) -> dict[str, str]:
        """The environment variables that point the project at this corpus."""
        return corpus_environment(self.folder)


def pdf_hashes(folder: Path) -> dict[str, str]:
    """File name -> sha256 of every PDF directly in ``folder`` (sorted by name)."""
    out: dict[str, str] = {}
    for path in sorted(folder.glob("*.pdf")):
        out[path.name] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


def corpus_key(hashes: dict[str, str]) -> str:
    """A short key for a set of PDFs (their names and contents)."""
    joined = "\n".join(f"{name}\t{digest}" for name, digest in sorted(hashes.items()))
    return hashlib.sha256(joined.encode()).hexdigest()[:16]


def corpus_environment(folder: Path) -> dict[str, str]:
    """Environment placing data, embedded Postgres and Dagster home under ``folder``."""
    return {"REPRO_DATA_DIR": str(folder), "REPRO_PG_DIR": str(folder / ".pg"),
            "DAGSTER_HOME": str(folder / ".dagster")}


@contextmanager
def using_corpus(corpus: CachedCorpus) -> Iterator[None]:
    """Point this process at ``corpus`` (placement variables set, restored on exit)."""
    with environment.scoped(corpus.environment, clear=PLACEMENT_ENV):
        yield


def build_corpus(pdf_dir: Path, cache_root: Path | None = None, nice: int = 10,
                 log: bool = True) -> CachedCorpus:
    """The cached corpus of the PDFs in ``pdf_dir``, ingesting them first when needed.

    Args:
        pdf_dir: folder whose ``*.pdf`` files make the corpus.
        cache_root: where corpora are cached (default ``<data dir>/eval-corpora``).
        nice: niceness of the ingest process (it embeds on CPU for minutes).
        log: print progress to stderr.

    Raises:
        CorpusBuildError: no PDFs in the folder, or the ingest failed for one of them.
    """
    hashes = pdf_hashes(pdf_dir)
    if not hashes:
        raise CorpusBuildError(f"no PDF in {pdf_dir}")
    root = cache_root or data_dir() / "eval-corpora"
    folder = (root / f"corpus-{corpus_key(hashes)}").resolve()
    manifest = folder / MANIFEST
    if manifest.exists():
        return CachedCorpus(folder=folder, files=hashes)
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / ".lock", "w", encoding="utf-8") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # a second evaluation waits for the first build
        if manifest.exists():
            return CachedCorpus(folder=folder, files=hashes)
        _ingest(pdf_dir, hashes, folder, nice, log)
    return CachedCorpus(folder=folder, files=hashes)


def _ingest(pdf_dir: Path, hashes: dict[str, str], folder: Path, nice: int, log: bool) -> None:
    """Run ``repro-assets ingest`` over the PDFs into ``folder``; write the manifest."""
    manifest = folder / MANIFEST
    env = environment.child_environment(corpus_environment(folder), drop=PLACEMENT_ENV)
    pdfs = [str(pdf_dir / name) for name in hashes]
    if log:
        print(f"building the corpus of {len(pdfs)} PDFs in {folder} (once)", file=sys.stderr)
    command = [sys.executable, "-m", "repro_assets.cli", "ingest", *pdfs]
    if nice and hasattr(os, "nice"):
        command = ["nice", "-n", str(nice), *command]
    with open(folder / "ingest.log", "w", encoding="utf-8") as out:
        code = subprocess.call(command, env=env, stdout=out, stderr=subprocess.STDOUT)
    if code != 0:
        raise CorpusBuildError(f"ingest exited {code}; see {folder / 'ingest.log'}")
    manifest.write_text(json.dumps({"source": str(pdf_dir), "files": hashes}, indent=1),
                        encoding="utf-8")
