"""One debate session end to end: lock, run, persist after every turn, handle interruption.

Shared by the Dagster asset and the ``repro-assets debate`` command.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable

from repro_assets.debate.loop import DebateEvent, DebateRunner
from repro_assets.debate.models import DebateSettings, DebateTranscript
from repro_assets.debate.store import DebateStore, debate_lock
from repro_assets.llm.types import LLMClient
from repro_assets.resources.blobstore import BlobStore
from repro_assets.resources.vectorstore import VectorStore
from repro_assets.scholarly.arxiv import ArxivClient
from repro_assets.scholarly.crossref import CrossrefClient

log = logging.getLogger(__name__)


def live_search_enabled(llm: LLMClient) -> bool:
    """``DEBATE_LIVE_SEARCH``: ``on``/``off``, or ``auto`` (default): on when an LLM is set up.

    Offline mode (no LLM) debates over the stored corpus without touching the network.
    """
    value = os.environ.get("DEBATE_LIVE_SEARCH", "auto").strip().lower()
    if value in ("1", "on", "true", "yes"):
        return True
    if value in ("0", "off", "false", "no"):
        return False
    return bool(llm.available)


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

    Live-search clients are created when ``settings.live_search`` is on and none are given.
    An exception of ``interrupt_errors`` (Ctrl-C, Dagster run termination) marks the debate
    interrupted, saves it with the "=== Debate Interrupted ===" banner and re-raises.

    Raises:
        DebateError: ``E_DEBATE_BUSY`` when another debate is running.
    """
    debate_store = DebateStore(store.db, blobs)
    own_clients = settings.live_search and arxiv is None and crossref is None
    if own_clients:
        arxiv, crossref = ArxivClient(), CrossrefClient()
    try:
        with debate_lock(store.db):
            runner = DebateRunner(
                session_id=session_id, settings=settings, llm=llm, store=store, arxiv=arxiv,
                crossref=crossref, emit=emit, should_stop=should_stop,
                on_turn=debate_store.save,
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
