"""``repro-assets eval debate --cases FILE --corpus DIR``: the debate answers or abstains.

The same cases, corpus cache, scoring and output as ``eval research``
(:mod:`repro_assets.research.evaluation`); each question runs a two-scientist debate over the
stored corpus only (live search off). A debate *answers* when it ends in consensus: its
conclusion must then hold an accepted value and the debate's answer must come from a listed
source. ``max_turns``, ``insufficient_evidence`` and failures are abstentions. The command
ends with ``eval debate: answered_right=<a>/<answerable> abstained_right=<b>/<unanswerable>
confident_wrong=<c>`` and exits 1 when an unanswerable question got a consensus.
"""

from __future__ import annotations

import argparse
from typing import Any

from repro_assets.research.evaluation import (
    SystemAnswer,
    add_eval_parser,
    document_files,
    eval_session,
    run_eval,
)


def register_eval(subparsers: argparse._SubParsersAction) -> None:
    """Add ``eval debate``."""
    parser = add_eval_parser(subparsers, "debate")
    parser.add_argument("--max-turns", type=int, default=4, help="debate turns per case")
    parser.set_defaults(func=cmd_eval_debate)


def run_debate_case(case: dict, store: Any, llm: Any, names: dict[str, str],
                    max_turns: int, files: dict[int, str]) -> SystemAnswer:
    """Run one question as a debate over the stored corpus."""
    from repro_assets.debate.loop import DebateRunner
    from repro_assets.debate.models import DebateSettings

    settings = DebateSettings(question=case["question"], live_search=False,
                              max_turns=max_turns)
    transcript = DebateRunner(session_id=eval_session(case), settings=settings, llm=llm,
                              store=store).run()
    answered = transcript.terminal_state == "consensus"
    check = transcript.answer_check or {}
    cited: list[str] = []
    if transcript.answer:
        cited.append(names.get(transcript.answer["source"], ""))
    if answered and transcript.turns:
        last = transcript.turns[-1]
        cited += [files.get(c.document_id, "") for c in last.evidence
                  if c.index in last.citations]
    relevance = max((c.relevance or 0.0 for t in transcript.turns for c in t.evidence),
                    default=None)
    detail = f"{transcript.terminal_state}: " + (
        (transcript.conclusion or "")[:80] if answered else check.get("reason", "")
        or (transcript.conclusion or "")[:80])
    return SystemAnswer(answered=answered, text=transcript.conclusion or "" if answered else "",
                        cited_files=[c for c in cited if c], relevance=relevance,
                        answer_score=check.get("best_score"), detail=detail)


def cmd_eval_debate(args: argparse.Namespace) -> int:
    """``eval debate``."""
    files: dict[int, str] = {}

    def run_case(case: dict, store: Any, llm: Any, names: dict[str, str]) -> SystemAnswer:
        if not files:
            files.update(document_files(store.db))
        return run_debate_case(case, store, llm, names, args.max_turns, files)

    return run_eval("debate", args, run_case)
