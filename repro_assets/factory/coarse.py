"""Stage 1: coarse extraction of the machines and jobs skeleton (ids and names only)."""

from __future__ import annotations

from repro_assets.factory.models import CoarseStructure, PreparsedIds
from repro_assets.factory.parser import parse_coarse
from repro_assets.factory.prompts import COARSE_SYSTEM, COARSE_USER
from repro_assets.llm.types import LLMClient, Role


def coarse_prompt(factory_text: str, ids: PreparsedIds) -> str:
    """Return the stage-1 user prompt (ids sorted, so the prompt is deterministic)."""
    return COARSE_USER.format(
        machine_ids=", ".join(sorted(ids.machine_ids)) or "(none)",
        job_ids=", ".join(sorted(ids.job_ids)) or "(none)",
        factory_text=factory_text,
    )


def extract_coarse_structure(
    factory_text: str, ids: PreparsedIds, client: LLMClient | None = None
) -> CoarseStructure:
    """Extract machines and jobs (ids and names) with one LLM call, or the offline parser.

    Does not extract steps, check coverage, normalize or decide on failures.

    Args:
        factory_text: the free-text factory description.
        ids: the stage-0 ids the model must include.
        client: the LLM client; None or an unavailable (offline) client selects the
            deterministic parser.

    Returns:
        The skeleton.

    Raises:
        repro_assets.llm.types.LLMError: the LLM call failed (the agent maps it to a code).
    """
    if client is None or not client.available:
        return parse_coarse(factory_text)
    result = client.structured(
        role=Role.EXTRACTOR,
        system=COARSE_SYSTEM,
        user=coarse_prompt(factory_text, ids),
        schema=CoarseStructure,
        temperature=0.0,
    )
    return CoarseStructure.model_validate(result.value.model_dump())
