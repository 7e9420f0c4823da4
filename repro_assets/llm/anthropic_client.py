"""Anthropic Messages API through the official ``anthropic`` SDK.

Structured output uses tool use: the schema becomes the input schema of an output tool
(``emit_output``) that the model must call (``tool_choice`` forces it when there are no other
tools, and forces *some* tool call when there are). The caller's function tools run in a loop
until the output tool is called; its input is validated against the pydantic model.

With ``stream_tokens`` (see :meth:`BaseLLMClient.set_event_handler`) every structured turn is
requested as a stream (``messages.stream``): the SDK's ``MessageStream`` accumulates the
events into the same ``Message`` a non-streamed request returns, delivered with
``message_stop`` (a stream that ends before it is ``E_LLM_STREAM_INCOMPLETE``). The handler
gets a ``token`` for every ``text_delta`` and for every ``input_json_delta`` of the output
tool: the structured answer *is* that tool's input, so its JSON is the text the user watches
being written (as with OpenAI, where the answer is the message content). The inputs of the
caller's function tools are not tokens; they are reported once complete, as ``tool_call``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Generator, Iterator
from typing import Any

import anthropic

from repro_assets.llm.base import (
    AUTH,
    BAD_REQUEST,
    CONNECTION,
    OTHER,
    OUTPUT_TOOL_NAME,
    RATE_LIMIT,
    REASK_TEMPLATE,
    SERVER,
    TIMEOUT,
    BaseLLMClient,
    StreamTally,
    StructuredCall,
    T,
    parse_output,
)
from repro_assets.llm.cache import LLMStore
from repro_assets.llm.config import LLMConfig
from repro_assets.llm.types import LLMPolicyCapExceeded, LLMUsage

ANTHROPIC_BASE_URL = "https://api.anthropic.com"

#: Models that still accept sampling parameters. The 1.x+ SDKs dropped ``temperature`` from the
#: method signatures (it is sent through ``extra_body``); newer models reject it altogether.
_TEMPERATURE_MODELS = ("claude-3", "claude-sonnet-4", "claude-haiku-4", "claude-opus-4-0",
                       "claude-opus-4-1", "claude-opus-4-2025")


def sampling(model: str, temperature: float) -> dict[str, Any]:
    """Extra request arguments carrying ``temperature`` for models that accept it."""
    if model.startswith(_TEMPERATURE_MODELS):
        return {"extra_body": {"temperature": temperature}}
    return {}


def _tokens(message: Any) -> tuple[int, int]:
    usage = getattr(message, "usage", None)
    if usage is None:
        return 0, 0
    return int(usage.input_tokens or 0), int(usage.output_tokens or 0)


def _block_dict(block: Any) -> dict[str, Any]:
    """An assistant content block as request JSON (only the fields the API accepts back)."""
    if block.type == "text":
        return {"type": "text", "text": block.text}
    if block.type == "tool_use":
        return {"type": "tool_use", "id": block.id, "name": block.name, "input": block.input}
    return block.model_dump(mode="json", exclude_none=True)


class AnthropicClient(BaseLLMClient):
    """:class:`~repro_assets.llm.types.LLMClient` over the Anthropic Messages API.

    Args:
        config: resolved configuration (provider ``anthropic``).
        store: cache and usage store.
        sdk: an ``anthropic.Anthropic`` instance to use instead of building one (tests).
    """

    def __init__(self, config: LLMConfig, store: LLMStore | None = None,
                 sdk: anthropic.Anthropic | None = None) -> None:
        super().__init__(config, store)
        self.sdk = sdk or anthropic.Anthropic(
            api_key=config.api_key,
            base_url=config.base_url or ANTHROPIC_BASE_URL,
            timeout=config.timeout_s,
            max_retries=config.sdk_max_retries,
        )

    def _create(self, *, role: str, usage: list[LLMUsage], kind: str, **kwargs: Any) -> Any:
        if kind == "structured" and self.streams_tokens:
            return self._create_streamed(role=role, usage=usage, **kwargs)
        return self._call(lambda timeout: self.sdk.messages.create(timeout=timeout, **kwargs),
                          role=role, model=kwargs["model"], usage=usage, kind=kind,
                          tokens=_tokens)

    def _create_streamed(self, *, role: str, usage: list[LLMUsage], **kwargs: Any) -> Any:
        """One structured turn requested as a stream (see the module docstring).

        Returns:
            The ``Message`` the SDK's ``MessageStream`` accumulated (usage: input tokens of
            ``message_start``, output tokens of ``message_delta``).
        """
        started = time.perf_counter()
        events = self._stream_events(
            # entering the manager sends the request; _stream_events closes the stream
            lambda timeout: self.sdk.messages.stream(timeout=timeout, **kwargs).__enter__(),
            model=kwargs["model"],
            finished=lambda event: event.type == "message_stop",
        )
        answer_blocks: set[int] = set()
        message = None
        for event in events:
            if event.type == "content_block_start":
                block = event.content_block
                if block.type == "tool_use" and block.name == OUTPUT_TOOL_NAME:
                    answer_blocks.add(event.index)
            elif event.type == "content_block_delta":
                delta = event.delta
                if delta.type == "text_delta" and delta.text:
                    self._emit("token", delta=delta.text)
                elif (delta.type == "input_json_delta" and delta.partial_json
                      and event.index in answer_blocks):
                    self._emit("token", delta=delta.partial_json)
            elif event.type == "message_stop":
                message = event.message
        self._emit("stream_end")
        usage.append(self._record(role, kwargs["model"], *_tokens(message),
                                  time.perf_counter() - started, cache_hit=False,
                                  kind="structured"))
        return message

    # ------------------------------------------------------------------ structured
    def _run_structured(self, request: StructuredCall[T]) -> tuple[T | None, str, bool]:
        role, model, system, user = request.role, request.model, request.system, request.user
        schema, tools, temperature = request.schema, request.tools, request.temperature
        max_tokens, usage, records = request.max_tokens, request.usage, request.records
        output_schema = schema.model_json_schema()
        output_tool = {"name": OUTPUT_TOOL_NAME,
                       "description": "Return the final answer. Its input must match the "
                                      f"{schema.__name__} schema exactly.",
                       "input_schema": output_schema}
        api_tools = [{"name": t.name, "description": t.description,
                      "input_schema": t.args_model.model_json_schema()} for t in tools]
        api_tools.append(output_tool)
        tool_choice = ({"type": "any"} if tools
                       else {"type": "tool", "name": OUTPUT_TOOL_NAME})
        by_name = {tool.name: tool for tool in tools}
        messages: list[dict[str, Any]] = [{"role": "user", "content": user}]
        reask = REASK_TEMPLATE.format(schema=json.dumps(output_schema))
        reasked = False
        raw_text = ""
        for _turn in range(max(1, self.config.max_tool_turns)):
            message = self._create(
                role=role, usage=usage, kind="structured", model=model, system=system,
                messages=messages, max_tokens=max_tokens, tools=api_tools,
                tool_choice=tool_choice, **sampling(model, temperature),
            )
            uses = [b for b in message.content if b.type == "tool_use"]
            output = next((b for b in uses if b.name == OUTPUT_TOOL_NAME), None)
            texts = "".join(b.text for b in message.content if b.type == "text")
            messages.append({"role": "assistant",
                             "content": [_block_dict(b) for b in message.content]})
            if output is not None:
                raw_text = json.dumps(output.input, ensure_ascii=False)
                parsed = parse_output(output.input, schema)
            elif uses:
                results = []
                for block in uses:
                    tool = by_name.get(block.name)
                    if tool is None:
                        content = json.dumps({"error": f"unknown tool {block.name!r}"})
                    else:
                        content = self._run_tool(tool, block.input, records)
                    results.append({"type": "tool_result", "tool_use_id": block.id,
                                    "content": content})
                messages.append({"role": "user", "content": results})
                continue
            else:
                raw_text = texts
                parsed = parse_output(texts, schema)
            if parsed.value is not None:
                return parsed.value, raw_text, reasked  # type: ignore[return-value]
            if reasked:
                return None, raw_text, reasked
            reasked = True
            if output is not None:
                # every tool_use needs a tool_result; the re-ask is the output's (error) result
                results = [{"type": "tool_result", "tool_use_id": b.id, "is_error": True,
                            "content": f"not run: call only {OUTPUT_TOOL_NAME} now"}
                           for b in uses if b is not output]
                results.append({"type": "tool_result", "tool_use_id": output.id,
                                "is_error": True,
                                "content": f"{reask}\nValidation errors: {parsed.error}"
                                if self.config.reask_details else reask})
                messages.append({"role": "user", "content": results})
            else:
                messages.append({"role": "user", "content": reask})
        raise LLMPolicyCapExceeded(
            f"{self.provider}/{model} used more than {self.config.max_tool_turns} tool turns",
            code="E_TOOL_TURNS_EXCEEDED",
        )

    # ------------------------------------------------------------------ text
    def _run_text(self, *, role: str, model: str, system: str, user: str, temperature: float,
                  max_tokens: int, usage: list[LLMUsage]) -> str:
        message = self._create(role=role, usage=usage, kind="text", model=model, system=system,
                               messages=[{"role": "user", "content": user}],
                               max_tokens=max_tokens, **sampling(model, temperature))
        return "".join(b.text for b in message.content if b.type == "text")

    def _stream(self, *, role: str, model: str, system: str, user: str, temperature: float,
                max_tokens: int) -> Iterator[str]:
        def texts(tally: StreamTally) -> Generator[str, None, None]:
            events = self._stream_events(
                lambda timeout: self.sdk.messages.create(
                    model=model, system=system, messages=[{"role": "user", "content": user}],
                    max_tokens=max_tokens, stream=True, timeout=timeout,
                    **sampling(model, temperature)),
                model=model,
                finished=lambda event: event.type == "message_stop" or (
                    event.type == "message_delta" and bool(event.delta.stop_reason)),
            )
            for event in events:
                if event.type == "message_start":
                    tally.input_tokens, tally.output_tokens = _tokens(event.message)
                elif event.type == "message_delta" and event.usage is not None:
                    tally.output_tokens = int(event.usage.output_tokens or 0)
                elif event.type == "content_block_delta" and event.delta.type == "text_delta":
                    if event.delta.text:
                        yield event.delta.text

        yield from self._finish_stream(role, model, texts)

    # ------------------------------------------------------------------ errors
    def _classify(self, exc: BaseException) -> str | None:
        if isinstance(exc, anthropic.APITimeoutError):
            return TIMEOUT
        if isinstance(exc, anthropic.APIConnectionError):
            return CONNECTION
        if isinstance(exc, anthropic.RateLimitError):
            return RATE_LIMIT
        if isinstance(exc, anthropic.InternalServerError):
            return SERVER
        if isinstance(exc, anthropic.AuthenticationError | anthropic.PermissionDeniedError):
            return AUTH
        if isinstance(exc, anthropic.APIStatusError):
            if exc.status_code in (408, 409) or exc.status_code >= 500:
                return SERVER
            return BAD_REQUEST
        if isinstance(exc, anthropic.AnthropicError):
            return OTHER
        return None
