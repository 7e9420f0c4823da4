"""A factory document that is already a FactoryConfig (JSON): validated as is, not onboarded.

``POST /api/simulate`` stores the configuration it is given as the partition's document, so
the same Dagster job (factory_text → factory_config → factory_schedule) runs for it; a user can
also drop such a ``.json``-in-``.txt`` file in the inbox. Free text never starts with ``{``.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import ValidationError

from repro_assets.factory.coverage import assess_coverage
from repro_assets.factory.ids import extract_explicit_ids
from repro_assets.factory.models import (
    ErrorCode,
    ExtractionError,
    FactoryConfig,
    OnboardingResult,
)

METHOD = "provided"


def config_document(config: FactoryConfig | dict[str, Any]) -> str:
    """The canonical document text of a configuration (sorted keys, so equal configs give
    equal bytes and the same partition)."""
    data = config.model_dump(mode="json") if isinstance(config, FactoryConfig) else config
    return json.dumps(data, indent=2, sort_keys=True) + "\n"


def _problems(error: ValidationError) -> list[str]:
    """One line per validation error (FactoryConfig's own invariants included)."""
    out = []
    for item in error.errors():
        where = ".".join(str(part) for part in item["loc"]) or "config"
        out.append(f"{where}: {item['msg'].removeprefix('Value error, ')}")
    return out


def provided_config(document: str) -> OnboardingResult | None:
    """Validate ``document`` when it is a JSON object, else return None (free text).

    Raises:
        ExtractionError: ``INVALID_STRUCTURE`` when the JSON is not a valid FactoryConfig.
    """
    if not document.lstrip().startswith("{"):
        return None
    try:
        data = json.loads(document)
    except ValueError:
        return None
    try:
        config = FactoryConfig.model_validate(data)
    except ValidationError as exc:
        problems = _problems(exc)
        raise ExtractionError(
            ErrorCode.INVALID_STRUCTURE,
            "the FactoryConfig document is invalid: " + "; ".join(problems),
            stage="normalize",
            details={"method": METHOD, "problems": problems},
        ) from exc
    ids = extract_explicit_ids(document)
    return OnboardingResult(
        config=config,
        method=METHOD,
        detected_machines=sorted(ids.machine_ids),
        detected_jobs=sorted(ids.job_ids),
        coverage=assess_coverage(ids, config),
        repairs=[],
    )
