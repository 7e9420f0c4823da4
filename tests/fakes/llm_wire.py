"""Wire-level fakes of the OpenAI Chat Completions and Anthropic Messages APIs (respx).

The real ``openai`` / ``anthropic`` SDK clients send real HTTP requests; respx intercepts them
and answers from a queue of scripted replies built on recorded API payloads
(``tests/fixtures/llm/``). Nothing leaves the process.

The SDKs (openai 3.x, anthropic 2.x) use ``httpx2``, which respx does not patch by itself;
importing this module registers a respx mocker named ``"httpx2"`` that bridges ``httpx2``
clients to respx routes (``respx.mock(using="httpx2")``). The fakes below use it.

OpenAI::

    from tests.fakes.llm_wire import OpenAIWireFake

    def test_extract(fresh_database):
        with OpenAIWireFake() as fake:
            fake.reply_tool_call("search_paper", {"query": "accuracy on SST-2"})
            fake.reply_json({"claims": [...]})            # message.content = JSON text
            client = fake.make_client()                    # LLMResource(provider="openai", ...)
            result = client.structured(role="extractor", system="...", user="...",
                                       schema=ExtractorOutput, tools=[search_tool])
        assert fake.requests[0].json["model"] == "gpt-4o"
        assert fake.requests[1].json["messages"][-1]["role"] == "tool"

Replies are queued: each request to the endpoint takes the next reply, in order. A request
with no reply queued gets HTTP 500 and fails the ``with`` block on exit (as do replies that
were never used, unless ``OpenAIWireFake(strict=False)``). Scripts:

* ``reply_json(obj)``: a structured-output answer (the JSON text of ``obj``).
* ``reply_text(text)`` / ``reply_malformed(text)``: plain content (e.g. ``'{"claims": ['``).
* ``reply_tool_call(name, args)`` / ``reply_tool_calls([(name, args), ...])``.
* ``reply_status(429, headers={"Retry-After": "1"})``: an API error body with that status.
* ``reply_timeout()``: the transport raises a read timeout.
* ``reply_stream_text(["Hel", "lo"])``: an SSE stream of content deltas (``stream_text``).
* ``reply_raw(status, body, headers)``: anything else.

``usage=(input_tokens, output_tokens)`` and ``model=`` are accepted by the content replies.
``fake.requests`` lists what was sent (``.json`` body, ``.headers``, ``.url``);
``fake.make_client(**kw)`` returns ``LLMResource(provider="openai", openai_api_key="sk-test",
cache_enabled=False, ...).get_client()`` with zero SDK retries and near-zero backoff waits
(override any resource field through ``kw``).

Anthropic: ``AnthropicWireFake`` has the same methods; ``reply_json(obj)`` answers with a
``tool_use`` block of the structured-output tool (``emit_output``), ``reply_text`` with a text
block, ``reply_malformed(obj_or_text)`` with an invalid output-tool input (or text), and
``make_client()`` builds ``LLMResource(provider="anthropic", anthropic_api_key="sk-ant-test",
...)``. Its message answers (``reply_text``, ``reply_json``, ``reply_malformed``,
``reply_tool_call(s)``) are one JSON message or, when the request says ``"stream": true``, the
same message as the Messages API's SSE stream (``message_start``, ``content_block_start``,
``content_block_delta`` with ``text_delta`` / ``input_json_delta`` pieces,
``content_block_stop``, ``message_delta`` with the stop reason and output tokens,
``message_stop``): the same script serves both kinds of request. Stream faults, keywords of
those methods: ``cut_after_events=N`` sends only the first ``N`` events (the body then ends
cleanly), ``error_after_events=N`` sends them followed by an ``error`` event
(``overloaded_error``), as the API does when it fails mid-stream.
"""

from __future__ import annotations

import copy
import json
import uuid
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

import httpx
import httpx2
import respx
from respx.mocks import Mocker

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "llm"

OPENAI_URL = "https://api.openai.com/v1/chat/completions"
ANTHROPIC_URL = "https://api.anthropic.com/v1/messages"
OUTPUT_TOOL_NAME = "emit_output"  # mirrors repro_assets.llm.base.OUTPUT_TOOL_NAME

#: Fast, deterministic client settings for tests (no real sleeps).
FAST_CLIENT_CONFIG: dict[str, Any] = {
    "cache_enabled": False,
    "record_usage": False,
    "sdk_max_retries": 0,
    "retry_attempts": 3,
    "retry_wait_min_s": 0.0,
    "retry_wait_max_s": 0.01,
    "retry_after_scale": 0.001,
    "request_timeout_s": 5.0,
}


# --------------------------------------------------------------------------- respx <-> httpx2
def _to_httpx_request(request: httpx2.Request) -> httpx.Request:
    return httpx.Request(request.method, str(request.url), headers=list(request.headers.raw),
                         content=request.content)


def _to_httpx2_response(response: httpx.Response, request: httpx2.Request) -> httpx2.Response:
    return httpx2.Response(response.status_code, headers=list(response.headers.raw),
                           content=response.read(), request=request)


def _translate_error(exc: Exception) -> Exception:
    if isinstance(exc, httpx.TimeoutException):
        return httpx2.ReadTimeout(str(exc) or "read timed out")
    if isinstance(exc, httpx.ConnectError):
        return httpx2.ConnectError(str(exc) or "connection failed")
    return exc


class HTTPX2Mocker(Mocker):
    """respx mocker for ``httpx2`` clients: ``respx.mock(using="httpx2")``."""

    name = "httpx2"
    targets = ["httpx2._client.Client", "httpx2._client.AsyncClient"]
    target_methods = ["_transport_for_url"]

    @classmethod
    def mock(cls, spec: Callable[..., Any]) -> Callable[..., Any]:
        def _transport_for_url(self: Any, *args: Any, **kwargs: Any) -> Any:
            def handler(request: httpx2.Request) -> httpx2.Response:
                try:
                    response = cls.handler(_to_httpx_request(request))
                except Exception as exc:
                    translated = _translate_error(exc)
                    if translated is exc:
                        raise
                    raise translated from exc
                return _to_httpx2_response(response, request)

            return httpx2.MockTransport(handler)

        return _transport_for_url


# --------------------------------------------------------------------------- common fake
@dataclass
class WireRequest:
    """One request the SDK sent."""

    method: str
    url: str
    headers: dict[str, str]
    body: bytes

    @property
    def json(self) -> Any:
        """The decoded JSON body."""
        return json.loads(self.body) if self.body else None


Reply = Callable[[httpx.Request], httpx.Response]


def _load(name: str) -> Any:
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


class _WireFake:
    url: str = ""
    provider: str = ""

    def __init__(self, *, url: str | None = None, strict: bool = True) -> None:
        self.url = url or self.url
        self.strict = strict
        self.requests: list[WireRequest] = []
        self._queue: deque[Reply] = deque()
        self._unexpected: list[str] = []
        self._router: respx.MockRouter | None = None

    # context management ----------------------------------------------------------
    def __enter__(self) -> _WireFake:
        self._router = respx.mock(using="httpx2", assert_all_called=False,
                                  assert_all_mocked=True)
        self._router.__enter__()
        self._router.post(self.url).mock(side_effect=self._next)
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        assert self._router is not None
        self._router.__exit__(exc_type, exc, tb)
        self._router = None
        if exc_type is None and self.strict:
            if self._unexpected:
                raise AssertionError("; ".join(self._unexpected))
            if self._queue:
                raise AssertionError(f"{len(self._queue)} scripted replies were never requested")

    def _next(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(WireRequest(request.method, str(request.url),
                                         dict(request.headers), request.content))
        if not self._queue:
            message = (f"{type(self).__name__}: no reply queued for request "
                       f"#{len(self.requests)}")
            self._unexpected.append(message)
            return httpx.Response(500, json={"error": {"message": message,
                                                       "type": "server_error"}})
        return self._queue.popleft()(request)

    @property
    def pending(self) -> int:
        """How many scripted replies are still queued."""
        return len(self._queue)

    # scripts shared by both APIs --------------------------------------------------
    def reply_raw(self, status: int, body: Any = None, headers: dict[str, str] | None = None,
                  ) -> _WireFake:
        """Queue any HTTP reply (``body``: bytes, str or a JSON-able object)."""
        def reply(_request: httpx.Request) -> httpx.Response:
            if isinstance(body, bytes | str):
                return httpx.Response(status, content=body, headers=headers)
            return httpx.Response(status, json=body, headers=headers)

        self._queue.append(reply)
        return self

    def reply_timeout(self) -> _WireFake:
        """Queue a transport read timeout (the SDK raises its APITimeoutError)."""
        def reply(request: httpx.Request) -> httpx.Response:
            raise httpx.ReadTimeout("scripted read timeout", request=request)

        self._queue.append(reply)
        return self

    def reply_status(self, status: int, *, headers: dict[str, str] | None = None,
                     message: str | None = None) -> _WireFake:
        """Queue an API error with ``status`` (e.g. 429 with ``Retry-After``, 500)."""
        return self.reply_raw(status, self.error_body(status, message), headers)

    def error_body(self, status: int, message: str | None) -> dict[str, Any]:
        """The provider's error JSON for ``status``."""
        raise NotImplementedError


# --------------------------------------------------------------------------- OpenAI
class OpenAIWireFake(_WireFake):
    """Scripted replies for ``POST https://api.openai.com/v1/chat/completions``."""

    url = OPENAI_URL
    provider = "openai"

    def error_body(self, status: int, message: str | None) -> dict[str, Any]:
        kinds = {400: "invalid_request_error", 401: "invalid_request_error",
                 429: "rate_limit_exceeded", 408: "timeout"}
        return {"error": {"message": message or f"scripted HTTP {status}",
                          "type": kinds.get(status, "server_error"), "param": None,
                          "code": kinds.get(status)}}

    def _completion(self, message: dict[str, Any], finish_reason: str,
                    usage: tuple[int, int] | None, model: str | None) -> dict[str, Any]:
        template = "chat_completions_tool_calls_parallel.json" if message.get("tool_calls") \
            else "chat_completions_json_content.json"
        body = copy.deepcopy(_load(template))
        body["id"] = "chatcmpl-" + uuid.uuid4().hex[:24]
        if model:
            body["model"] = model
        choice = body["choices"][0]
        choice["message"] = {"role": "assistant", "content": None, "refusal": None, **message}
        choice["finish_reason"] = finish_reason
        if usage:
            body["usage"].update(prompt_tokens=usage[0], completion_tokens=usage[1],
                                 total_tokens=usage[0] + usage[1])
        return body

    def reply_text(self, text: str, *, usage: tuple[int, int] | None = None,
                   model: str | None = None, finish_reason: str = "stop") -> OpenAIWireFake:
        """Queue an assistant message whose content is ``text``."""
        self.reply_raw(200, self._completion({"content": text}, finish_reason, usage, model))
        return self

    def reply_json(self, obj: Any, *, usage: tuple[int, int] | None = None,
                   model: str | None = None) -> OpenAIWireFake:
        """Queue a structured-output answer: the content is ``json.dumps(obj)``."""
        return self.reply_text(json.dumps(obj), usage=usage, model=model)

    def reply_malformed(self, text: str = '{"claims": [', *,
                        usage: tuple[int, int] | None = None) -> OpenAIWireFake:
        """Queue content that is not valid JSON for the schema."""
        return self.reply_text(text, usage=usage)

    def reply_tool_calls(self, calls: Sequence[tuple[str, dict[str, Any]]], *,
                         usage: tuple[int, int] | None = None) -> OpenAIWireFake:
        """Queue an assistant message calling several function tools."""
        tool_calls = [{"id": "call_" + uuid.uuid4().hex[:24], "type": "function",
                       "function": {"name": name, "arguments": json.dumps(args)}}
                      for name, args in calls]
        self.reply_raw(200, self._completion({"tool_calls": tool_calls}, "tool_calls", usage,
                                             None))
        return self

    def reply_tool_call(self, name: str, args: dict[str, Any], *,
                        usage: tuple[int, int] | None = None) -> OpenAIWireFake:
        """Queue an assistant message calling one function tool."""
        return self.reply_tool_calls([(name, args)], usage=usage)

    def reply_stream_text(self, deltas: Iterable[str], *,
                          usage: tuple[int, int] = (12, 5)) -> OpenAIWireFake:
        """Queue an SSE stream of content deltas, a usage chunk and ``[DONE]``."""
        base = {"id": "chatcmpl-" + uuid.uuid4().hex[:24], "object": "chat.completion.chunk",
                "created": 1727346178, "model": "gpt-4o-2024-08-06",
                "system_fingerprint": "fp_5050236cbd"}

        def chunk(delta: dict[str, Any] | None, finish: str | None = None,
                  chunk_usage: dict[str, int] | None = None) -> str:
            choices = [] if delta is None else [
                {"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}]
            data = {**base, "choices": choices}
            if chunk_usage is not None:
                data["usage"] = chunk_usage
            return "data: " + json.dumps(data, separators=(",", ":")) + "\n\n"

        parts = [chunk({"role": "assistant", "content": ""})]
        parts += [chunk({"content": d}) for d in deltas]
        parts.append(chunk({}, "stop"))
        parts.append(chunk(None, chunk_usage={"prompt_tokens": usage[0],
                                              "completion_tokens": usage[1],
                                              "total_tokens": sum(usage)}))
        parts.append("data: [DONE]\n\n")
        return self.reply_raw(200, "".join(parts), {"content-type": "text/event-stream"})

    def make_client(self, **overrides: Any) -> Any:
        """An OpenAI ``LLMClient`` from ``LLMResource`` with fast test settings."""
        from repro_assets.resources.llm import LLMResource

        settings = {"provider": "openai", "openai_api_key": "sk-test", **FAST_CLIENT_CONFIG,
                    **overrides}
        return LLMResource(**settings).get_client()


# --------------------------------------------------------------------------- Anthropic
def _pieces(text: str, size: int = 12) -> list[str]:
    """``text`` in deltas of ``size`` characters (at least one, possibly empty)."""
    return [text[i:i + size] for i in range(0, len(text), size)] or [""]


def _sse_event(name: str, data: dict[str, Any]) -> str:
    return f"event: {name}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


def message_stream_events(body: dict[str, Any],
                          deltas: Sequence[Sequence[str]] | None = None) -> list[str]:
    """The Messages API SSE events that stream the message ``body``, in wire order.

    Text blocks arrive as ``text_delta`` pieces, tool inputs as ``input_json_delta`` pieces of
    their JSON (after the empty first piece the API sends); ``deltas`` gives a block's pieces
    explicitly (by block index). Usage: input tokens on ``message_start``, output tokens on
    ``message_delta``.
    """
    usage = body.get("usage") or {}
    start = {**body, "content": [], "stop_reason": None, "stop_sequence": None,
             "usage": {"input_tokens": usage.get("input_tokens", 0),
                       "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0,
                       "output_tokens": 1, "service_tier": "standard"}}
    events = [_sse_event("message_start", {"type": "message_start", "message": start})]
    for index, block in enumerate(body["content"]):
        if block["type"] == "text":
            head = {"type": "text", "text": ""}
            pieces = [{"type": "text_delta", "text": piece}
                      for piece in (deltas[index] if deltas else _pieces(block["text"]))]
        else:
            head = {**block, "input": {}}
            raw = json.dumps(block["input"])
            pieces = [{"type": "input_json_delta", "partial_json": piece}
                      for piece in ["", *(deltas[index] if deltas else _pieces(raw, 8))]]
        events.append(_sse_event("content_block_start", {
            "type": "content_block_start", "index": index, "content_block": head}))
        if index == 0:
            events.append(_sse_event("ping", {"type": "ping"}))
        events += [_sse_event("content_block_delta", {"type": "content_block_delta",
                                                      "index": index, "delta": piece})
                   for piece in pieces]
        events.append(_sse_event("content_block_stop", {"type": "content_block_stop",
                                                        "index": index}))
    events.append(_sse_event("message_delta", {
        "type": "message_delta",
        "delta": {"stop_reason": body["stop_reason"], "stop_sequence": None},
        "usage": {"output_tokens": usage.get("output_tokens", 0)}}))
    events.append(_sse_event("message_stop", {"type": "message_stop"}))
    return events


class AnthropicWireFake(_WireFake):
    """Scripted replies for ``POST https://api.anthropic.com/v1/messages``."""

    url = ANTHROPIC_URL
    provider = "anthropic"

    def error_body(self, status: int, message: str | None) -> dict[str, Any]:
        kinds = {400: "invalid_request_error", 401: "authentication_error",
                 429: "rate_limit_error", 529: "overloaded_error"}
        return {"type": "error", "error": {"type": kinds.get(status, "api_error"),
                                           "message": message or f"scripted HTTP {status}"}}

    def _message(self, content: list[dict[str, Any]], stop_reason: str,
                 usage: tuple[int, int] | None, model: str | None) -> dict[str, Any]:
        body = copy.deepcopy(_load("messages_text_and_tool_use.json"))
        body["id"] = "msg_" + uuid.uuid4().hex[:24]
        body["model"] = model or "claude-sonnet-4-20250514"
        body["content"] = content
        body["stop_reason"] = stop_reason
        if usage:
            body["usage"].update(input_tokens=usage[0], output_tokens=usage[1])
        return body

    def _reply_message(self, body: dict[str, Any], *, cut_after_events: int | None = None,
                       error_after_events: int | None = None) -> AnthropicWireFake:
        """Queue ``body``: as JSON, or as an SSE stream when the request asks for one."""
        def reply(request: httpx.Request) -> httpx.Response:
            if not json.loads(request.content or b"{}").get("stream"):
                return httpx.Response(200, json=body)
            events = message_stream_events(body)
            if error_after_events is not None:
                events = events[:error_after_events] + [_sse_event("error", {
                    "type": "error", "error": {"type": "overloaded_error",
                                               "message": "Overloaded"}})]
            elif cut_after_events is not None:
                events = events[:cut_after_events]
            return httpx.Response(200, content="".join(events),
                                  headers={"content-type": "text/event-stream"})

        self._queue.append(reply)
        return self

    @staticmethod
    def _tool_use(name: str, args: Any) -> dict[str, Any]:
        return {"type": "tool_use", "id": "toolu_" + uuid.uuid4().hex[:24], "name": name,
                "input": args}

    def reply_text(self, text: str, *, usage: tuple[int, int] | None = None,
                   model: str | None = None, stop_reason: str = "end_turn",
                   **faults: int) -> AnthropicWireFake:
        """Queue a message with one text block."""
        return self._reply_message(
            self._message([{"type": "text", "text": text}], stop_reason, usage, model),
            **faults)

    def reply_json(self, obj: Any, *, usage: tuple[int, int] | None = None,
                   model: str | None = None, **faults: int) -> AnthropicWireFake:
        """Queue a structured answer: a ``tool_use`` of the output tool with input ``obj``."""
        return self._reply_message(
            self._message([self._tool_use(OUTPUT_TOOL_NAME, obj)], "tool_use", usage, model),
            **faults)

    def reply_malformed(self, obj_or_text: Any = '{"claims": [', *,
                        usage: tuple[int, int] | None = None, **faults: int,
                        ) -> AnthropicWireFake:
        """Queue an invalid answer: text (a str) or an output-tool input failing the schema."""
        if isinstance(obj_or_text, str):
            return self.reply_text(obj_or_text, usage=usage, **faults)
        return self.reply_json(obj_or_text, usage=usage, **faults)

    def reply_tool_calls(self, calls: Sequence[tuple[str, dict[str, Any]]], *,
                         usage: tuple[int, int] | None = None, **faults: int,
                         ) -> AnthropicWireFake:
        """Queue a message with several ``tool_use`` blocks."""
        content = [{"type": "text", "text": "Let me look that up."}]
        content += [self._tool_use(name, args) for name, args in calls]
        return self._reply_message(self._message(content, "tool_use", usage, None), **faults)

    def reply_tool_call(self, name: str, args: dict[str, Any], *,
                        usage: tuple[int, int] | None = None, **faults: int,
                        ) -> AnthropicWireFake:
        """Queue a message calling one tool."""
        return self.reply_tool_calls([(name, args)], usage=usage, **faults)

    def reply_stream_text(self, deltas: Iterable[str], *,
                          usage: tuple[int, int] = (12, 5)) -> AnthropicWireFake:
        """Queue an SSE stream (message_start, text deltas, message_delta, message_stop)."""
        pieces = list(deltas)
        body = self._message([{"type": "text", "text": "".join(pieces)}], "end_turn", usage,
                             None)
        return self.reply_raw(200, "".join(message_stream_events(body, [pieces])),
                              {"content-type": "text/event-stream"})

    def make_client(self, **overrides: Any) -> Any:
        """An Anthropic ``LLMClient`` from ``LLMResource`` with fast test settings."""
        from repro_assets.resources.llm import LLMResource

        settings = {"provider": "anthropic", "anthropic_api_key": "sk-ant-test",
                    **FAST_CLIENT_CONFIG, **overrides}
        return LLMResource(**settings).get_client()


def make_client(**overrides: Any) -> Any:
    """``LLMResource(provider="openai", openai_api_key="sk-test", cache_enabled=False, ...)``.

    Use inside an ``OpenAIWireFake`` block; ``overrides`` are ``LLMResource`` fields.
    """
    return OpenAIWireFake().make_client(**overrides)
