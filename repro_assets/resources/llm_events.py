"""LLM events in the Dagster run's event log, where the API's SSE streams read them.

:class:`~repro_assets.resources.llm.LLMResource` gives every client it makes inside a running
step a :class:`RunLogEvents` handler: each tool call becomes one log line
(``LLM tool search_paper: {"query": ...}``) and, when the resource streams tokens, the answer
text is logged in pieces (``LLM text: ...``, flushed at line ends, every
:data:`FLUSH_CHARS` characters or :data:`FLUSH_SECONDS` seconds). :func:`parse_log_message`
reads such a line back (``POST /api/v1/papers/{id}/extract`` turns them into the seed's
``file_search_call`` and ``token`` events); the Dagster UI shows them as they happen.
"""

from __future__ import annotations

import json
import time
from typing import Any

import dagster as dg

from repro_assets.llm.types import EventHandler

TOOL_PREFIX = "LLM tool "
TEXT_PREFIX = "LLM text: "
FLUSH_CHARS = 200
FLUSH_SECONDS = 0.5


class RunLogEvents:
    """An LLM event handler writing to a Dagster log manager (``context.log``).

    Args:
        log: the step's log manager.
        clock: monotonic clock (tests may replace it).
    """

    def __init__(self, log: Any, clock: Any = time.monotonic) -> None:
        self.log = log
        self.clock = clock
        self._text: list[str] = []
        self._since = clock()

    def __call__(self, kind: str, data: dict[str, Any]) -> None:
        if kind == "tool_call":
            self.flush()
            arguments = json.dumps(data.get("arguments"), ensure_ascii=False, default=str)
            self.log.info(f"{TOOL_PREFIX}{data.get('name')}: {arguments}")
        elif kind == "token":
            self._text.append(str(data.get("delta") or ""))
            pending = "".join(self._text)
            if ("\n" in pending or len(pending) >= FLUSH_CHARS
                    or self.clock() - self._since >= FLUSH_SECONDS):
                self.flush()
        elif kind == "stream_end":
            self.flush()

    def flush(self) -> None:
        """Log the text gathered since the last flush (if any)."""
        text = "".join(self._text)
        self._text.clear()
        self._since = self.clock()
        if text:
            self.log.info(TEXT_PREFIX + text)


def step_event_logger() -> EventHandler | None:
    """A :class:`RunLogEvents` for the step running in this thread, or None outside a step."""
    try:
        context = dg.OpExecutionContext.get()
    except dg.DagsterInvariantViolationError:
        return None
    return RunLogEvents(context.log)


def parse_log_message(message: str) -> tuple[str, dict[str, Any]] | None:
    """The LLM event a :class:`RunLogEvents` line stands for, or None for any other line.

    Returns:
        ``("tool_call", {"name", "arguments"})`` or ``("token", {"delta"})``.
    """
    if message.startswith(TEXT_PREFIX):
        return "token", {"delta": message[len(TEXT_PREFIX):]}
    if message.startswith(TOOL_PREFIX):
        name, _, raw = message[len(TOOL_PREFIX):].partition(": ")
        try:
            arguments = json.loads(raw)
        except ValueError:
            arguments = {"_raw": raw}
        return "tool_call", {"name": name, "arguments": arguments}
    return None
