"""``repro-assets research "query" [--privacy local_only]``: run one research session.

Exit codes: 0 an answer (or a session stopped at the user's request), 1 the run failed,
2 bad arguments or an unknown session, 3 no answer: the session ended ``no_sources`` or
``insufficient_evidence`` (the report says so).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time

EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_NO_ANSWER = 3
NO_ANSWER_STATUSES = ("no_sources", "insufficient_evidence")


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``research``."""
    research = sub.add_parser(
        "research", help="research a question until saturation and export a report"
    )
    research.add_argument("query", nargs="?", default="", help="the research question")
    research.add_argument("--privacy", default="cloud_allowed",
                          choices=["local_only", "cloud_allowed", "hybrid"],
                          help="which providers and LLM may be used (default cloud_allowed)")
    research.add_argument("--domain", default="auto",
                          choices=["auto", "academic", "medical", "competitive_intelligence"])
    research.add_argument("--max-cycles", type=int, default=6, help="hard cap (backstop)")
    research.add_argument("--render-pages", action="store_true",
                          help="read web pages in headless Chromium (needs the crawler extra)")
    research.add_argument("--session", default="", help="session id (default: derived)")
    research.add_argument("--status", metavar="SESSION", default="",
                          help="print a session's plain-language status and exit")
    research.add_argument("--stop", metavar="SESSION", default="",
                          help="ask a running session to stop after its current step")
    research.set_defaults(func=cmd_research)


def session_id_for(query: str, privacy: str) -> str:
    """A readable, unique session id: ``r-<time>-<hash>``."""
    digest = hashlib.sha256(f"{query}\x1f{privacy}\x1f{time.time_ns()}".encode()).hexdigest()
    return f"r-{time.strftime('%Y%m%d-%H%M%S')}-{digest[:6]}"


def cmd_research(args: argparse.Namespace) -> int:
    """Run the research job for one new session (or show status / request a stop)."""
    from repro_assets.research.store import ResearchStore
    from repro_assets.storage.database import get_database

    if args.status or args.stop:
        store = ResearchStore(get_database())
        if args.stop:
            if not store.request_stop(args.stop):
                print(f"error: unknown session {args.stop}", file=sys.stderr)
                return EXIT_USAGE
            print(f"stop requested for {args.stop}")
            return 0
        store.reap_stale_sessions(session_id=args.status)
        row = store.session(args.status)
        if row is None:
            print(f"error: unknown session {args.status}", file=sys.stderr)
            return EXIT_USAGE
        print(f"{row['session_id']}: {row['status']} ({row['current_phase']}, "
              f"{row['cycles']} cycles) - {row['status_line']}")
        if row["stop_reason"]:
            print(f"stop reason: {row['stop_reason']}")
        return 0
    if not args.query.strip():
        print("error: a research query is required", file=sys.stderr)
        return EXIT_USAGE

    import dagster as dg

    from repro_assets.assets import research as research_assets
    from repro_assets.instance import get_instance, prepare_in_process_runs
    from repro_assets.partitions import research_sessions_partitions
    from repro_assets.resources.registry import default_resources
    from repro_assets.runs import failure_message, quiet_run_config

    session = args.session or session_id_for(args.query, args.privacy)
    instance = get_instance()
    tags = prepare_in_process_runs(instance)  # a killed earlier command's runs: failed
    partitions = str(research_sessions_partitions.name)
    if session not in instance.get_dynamic_partitions(partitions):
        instance.add_dynamic_partitions(partitions, [session])
    print(f"session: {session}  (privacy {args.privacy}; stop early with "
          f"`repro-assets research --stop {session}`)")
    defs = dg.Definitions.merge(research_assets.defs,
                                dg.Definitions(resources=default_resources()))
    result = defs.resolve_job_def(research_assets.research_job.name).execute_in_process(
        instance=instance,
        partition_key=session,
        run_config=quiet_run_config({"ops": {"research_report": {"config": {
            "query": args.query, "privacy_mode": args.privacy, "domain": args.domain,
            "max_cycles": args.max_cycles, "render_pages": args.render_pages,
        }}}}),
        tags=tags,
        raise_on_error=False,
    )
    if not result.success:
        print(f"research failed: {failure_message(result)}", file=sys.stderr)
        return EXIT_FAILED
    row = ResearchStore(get_database()).session(session) or {}
    meta = result.get_asset_materialization_events()[0].materialization.metadata
    figures = {k: getattr(meta[k], "value", meta[k]) for k in
               ("outcome", "cycles", "sources", "facts", "verified_facts",
                "access_failure_count") if k in meta}
    print(json.dumps(figures))
    print(f"status: {row.get('status')}")
    print(f"stop reason: {row.get('stop_reason')}")
    print(f"report: {row.get('report_key')}")
    if row.get("status") in NO_ANSWER_STATUSES:
        print(f"no answer ({row['status']}): {row.get('stop_reason')}", file=sys.stderr)
        return EXIT_NO_ANSWER
    return 0
