"""``repro-assets eval WORKFLOW ...``: score a labelled corpus and print per-document figures.

Each workflow package ships an evaluator module, ``repro_assets/<package>/evaluation.py`` (or
``eval.py``), exposing ``register_eval(subparsers)``, imported here by name; it adds its own
sub-command (for example ``claims --corpus DIR`` or ``factory --cases FILE``) with
``set_defaults(func=handler)``.
"""

from __future__ import annotations

import argparse
from typing import Any

from repro_assets.commands import defer


def configured_llm_client(**options: Any) -> Any:
    """A client of the configured LLM provider (``options``: ``LLMResource`` fields, e.g.
    ``cache_enabled``)."""
    from repro_assets.resources.llm import LLMResource

    return LLMResource(**options).get_client()


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``eval`` sub-command; its evaluators are added when ``eval`` is the command
    (importing them loads PyMuPDF and every workflow's scoring code)."""
    parser = sub.add_parser(
        "eval", help="score a labelled corpus (per-document and total figures)"
    )
    # the evaluators live in Dagster-free packages: the command layer hands them the client
    parser.set_defaults(llm_client=configured_llm_client)
    defer(parser, add_evaluators)


def add_evaluators(parser: argparse.ArgumentParser) -> None:
    """Add every workflow's evaluator as a sub-command of ``parser``."""
    evaluators = parser.add_subparsers(dest="workflow", required=True, metavar="WORKFLOW")
    from repro_assets.debate import evaluation as debate_eval
    from repro_assets.factory import eval as factory_eval
    from repro_assets.forms import evaluation as forms_eval
    from repro_assets.papers import evaluation as papers_eval
    from repro_assets.research import evaluation as research_eval

    for module in (papers_eval, factory_eval, forms_eval, debate_eval, research_eval):
        module.register_eval(evaluators)
