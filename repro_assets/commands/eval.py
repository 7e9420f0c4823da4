"""``repro-assets eval WORKFLOW ...``: score a labelled corpus and print per-document figures.

Each workflow package may ship an evaluator module, ``repro_assets/<package>/evaluation.py`` (or
``eval.py``), exposing ``register_eval(subparsers)``; it adds its own sub-command (for example
``claims --corpus DIR`` or ``factory --cases FILE``) with ``set_defaults(func=handler)``.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
from typing import Any

WORKFLOW_PACKAGES = ("papers", "factory", "forms", "debate", "research")


def _evaluator_modules() -> list[str]:
    found = []
    for package in WORKFLOW_PACKAGES:
        for name in ("evaluation", "eval"):
            module = f"repro_assets.{package}.{name}"
            if importlib.util.find_spec(module) is not None:
                found.append(module)
                break
    return found


def configured_llm_client(**options: Any) -> Any:
    """A client of the configured LLM provider (``options``: ``LLMResource`` fields, e.g.
    ``cache_enabled``)."""
    from repro_assets.resources.llm import LLMResource

    return LLMResource(**options).get_client()


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``eval`` sub-command and every workflow's evaluator under it."""
    parser = sub.add_parser(
        "eval", help="score a labelled corpus (per-document and total figures)"
    )
    # the evaluators live in Dagster-free packages: the command layer hands them the client
    parser.set_defaults(llm_client=configured_llm_client)
    evaluators = parser.add_subparsers(dest="workflow", required=True, metavar="WORKFLOW")
    for module_name in _evaluator_modules():
        module = importlib.import_module(module_name)
        register_eval = getattr(module, "register_eval", None)
        if register_eval is not None:
            register_eval(evaluators)
