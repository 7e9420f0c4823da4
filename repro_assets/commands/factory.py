"""``repro-assets onboard FILE [--json]``: free text → FactoryConfig, or the ExtractionError."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from repro_assets.factory.models import ExtractionError, OnboardingResult


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``onboard`` sub-command."""
    onboard = sub.add_parser(
        "onboard",
        help="extract a FactoryConfig from a factory description (100%% id coverage or fail)",
    )
    onboard.add_argument("file", help="UTF-8 text file describing the factory")
    onboard.add_argument("--json", action="store_true", help="machine-readable JSON")
    onboard.add_argument(
        "--offline", action="store_true", help="use the offline parser even if an LLM is set"
    )
    onboard.set_defaults(func=cmd_onboard)


def _print_result(result: OnboardingResult) -> None:
    config = result.config
    print(f"FactoryConfig ({result.method}): {len(config.machines)} machines, "
          f"{len(config.jobs)} jobs, coverage 100%")
    for machine in config.machines:
        print(f"  machine {machine.id}: {machine.name}")
    for job in config.jobs:
        routing = " -> ".join(f"{s.machine_id} {s.duration_hours}h" for s in job.steps)
        due = "" if job.due_time_hour is None else f"  (due {job.due_time_hour:02d}:00)"
        print(f"  job {job.id}: {routing}{due}")
    for repair in result.repairs:
        print(f"  repaired: {repair}")
    for warning in result.warnings:
        print(f"  warning: {warning}")
    print(json.dumps(config.model_dump(mode="json"), indent=2))


def _print_error(error: ExtractionError) -> None:
    print(f"ExtractionError {error.code.value} at stage {error.stage}: {error.message}",
          file=sys.stderr)
    for key, value in error.details.items():
        print(f"  {key}: {json.dumps(value)}", file=sys.stderr)


def cmd_onboard(args: argparse.Namespace) -> int:
    """Onboard one file; exit 0 on success, 1 on ExtractionError, 2 when unreadable."""
    from repro_assets.factory.agent import OnboardingAgent
    from repro_assets.factory.models import ExtractionError

    path = Path(args.file)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        message = {"code": "E_SOURCE_NOT_FOUND" if isinstance(exc, OSError) else "E_NOT_UTF8",
                   "message": str(exc)}
        print(json.dumps({"ok": False, "error": message}) if args.json
              else f"{message['code']}: {message['message']}",
              file=sys.stdout if args.json else sys.stderr)
        return 2
    client = None
    if not args.offline:
        from repro_assets.resources.llm import LLMResource

        client = LLMResource().get_client()
    agent = OnboardingAgent(client)
    try:
        result = agent.run_detailed(text)
    except ExtractionError as exc:
        if args.json:
            print(json.dumps({"ok": False, "method": agent.method, "error": exc.to_dict()},
                             indent=2))
        else:
            _print_error(exc)
        return 1
    if args.json:
        print(json.dumps({"ok": True, **result.model_dump(mode="json")}, indent=2))
    else:
        _print_result(result)
    return 0
