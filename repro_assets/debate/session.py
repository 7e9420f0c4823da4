"""One debate session end to end: lock, run, persist after every turn, handle interruption.

Shared by the Dagster asset and the ``repro-assets debate`` command.
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from repro_assets import settings
from repro_assets.debate.loop import DebateEvent, DebateRunner
from repro_assets.debate.models import DebateSettings, DebateTranscript
from repro_assets.debate.store import DebateStore, debate_lock
from repro_assets.llm.types import LLMClient
from repro_assets.scholarly.arxiv import ArxivClient
from repro_assets.scholarly.crossref import CrossrefClient
from repro_assets.scholarly.samples import seed_sample_corpus
from repro_assets.storage.blobstore import BlobStore
from repro_assets.storage.vectorstore import VectorStore

log = logging.getLogger(__name__)


def live_search_enabled(llm: LLMClient) -> bool:
    """``DEBATE_LIVE_SEARCH``: ``on``/``off``, or ``auto`` (default): on when an LLM is set up.

    Offline mode (no LLM) debates over the stored corpus without touching the network.
    """
    value = settings.current().debate.live_search.lower()
    if value in ("1", "on", "true", "yes"):
        return True
    if value in ("0", "off", "false", "no"):
        return False
    return bool(llm.available)


def ensure_sample_corpus(store: VectorStore) -> dict[str, int] | None:
    """Seed the sample corpus when the store has no arXiv/Crossref document (offline debates).

    Returns:
        Documents seeded per source, or None when the corpus already had scholarly documents.
    """
    with store.db.connection() as conn:
        row = conn.execute(
            "SELECT EXISTS (SELECT 1 FROM sources WHERE kind IN ('arxiv', 'crossref'))"
        ).fetchone()
    present = bool(row and row[0])
    if present:
        return None
    counts = seed_sample_corpus(store)
    return {source: c.documents for source, c in counts.items()}


def run_debate_session(
    *,
    session_id: str,
    settings: DebateSettings,
    llm: LLMClient,
    store: VectorStore,
    blobs: BlobStore,
    emit: Callable[[DebateEvent], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
    arxiv: ArxivClient | None = None,
    crossref: CrossrefClient | None = None,
    interrupt_errors: tuple[type[BaseException], ...] = (KeyboardInterrupt,),
) -> DebateTranscript:
    """Run one debate under the one-at-a-time lock; the transcript is saved after every turn.

    Live-search clients are created when ``settings.live_search`` is on and none are given;
    with live search off, an empty corpus is first seeded with the sample corpus.
    An exception of ``interrupt_errors`` (Ctrl-C, Dagster run termination) marks the debate
    interrupted, saves it with the "=== Debate Interrupted ===" banner and re-raises.

    Raises:
        DebateError: ``E_DEBATE_BUSY`` when another debate is running.
    """
    debate_store = DebateStore(store.db, blobs)
    if not settings.live_search:
        seeded = ensure_sample_corpus(store)
        if seeded and emit is not None:
            emit(DebateEvent("status", f"Corpus was empty: seeded the sample corpus ("
                             f"arXiv={seeded['arxiv']}, Crossref={seeded['crossref']})"))
    own_clients = settings.live_search and arxiv is None and crossref is None
    if own_clients:
        arxiv, crossref = ArxivClient(), CrossrefClient()
    try:
        with debate_lock(store.db):
            runner = DebateRunner(
                session_id=session_id, settings=settings, llm=llm, store=store, arxiv=arxiv,
                crossref=crossref, emit=emit, should_stop=should_stop,
                on_turn=debate_store.save, blobs=blobs,
            )
            try:
                return runner.run()
            except interrupt_errors:
                log.warning("debate %s interrupted by the runtime", session_id)
                runner.interrupt()
                raise
            except Exception as exc:
                runner.transcript.error_code = getattr(exc, "code", "E_DEBATE_FAILED")
                runner.transcript.error = f"{type(exc).__name__}: {exc}"
                runner.finish("failed", None)
                raise
    finally:
        if own_clients:
            assert arxiv is not None and crossref is not None
            arxiv.close()
            crossref.close()


# -- in-process observers ------------------------------------------------------------------
# A command that executes the debate job in its own process (``repro-assets debate``)
# registers an observer for the session, so the asset streams events to the terminal and
# polls the command's stop flag. Runs launched elsewhere simply have no observer.
_OBSERVERS: dict[str, tuple[Callable[[DebateEvent], None], Callable[[], bool]]] = {}
_OBSERVERS_LOCK = threading.Lock()


@contextmanager
def observe_session(
    session_id: str, emit: Callable[[DebateEvent], None], should_stop: Callable[[], bool]
) -> Iterator[None]:
    """Register ``emit``/``should_stop`` for ``session_id`` while the block runs."""
    with _OBSERVERS_LOCK:
        _OBSERVERS[session_id] = (emit, should_stop)
    try:
        yield
    finally:
        with _OBSERVERS_LOCK:
            _OBSERVERS.pop(session_id, None)


def session_observer(
    session_id: str,
) -> tuple[Callable[[DebateEvent], None], Callable[[], bool]] | None:
    """The observer registered for ``session_id`` in this process, if any."""
    with _OBSERVERS_LOCK:
        return _OBSERVERS.get(session_id)


def session_id_for(question: str) -> str:
    """A readable, unique debate session id: ``d-<time>-<hash>``."""
    digest = hashlib.sha256(f"{question}\x1f{time.time_ns()}".encode()).hexdigest()
    return f"d-{time.strftime('%Y%m%d-%H%M%S')}-{digest[:6]}"
