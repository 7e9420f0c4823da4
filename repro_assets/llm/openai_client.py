"""OpenAI (and OpenAI-compatible servers) through the official ``openai`` SDK, Chat Completions.

Structured output uses ``response_format={"type": "json_schema", "json_schema": {"name": ...,
"strict": true, "schema": <strict schema of the pydantic model>}}``; function tools are strict
function tools built from each tool's pydantic argument model. The model may call tools for
several turns; its final message content must be JSON for the schema.

An ``openai_compatible`` server (vLLM, llama.cpp, Ollama) serves its own model names, not
OpenAI's: unless a model is configured (``REPRO_LLM_MODEL`` or per role), the client reads
``GET {base_url}/models`` once and uses the model it lists.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable, Generator, Iterable, Iterator
from typing import Any

import openai
from openai.lib._pydantic import to_strict_json_schema
from openai.types.chat import ChatCompletion
from pydantic import BaseModel

from repro_assets.llm.base import (
    AUTH,
    BAD_REQUEST,
    CONNECTION,
    OTHER,
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
from repro_assets.llm.config import LLMConfig, configured_model, is_reasoning_model
from repro_assets.llm.types import (
    LLMError,
    LLMPolicyCapExceeded,
    LLMUsage,
    Role,
    Tool,
)

OPENAI_BASE_URL = "https://api.openai.com/v1"


def strict_schema(schema: type[BaseModel]) -> dict[str, Any]:
    """The strict JSON schema of a pydantic model (all properties required, no extras)."""
    return to_strict_json_schema(schema)


def schema_name(schema: type[BaseModel]) -> str:
    """A ``response_format`` name for ``schema`` (``[a-zA-Z0-9_-]{1,64}``)."""
    return re.sub(r"[^a-zA-Z0-9_-]", "_", schema.__name__)[:64] or "output"


def response_format(schema: type[BaseModel]) -> dict[str, Any]:
    """The Chat Completions ``response_format`` for ``schema``."""
    return {"type": "json_schema", "json_schema": {
        "name": schema_name(schema), "strict": True, "schema": strict_schema(schema)}}


def function_tool(tool: Tool) -> dict[str, Any]:
    """A strict Chat Completions function tool for ``tool``."""
    return {"type": "function", "function": {
        "name": tool.name, "description": tool.description, "strict": True,
        "parameters": strict_schema(tool.args_model)}}


def _tokens(completion: Any) -> tuple[int, int]:
    usage = getattr(completion, "usage", None)
    if usage is None:
        return 0, 0
    return int(usage.prompt_tokens or 0), int(usage.completion_tokens or 0)


def assemble_completion(chunks: Iterable[Any], on_delta: Callable[[str], None]) -> ChatCompletion:
    """The ``ChatCompletion`` that a stream of ``chat.completion.chunk`` events adds up to.

    Content and refusal deltas are concatenated (each content delta is passed to
    ``on_delta``); tool-call deltas are joined by their index (id and name from the first
    delta, arguments concatenated); the usage chunk gives the token counts.
    """
    head: dict[str, Any] = {}
    content: list[str] = []
    refusal: list[str] = []
    calls: dict[int, dict[str, Any]] = {}
    finish_reason = None
    usage = None
    for chunk in chunks:
        head = head or {"id": chunk.id, "created": chunk.created, "model": chunk.model}
        usage = chunk.usage or usage
        for choice in chunk.choices:
            finish_reason = choice.finish_reason or finish_reason
            delta = choice.delta
            if delta is None:
                continue
            if delta.content:
                content.append(delta.content)
                on_delta(delta.content)
            if delta.refusal:
                refusal.append(delta.refusal)
            for call in delta.tool_calls or []:
                slot = calls.setdefault(call.index, {"id": "", "type": "function",
                                                     "function": {"name": "", "arguments": ""}})
                slot["id"] = call.id or slot["id"]
                if call.function is not None:
                    slot["function"]["name"] += call.function.name or ""
                    slot["function"]["arguments"] += call.function.arguments or ""
    message: dict[str, Any] = {"role": "assistant", "content": "".join(content) or None,
                               "refusal": "".join(refusal) or None}
    if calls:
        message["tool_calls"] = [calls[i] for i in sorted(calls)]
    return ChatCompletion.model_validate({
        **head, "object": "chat.completion",
        "choices": [{"index": 0, "message": message,
                     "finish_reason": finish_reason or "stop", "logprobs": None}],
        "usage": usage.model_dump() if usage is not None else None,
    })


class OpenAIClient(BaseLLMClient):
    """:class:`~repro_assets.llm.types.LLMClient` over the OpenAI Chat Completions API.

    Also serves ``openai_compatible`` servers (vLLM, llama.cpp server, Ollama) through
    ``config.base_url``.

    Args:
        config: resolved configuration (provider ``openai`` or ``openai_compatible``).
        store: cache and usage store.
        sdk: an ``openai.OpenAI`` instance to use instead of building one (tests).
    """

    def __init__(self, config: LLMConfig, store: LLMStore | None = None,
                 sdk: openai.OpenAI | None = None) -> None:
        super().__init__(config, store)
        self.sdk = sdk or openai.OpenAI(
            api_key=config.api_key or "not-needed",
            base_url=config.base_url or OPENAI_BASE_URL,
            timeout=config.timeout_s,
            max_retries=config.sdk_max_retries,
        )
        self._served_model: str | None = None
        self._served_lock = threading.Lock()

    # ------------------------------------------------------------------ models
    def model_for(self, role: Role | str) -> str:
        """The model for ``role``; on a compatible server with none configured, its own model.

        Raises:
            LLMError: ``E_LLM_CONFIG`` when the server lists no model or several (the
                message names them) and none is configured.
        """
        if self.provider != "openai_compatible":
            return super().model_for(role)
        return (configured_model(self.provider, role, self.config.model_overrides)
                or self.served_model())

    def served_model(self) -> str:
        """The one model ``GET {base_url}/models`` lists (read once per client).

        Raises:
            LLMError: ``E_LLM_CONFIG`` when the list cannot be read, is empty or has several.
        """
        with self._served_lock:
            if self._served_model is None:
                self._served_model = self._read_served_model()
            return self._served_model

    def _read_served_model(self) -> str:
        where = self.config.base_url or OPENAI_BASE_URL
        try:
            page = self._with_retries(lambda timeout: self.sdk.models.list(timeout=timeout),
                                      model="(model list)")
            ids = [m.id for m in page.data]
        except LLMError as exc:
            raise LLMError(f"no model is configured and {where}/models could not be read "
                           f"({exc.code}: {exc}); set REPRO_LLM_MODEL", code="E_LLM_CONFIG"
                           ) from exc
        if len(ids) == 1:
            return ids[0]
        listed = ", ".join(ids) if ids else "none"
        raise LLMError(f"no model is configured and {where}/models lists {listed}: set "
                       "REPRO_LLM_MODEL (or REPRO_MODEL_<ROLE>) to one of them",
                       code="E_LLM_CONFIG")

    # ------------------------------------------------------------------ request building
    def _params(self, model: str, temperature: float, max_tokens: int) -> dict[str, Any]:
        params: dict[str, Any] = {"model": model}
        if not is_reasoning_model(model):
            params["temperature"] = temperature
        if self.provider == "openai":
            params["max_completion_tokens"] = max_tokens
        else:  # many compatible servers only know the older name
            params["max_tokens"] = max_tokens
        return params

    def _create(self, *, role: str, usage: list[LLMUsage], kind: str, **kwargs: Any) -> Any:
        if kind == "structured" and self.streams_tokens:
            return self._create_streamed(role=role, usage=usage, **kwargs)
        return self._call(
            lambda timeout: self.sdk.chat.completions.create(timeout=timeout, **kwargs),
            role=role, model=kwargs["model"], usage=usage, kind=kind, tokens=_tokens)

    def _create_streamed(self, *, role: str, usage: list[LLMUsage], **kwargs: Any) -> Any:
        """One structured turn requested as a stream (see ``set_event_handler``): its text
        deltas go to the event handler as they arrive; the chunks are assembled into the
        completion the same request without streaming returns."""
        started = time.perf_counter()
        chunks = self._stream_events(
            lambda timeout: self.sdk.chat.completions.create(
                stream=True, stream_options={"include_usage": True}, timeout=timeout,
                **kwargs),
            model=kwargs["model"],
            finished=lambda chunk: any(c.finish_reason for c in chunk.choices),
        )
        completion = assemble_completion(chunks, lambda delta: self._emit("token", delta=delta))
        self._emit("stream_end")
        usage.append(self._record(role, kwargs["model"], *_tokens(completion),
                                  time.perf_counter() - started, cache_hit=False,
                                  kind="structured"))
        return completion

    # ------------------------------------------------------------------ structured
    def _run_structured(self, request: StructuredCall[T]) -> tuple[T | None, str, bool]:
        role, model, system, user = request.role, request.model, request.system, request.user
        schema, tools, temperature = request.schema, request.tools, request.temperature
        max_tokens, usage, records = request.max_tokens, request.usage, request.records
        messages: list[dict[str, Any]] = [
            {"role": "system", "content": system},
            {"role": "user", "content": user},
        ]
        by_name = {tool.name: tool for tool in tools}
        params = self._params(model, temperature, max_tokens)
        params["response_format"] = response_format(schema)
        if tools:
            params["tools"] = [function_tool(tool) for tool in tools]
            if self.provider == "openai":
                params["parallel_tool_calls"] = False
        reasked = False
        raw_text = ""
        for _turn in range(max(1, self.config.max_tool_turns)):
            completion = self._create(role=role, usage=usage, kind="structured",
                                      messages=messages, **params)
            message = completion.choices[0].message
            if message.tool_calls:
                messages.append({
                    "role": "assistant", "content": message.content,
                    "tool_calls": [{"id": c.id, "type": "function",
                                    "function": {"name": c.function.name,
                                                 "arguments": c.function.arguments}}
                                   for c in message.tool_calls],
                })
                for call in message.tool_calls:
                    tool = by_name.get(call.function.name)
                    if tool is None:
                        content = json.dumps({"error": f"unknown tool {call.function.name!r}"})
                    else:
                        content = self._run_tool(tool, call.function.arguments, records)
                    messages.append({"role": "tool", "tool_call_id": call.id,
                                     "content": content})
                continue
            raw_text = message.content or message.refusal or ""
            parsed = parse_output(raw_text, schema)
            if parsed.value is not None:
                return parsed.value, raw_text, reasked  # type: ignore[return-value]
            if reasked:
                return None, raw_text, reasked
            reasked = True
            messages.append({"role": "assistant", "content": raw_text})
            messages.append({"role": "user", "content": REASK_TEMPLATE.format(
                schema=json.dumps(strict_schema(schema)))})
        raise LLMPolicyCapExceeded(
            f"{self.provider}/{model} used more than {self.config.max_tool_turns} tool turns",
            code="E_TOOL_TURNS_EXCEEDED",
        )

    # ------------------------------------------------------------------ text
    def _run_text(self, *, role: str, model: str, system: str, user: str, temperature: float,
                  max_tokens: int, usage: list[LLMUsage]) -> str:
        completion = self._create(
            role=role, usage=usage, kind="text",
            messages=[{"role": "system", "content": system}, {"role": "user", "content": user}],
            **self._params(model, temperature, max_tokens),
        )
        return completion.choices[0].message.content or ""

    def _stream(self, *, role: str, model: str, system: str, user: str, temperature: float,
                max_tokens: int) -> Iterator[str]:
        params = self._params(model, temperature, max_tokens)
        messages: list[Any] = [{"role": "system", "content": system},
                               {"role": "user", "content": user}]

        def texts(tally: StreamTally) -> Generator[str, None, None]:
            events = self._stream_events(
                lambda timeout: self.sdk.chat.completions.create(
                    messages=messages, stream=True, stream_options={"include_usage": True},
                    timeout=timeout, **params),
                model=model,
                finished=lambda chunk: any(c.finish_reason for c in chunk.choices),
            )
            for chunk in events:
                if getattr(chunk, "usage", None) is not None:
                    tally.input_tokens, tally.output_tokens = _tokens(chunk)
                for choice in chunk.choices:
                    delta = choice.delta.content if choice.delta else None
                    if delta:
                        yield delta

        yield from self._finish_stream(role, model, texts)

    # ------------------------------------------------------------------ errors
    def _classify(self, exc: BaseException) -> str | None:
        if isinstance(exc, openai.APITimeoutError):
            return TIMEOUT
        if isinstance(exc, openai.APIConnectionError):
            return CONNECTION
        if isinstance(exc, openai.RateLimitError):
            return RATE_LIMIT
        if isinstance(exc, openai.InternalServerError):
            return SERVER
        if isinstance(exc, openai.AuthenticationError | openai.PermissionDeniedError):
            return AUTH
        if isinstance(exc, openai.APIStatusError):
            if exc.status_code in (408, 409):
                return SERVER
            if 400 <= exc.status_code < 500:
                return BAD_REQUEST
            return SERVER
        if isinstance(exc, openai.OpenAIError):
            return OTHER
        return None
