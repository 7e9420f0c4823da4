"""The JSONizer fallback (seed 000): a cheaper model turns a failed answer into valid JSON.

Pass ``fallback=jsonizer_fallback(client)`` to ``client.structured(...)``: when the model's
output is still invalid after the one re-ask, the JSONizer role (``REPRO_MODEL_JSONIZER``,
default gpt-4o-mini / claude-3-5-haiku) gets the raw text and the schema, with no tools. If
that also fails the caller gets :class:`~repro_assets.llm.types.LLMInvalidOutput` with the
code given here (default ``E_LLM_INVALID_OUTPUT``).
"""

from __future__ import annotations

import json
from collections.abc import Callable

from pydantic import BaseModel

from repro_assets.llm.types import LLMClient, LLMInvalidOutput, Role, T

JSONIZER_SYSTEM = (
    "You convert another model's answer into JSON. Keep every fact from the answer, invent "
    "nothing, drop prose that does not fit the schema, and return ONLY JSON matching this "
    "schema: {schema}"
)


def jsonizer_fallback(
    client: LLMClient, *, code: str | None = None
) -> Callable[[str, type[T]], T]:
    """Return a ``fallback(raw_text, schema)`` that asks the JSONizer role for valid JSON.

    Args:
        client: the client to call (the JSONizer role has its own, cheaper model).
        code: error code for the final :class:`LLMInvalidOutput` (e.g. ``E_SCHEMA_FIX_FAILED``).
    """

    def fallback(raw_text: str, schema: type[T]) -> T:
        system = JSONIZER_SYSTEM.format(schema=json.dumps(schema.model_json_schema()))
        try:
            result = client.structured(role=Role.JSONIZER, system=system,
                                       user=raw_text or "(empty answer)", schema=schema)
        except LLMInvalidOutput as exc:
            raise LLMInvalidOutput(
                f"JSONizer could not repair the output for {schema.__name__}: {exc}",
                raw_text=raw_text, code=code,
            ) from exc
        value: BaseModel = result.value
        return value  # type: ignore[return-value]

    return fallback
