"""Stage 2: fine extraction of steps, durations and due times for the skeleton's jobs."""

from __future__ import annotations

from repro_assets.factory.models import CoarseStructure, RawFactoryConfig
from repro_assets.factory.parser import parse_steps
from repro_assets.factory.prompts import STEPS_SYSTEM, STEPS_USER
from repro_assets.llm.types import LLMClient, Role


def steps_prompt(factory_text: str, skeleton: CoarseStructure) -> str:
    """Return the stage-2 user prompt (the skeleton as canonical JSON)."""
    return STEPS_USER.format(
        skeleton_json=skeleton.model_dump_json(indent=2), factory_text=factory_text
    )


def extract_steps(
    factory_text: str, skeleton: CoarseStructure, client: LLMClient | None = None
) -> RawFactoryConfig:
    """Attach routings and timing to the skeleton with one LLM call, or the offline parser.

    Does not normalize durations or due times, filter steps or check coverage.

    Args:
        factory_text: the free-text factory description.
        skeleton: the stage-1 machines and jobs.
        client: the LLM client; None or an unavailable (offline) client selects the
            deterministic parser.

    Returns:
        The raw configuration.

    Raises:
        repro_assets.llm.types.LLMError: the LLM call failed (the agent maps it to a code).
    """
    if client is None or not client.available:
        return parse_steps(factory_text, skeleton)
    result = client.structured(
        role=Role.EXTRACTOR,
        system=STEPS_SYSTEM,
        user=steps_prompt(factory_text, skeleton),
        schema=RawFactoryConfig,
        temperature=0.0,
    )
    return RawFactoryConfig.model_validate(result.value.model_dump())
