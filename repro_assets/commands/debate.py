"""``repro-assets debate "question" [--max-turns N]``: stream a two-scientist debate.

The debate runs as a ``debate_job`` run on the project's Dagster instance (so the UI shows it)
in a worker thread of this process; status lines (``[[STATUS]] ...``) and response text are
printed as they are produced. Ctrl-C asks the debate to stop at the next token or turn
boundary: the transcript so far is kept with "=== Debate Interrupted ===". A second Ctrl-C
aborts at once.

Exit codes: 0 when the scientists reached a viable solution (consensus), 3 when the retrieved
evidence never addressed the question (NOT_VIABLE, insufficient evidence), 4 when the turns ran
out without consensus, 130 when interrupted, 1 when the debate failed, 2 for a usage error.
"""

from __future__ import annotations

import argparse
import sys
import threading
from typing import Any, TextIO

EXIT_INTERRUPTED = 130
EXIT_INSUFFICIENT = 3
EXIT_NO_CONSENSUS = 4
EXIT_CODES = {"consensus": 0, "insufficient_evidence": EXIT_INSUFFICIENT,
              "max_turns": EXIT_NO_CONSENSUS, "interrupted": EXIT_INTERRUPTED}


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``debate``."""
    parser = sub.add_parser("debate", help="run a two-scientist scholarly debate, streamed")
    parser.add_argument("question", nargs="?", default="", help="the question to debate")
    parser.add_argument("--max-turns", type=int, default=0,
                        help="most scientist responses (default DEBATE_MAX_TURNS or 6)")
    parser.add_argument("--results-per-source", type=int, default=0,
                        help="arXiv and Crossref results ingested per turn (default 5)")
    parser.add_argument("--url", default="", help="a URL the question refers to")
    parser.add_argument("--history", action="append", default=[],
                        help="an earlier conversation message (repeatable, oldest first)")
    parser.add_argument("--live", default="auto", choices=["auto", "on", "off"],
                        help="search arXiv/Crossref each turn (auto: only with an LLM)")
    parser.add_argument("--session", default="", help="session id (default: generated)")
    parser.add_argument("--list", action="store_true", help="list recent debates and exit")
    parser.set_defaults(func=cmd_debate)


def run_debate_command(
    args: argparse.Namespace,
    *,
    instance: Any,
    defs: Any,
    out: TextIO,
    err: TextIO,
    stop: threading.Event | None = None,
) -> int:
    """Run one debate job, streaming its events to ``out``; returns the exit code."""
    from repro_assets.debate.loop import DebateEvent
    from repro_assets.debate.session import observe_session, session_id_for
    from repro_assets.instance import prepare_in_process_runs
    from repro_assets.jobs import DEBATE_RUN_TAGS
    from repro_assets.partitions import debates_partitions
    from repro_assets.runs import failure_message

    session = args.session or session_id_for(args.question)
    tags = prepare_in_process_runs(instance)  # a killed earlier command's runs: failed
    if session not in instance.get_dynamic_partitions(debates_partitions.name):
        instance.add_dynamic_partitions(debates_partitions.name, [session])
    stop = stop or threading.Event()
    lock = threading.Lock()

    def emit(event: DebateEvent) -> None:
        with lock:
            out.write(event.render())
            out.flush()

    config: dict[str, Any] = {"question": args.question, "history": list(args.history),
                              "url": args.url, "max_turns": args.max_turns,
                              "results_per_source": args.results_per_source,
                              "live_search": args.live, "stream": True}
    run_config = {"ops": {"debate_transcript": {"config": config}},
                  "loggers": {"console": {"config": {"log_level": "WARNING"}}}}
    outcome: dict[str, Any] = {}
    done = threading.Event()

    def work() -> None:
        try:
            outcome["result"] = defs.resolve_job_def("debate_job").execute_in_process(
                instance=instance, partition_key=session, run_config=run_config,
                tags={**DEBATE_RUN_TAGS, **tags}, raise_on_error=False,
            )
        except BaseException as exc:  # reported below, never lost
            outcome["error"] = exc
        finally:
            done.set()

    err.write(f"debate session: {session}  (Ctrl-C interrupts)\n")
    with observe_session(session, emit, stop.is_set):
        worker = threading.Thread(target=work, name=f"debate-{session}", daemon=True)
        worker.start()
        # Event.wait, not Thread.join: a KeyboardInterrupt inside join() can leave the thread
        # reported as finished while it still runs (CPython < 3.13).
        while not done.is_set():
            try:
                done.wait(0.2)
            except KeyboardInterrupt:
                if stop.is_set():
                    err.write("aborting\n")
                    return EXIT_INTERRUPTED
                err.write("interrupting: the debate stops at the next token or turn...\n")
                stop.set()
        worker.join()
    if "error" in outcome:
        err.write(f"debate crashed: {outcome['error']!r}\n")
        return 1
    result = outcome["result"]
    if not result.success:
        err.write(f"debate failed: {failure_message(result)}\n")
        return 1
    meta = result.get_asset_materialization_events()[0].materialization.metadata
    state = getattr(meta["terminal_state"], "value", meta["terminal_state"])
    path = getattr(meta["transcript_md"], "value", meta["transcript_md"])
    err.write(f"terminal state: {state}; transcript: {path}\n")
    return EXIT_CODES.get(state, 1)


def cmd_debate(args: argparse.Namespace) -> int:
    """Handler of ``repro-assets debate``."""
    if args.list:
        from repro_assets.debate.views import show_transcript

        for row in show_transcript(None)["sessions"]:
            print(f"{row['id']}  {row['terminal_state']:<11} {row['turns']} turns  "
                  f"{row['mode']:<7} {row['question']}")
        return 0
    if len(args.question.strip()) < 3:
        print("error: a question is required", file=sys.stderr)
        return 2
    from repro_assets.definitions import defs
    from repro_assets.instance import get_instance

    return run_debate_command(args, instance=get_instance(), defs=defs, out=sys.stdout,
                              err=sys.stderr)
