"""A scripted OpenAI-compatible HTTP server on loopback (real sockets, real wire format).

Unlike :mod:`tests.fakes.llm_wire` (respx, in-process only), this is a real HTTP/1.1 server
on ``127.0.0.1`` and an ephemeral port, in a background thread. Anything can talk to it: the
``openai`` SDK in the test process, a ``repro-assets ...`` subprocess given
``REPRO_LLM_BASE_URL=server.base_url``, ``curl``. It speaks the Chat Completions wire format
as vLLM / llama.cpp / Ollama / OpenAI do: JSON responses, SSE streams (chunked transfer
encoding, a usage chunk when ``stream_options.include_usage`` is set, ``data: [DONE]``), tool
calls, usage; ``GET /v1/models``. Faults are scripted per request.

Usage::

    from tests.fakes.openai_server import OpenAIServer

    with OpenAIServer(models=["qwen2.5-7b-instruct"]) as server:
        server.reply_status(429, headers={"Retry-After": "0"})   # 1st request
        server.reply_tool_call("search_paper", {"query": "SST-2"})  # 2nd
        server.reply_json({"claims": []})                            # 3rd
        env = {"REPRO_LLM_PROVIDER": "openai_compatible", "REPRO_LLM_BASE_URL": server.base_url}
        ...  # run the client / a subprocess
    assert server.requests[1].model == "qwen2.5-7b-instruct"

Answers (``reply_text``, ``reply_json``, ``reply_tool_call(s)``) are rendered as one JSON
``chat.completion`` or, when the request says ``"stream": true``, as an SSE stream of
``chat.completion.chunk`` events: the same script serves both kinds of request.

Faults (keyword arguments of every ``reply_*`` method, or their own methods):

* ``reply_status(429, headers={"Retry-After": "2"})``, ``reply_status(500)``: an error body in
  OpenAI's format.
* ``truncate_at=N``: a 200 response whose body is only the first ``N`` bytes of the real
  body, framed correctly (``Content-Length: N``): what a proxy that cuts a body produces. The
  client sees invalid JSON (or an SSE stream that ends early) with a clean HTTP exchange.
* ``reply_truncated_json(obj)``: shorthand for a JSON answer cut in the middle.
* ``cut_after_events=N`` (streams): send only the first ``N`` SSE events: no
  ``finish_reason``, no usage chunk, no ``[DONE]``. With ``cut_mode="end"`` (default) the
  HTTP body then ends cleanly (what a crashed engine behind a still-running HTTP front end or a
  proxy produces: the client sees a short but well-framed stream); with ``cut_mode="abort"``
  the socket is closed without the terminating chunk (the client sees a connection error).
* ``delay_s``: wait before sending the status line (drives client read timeouts);
  ``event_delay_s``: wait between SSE events.
* ``drop=True``: close the connection without answering.

When the queue is empty, ``server.responder`` (if set) is called with the
:class:`RecordedRequest` and returns a :class:`Reply` (use it when the order of requests is not
known in advance, e.g. answer by ``request.schema_name``); otherwise the request gets HTTP 500
and is reported as unexpected: the ``with`` block fails on exit (as it does for scripted
replies never requested), unless ``strict=False``.

``models=[...]`` is what ``GET /v1/models`` lists. With ``known_models_only=True`` a chat
request for any other model gets a 404 in vLLM's format (``The model `gpt-4o` does not
exist.``), as a real single-model server answers. ``api_key="..."`` makes every endpoint
require ``Authorization: Bearer <key>`` (401 otherwise).

``server.requests`` lists every request received (thread-safe snapshot), including ``GET``.
"""

from __future__ import annotations

import json
import socket
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any

DEFAULT_MODEL = "scripted-model"
_CREATED = 1727346178


# --------------------------------------------------------------------------- requests
@dataclass(frozen=True)
class RecordedRequest:
    """One HTTP request the server received."""

    method: str
    path: str
    headers: dict[str, str]
    body: bytes

    @property
    def json(self) -> Any:
        """The decoded JSON body (None when empty or not JSON)."""
        try:
            return json.loads(self.body) if self.body else None
        except ValueError:
            return None

    def _field(self, name: str, default: Any = None) -> Any:
        body = self.json
        return body.get(name, default) if isinstance(body, dict) else default

    @property
    def model(self) -> str | None:
        """The requested model."""
        return self._field("model")

    @property
    def stream(self) -> bool:
        """True when the request asked for an SSE stream."""
        return bool(self._field("stream", False))

    @property
    def messages(self) -> list[dict[str, Any]]:
        """The chat messages sent."""
        return list(self._field("messages", []) or [])

    def _content(self, role: str) -> str:
        texts = []
        for message in self.messages:
            if message.get("role") != role:
                continue
            content = message.get("content")
            if isinstance(content, list):
                content = "".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
            texts.append(str(content or ""))
        return "\n".join(texts)

    @property
    def system(self) -> str:
        """The system message text(s)."""
        return self._content("system")

    @property
    def user(self) -> str:
        """The user message text(s)."""
        return self._content("user")

    @property
    def schema_name(self) -> str | None:
        """``response_format.json_schema.name`` of a structured-output request."""
        fmt = self._field("response_format") or {}
        return (fmt.get("json_schema") or {}).get("name") if isinstance(fmt, dict) else None

    @property
    def tool_names(self) -> list[str]:
        """Names of the function tools offered."""
        return [t.get("function", {}).get("name", "") for t in self._field("tools", []) or []]

    @property
    def has_tool_results(self) -> bool:
        """True when the conversation already carries tool results."""
        return any(m.get("role") == "tool" for m in self.messages)


# --------------------------------------------------------------------------- replies
@dataclass
class Answer:
    """An assistant turn, rendered as JSON or SSE depending on the request."""

    content: str | None = None
    tool_calls: list[tuple[str, dict[str, Any] | str]] = field(default_factory=list)
    usage: tuple[int, int] | None = None
    finish_reason: str | None = None
    model: str | None = None
    deltas: list[str] | None = None  # how to split ``content`` in a stream


@dataclass
class Reply:
    """One scripted HTTP reply.

    Attributes:
        status: HTTP status.
        body: raw body (JSON-able object, str or bytes) when ``answer`` is None.
        answer: an assistant turn (rendered per request: JSON or SSE).
        headers: extra response headers.
        delay_s: seconds to wait before answering.
        event_delay_s: seconds between SSE events.
        truncate_at: keep only this many body bytes (framing stays valid).
        cut_after_events: SSE only: stop after this many events.
        cut_mode: ``"end"`` (end the body cleanly) or ``"abort"`` (close the socket).
        drop: close the connection without any response.
    """

    status: int = 200
    body: Any = None
    answer: Answer | None = None
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0
    event_delay_s: float = 0.0
    truncate_at: int | None = None
    cut_after_events: int | None = None
    cut_mode: str = "end"
    drop: bool = False


Responder = Callable[[RecordedRequest], Reply]


def _words(text: str) -> int:
    return max(1, len(text.split())) if text else 0


def _usage(prompt: int, completion: int) -> dict[str, Any]:
    return {"prompt_tokens": prompt, "completion_tokens": completion,
            "total_tokens": prompt + completion,
            "completion_tokens_details": {"reasoning_tokens": 0}}


def _split(text: str, size: int = 12) -> list[str]:
    return [text[i:i + size] for i in range(0, len(text), size)] or [""]


def render_completion(answer: Answer, request: RecordedRequest) -> dict[str, Any]:
    """The ``chat.completion`` JSON object of ``answer``."""
    tool_calls = [{"id": "call_" + uuid.uuid4().hex[:24], "type": "function",
                   "function": {"name": name,
                                "arguments": args if isinstance(args, str) else json.dumps(args)}}
                  for name, args in answer.tool_calls]
    message: dict[str, Any] = {"role": "assistant", "content": answer.content, "refusal": None}
    if tool_calls:
        message["tool_calls"] = tool_calls
    finish = answer.finish_reason or ("tool_calls" if tool_calls else "stop")
    prompt, completion = answer.usage or (
        _words(json.dumps(request.messages)), _words(answer.content or "") + 8 * len(tool_calls))
    return {"id": "chatcmpl-" + uuid.uuid4().hex[:24], "object": "chat.completion",
            "created": _CREATED, "model": answer.model or request.model or DEFAULT_MODEL,
            "choices": [{"index": 0, "message": message, "logprobs": None,
                         "finish_reason": finish}],
            "usage": _usage(prompt, completion), "system_fingerprint": "fp_scripted"}


def render_stream(answer: Answer, request: RecordedRequest) -> list[bytes]:
    """The SSE events (``data: ...\\n\\n``) of ``answer`` as a stream of chunks."""
    base = {"id": "chatcmpl-" + uuid.uuid4().hex[:24], "object": "chat.completion.chunk",
            "created": _CREATED, "model": answer.model or request.model or DEFAULT_MODEL,
            "system_fingerprint": "fp_scripted"}

    def event(delta: dict[str, Any] | None, finish: str | None = None,
              usage: dict[str, Any] | None = None) -> bytes:
        choices = [] if delta is None else [
            {"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}]
        data: dict[str, Any] = {**base, "choices": choices}
        if usage is not None:
            data["usage"] = usage
        return ("data: " + json.dumps(data, separators=(",", ":")) + "\n\n").encode()

    events = [event({"role": "assistant", "content": "" if answer.content is not None
                     else None})]
    if answer.content:
        for piece in answer.deltas or _split(answer.content):
            events.append(event({"content": piece}))
    for index, (name, args) in enumerate(answer.tool_calls):
        arguments = args if isinstance(args, str) else json.dumps(args)
        events.append(event({"tool_calls": [{
            "index": index, "id": "call_" + uuid.uuid4().hex[:24], "type": "function",
            "function": {"name": name, "arguments": ""}}]}))
        for piece in _split(arguments, 8):
            events.append(event({"tool_calls": [{"index": index,
                                                 "function": {"arguments": piece}}]}))
    finish = answer.finish_reason or ("tool_calls" if answer.tool_calls else "stop")
    events.append(event({}, finish))
    options = request._field("stream_options") or {}
    if isinstance(options, dict) and options.get("include_usage"):
        prompt, completion = answer.usage or (
            _words(json.dumps(request.messages)),
            len(answer.deltas or _split(answer.content or "")) if answer.content else 0)
        events.append(event(None, usage=_usage(prompt, completion)))
    events.append(b"data: [DONE]\n\n")
    return events


def error_body(status: int, message: str | None = None) -> dict[str, Any]:
    """An error body in OpenAI's format."""
    kinds = {400: "invalid_request_error", 401: "invalid_request_error",
             404: "NotFoundError", 429: "rate_limit_exceeded", 408: "timeout"}
    return {"error": {"message": message or f"scripted HTTP {status}",
                      "type": kinds.get(status, "server_error"), "param": None,
                      "code": kinds.get(status, str(status))}}


# --------------------------------------------------------------------------- server
class OpenAIServer:
    """A scripted OpenAI-compatible HTTP server on ``127.0.0.1`` (port 0).

    Args:
        models: model ids listed by ``GET /v1/models`` (and the known models, see below).
        known_models_only: answer 404 to chat requests for a model not in ``models``.
        api_key: require ``Authorization: Bearer <api_key>`` on every endpoint.
        strict: fail the ``with`` block on unexpected requests or unused replies.
        responder: answers requests once the scripted queue is empty.
    """

    def __init__(self, *, models: Sequence[str] = (DEFAULT_MODEL,),
                 known_models_only: bool = False, api_key: str | None = None,
                 strict: bool = True, responder: Responder | None = None) -> None:
        self.models = list(models)
        self.known_models_only = known_models_only
        self.api_key = api_key
        self.strict = strict
        self.responder = responder
        self._queue: deque[Reply] = deque()
        self._requests: list[RecordedRequest] = []
        self._unexpected: list[str] = []
        self._lock = threading.Lock()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # ------------------------------------------------------------------ lifecycle
    def start(self) -> OpenAIServer:
        """Bind ``127.0.0.1:0`` and serve in a daemon thread."""
        server = self

        class Handler(_Handler):
            owner = server

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever,
                                        kwargs={"poll_interval": 0.05},
                                        name="openai-scripted-server", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and close the socket."""
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def __enter__(self) -> OpenAIServer:
        return self.start()

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()
        if exc_type is None and self.strict:
            self.check()

    def check(self) -> None:
        """Raise AssertionError on unexpected requests or scripted replies never used."""
        if self._unexpected:
            raise AssertionError("; ".join(self._unexpected))
        if self._queue:
            raise AssertionError(f"{len(self._queue)} scripted replies were never requested")

    # ------------------------------------------------------------------ addresses
    @property
    def port(self) -> int:
        """The bound port."""
        assert self._httpd is not None, "server not started"
        return int(self._httpd.server_address[1])

    @property
    def url(self) -> str:
        """``http://127.0.0.1:PORT``."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def base_url(self) -> str:
        """The OpenAI base URL (``http://127.0.0.1:PORT/v1``)."""
        return self.url + "/v1"

    def env(self, **extra: str) -> dict[str, str]:
        """Environment variables pointing the project's LLM layer at this server."""
        values = {"REPRO_LLM_PROVIDER": "openai_compatible", "REPRO_LLM_BASE_URL": self.base_url}
        if self.api_key:
            values["OPENAI_API_KEY"] = self.api_key
        return {**values, **extra}

    # ------------------------------------------------------------------ log
    @property
    def requests(self) -> list[RecordedRequest]:
        """Every request received so far, in order."""
        with self._lock:
            return list(self._requests)

    @property
    def chat_requests(self) -> list[RecordedRequest]:
        """The ``POST .../chat/completions`` requests received so far."""
        return [r for r in self.requests if r.path.rstrip("/").endswith("/chat/completions")]

    @property
    def pending(self) -> int:
        """How many scripted replies are still queued."""
        with self._lock:
            return len(self._queue)

    @property
    def unexpected(self) -> list[str]:
        """Messages about requests nothing was scripted for."""
        with self._lock:
            return list(self._unexpected)

    # ------------------------------------------------------------------ scripting
    def reply(self, reply: Reply) -> OpenAIServer:
        """Queue one reply for the next chat request."""
        with self._lock:
            self._queue.append(reply)
        return self

    def reply_raw(self, status: int, body: Any = None, *,
                  headers: dict[str, str] | None = None, **faults: Any) -> OpenAIServer:
        """Queue any HTTP reply (``body``: bytes, str or a JSON-able object)."""
        return self.reply(Reply(status=status, body=body, headers=dict(headers or {}), **faults))

    def reply_status(self, status: int, *, headers: dict[str, str] | None = None,
                     message: str | None = None, **faults: Any) -> OpenAIServer:
        """Queue an API error (e.g. 429 with ``Retry-After``, 500, 503)."""
        return self.reply_raw(status, error_body(status, message), headers=headers, **faults)

    def reply_text(self, text: str, *, usage: tuple[int, int] | None = None,
                   model: str | None = None, finish_reason: str | None = None,
                   deltas: Sequence[str] | None = None, **faults: Any) -> OpenAIServer:
        """Queue an assistant message whose content is ``text`` (JSON or SSE per request)."""
        answer = Answer(content=text, usage=usage, model=model, finish_reason=finish_reason,
                        deltas=list(deltas) if deltas is not None else None)
        return self.reply(Reply(answer=answer, **faults))

    def reply_json(self, obj: Any, **kwargs: Any) -> OpenAIServer:
        """Queue a structured-output answer: the content is ``json.dumps(obj)``."""
        return self.reply_text(json.dumps(obj), **kwargs)

    def reply_tool_calls(self, calls: Iterable[tuple[str, dict[str, Any] | str]], *,
                         usage: tuple[int, int] | None = None, **faults: Any) -> OpenAIServer:
        """Queue an assistant message calling several function tools."""
        return self.reply(Reply(answer=Answer(tool_calls=list(calls), usage=usage), **faults))

    def reply_tool_call(self, name: str, args: dict[str, Any] | str, **kwargs: Any,
                        ) -> OpenAIServer:
        """Queue an assistant message calling one function tool."""
        return self.reply_tool_calls([(name, args)], **kwargs)

    def reply_truncated_json(self, obj: Any, *, keep: float = 0.5, **kwargs: Any,
                             ) -> OpenAIServer:
        """Queue an HTTP 200 whose ``chat.completion`` body is cut after ``keep`` of its bytes.

        The framing is valid (``Content-Length`` matches what is sent); the JSON is not.
        """
        probe = render_completion(Answer(content=json.dumps(obj)),
                                  RecordedRequest("POST", "", {}, b""))
        size = len(json.dumps(probe).encode())
        return self.reply_json(obj, truncate_at=max(1, int(size * keep)), **kwargs)

    def reply_stream_cut(self, text: str, *, events: int = 2, mode: str = "end",
                         **kwargs: Any) -> OpenAIServer:
        """Queue a stream of ``text`` that stops after ``events`` SSE events.

        ``mode="end"`` ends the body cleanly, ``mode="abort"`` closes the socket.
        """
        return self.reply_text(text, cut_after_events=events, cut_mode=mode, **kwargs)

    def reply_slow(self, seconds: float, text: str = "{}", **kwargs: Any) -> OpenAIServer:
        """Queue an answer sent only after ``seconds`` (drives client timeouts)."""
        return self.reply_text(text, delay_s=seconds, **kwargs)

    def reply_drop(self) -> OpenAIServer:
        """Queue a connection closed without any response."""
        return self.reply(Reply(drop=True))

    # ------------------------------------------------------------------ dispatch
    def _record(self, request: RecordedRequest) -> None:
        with self._lock:
            self._requests.append(request)

    def _authorized(self, request: RecordedRequest) -> bool:
        if not self.api_key:
            return True
        header = {k.lower(): v for k, v in request.headers.items()}.get("authorization", "")
        return header == f"Bearer {self.api_key}"

    def _next_reply(self, request: RecordedRequest) -> Reply:
        with self._lock:
            if self._queue:
                return self._queue.popleft()
        if self.responder is not None:
            return self.responder(request)
        message = (f"OpenAIServer: no reply queued for {request.method} {request.path} "
                   f"(request #{len(self.requests)})")
        with self._lock:
            self._unexpected.append(message)
        return Reply(status=500, body=error_body(500, message))

    def models_body(self) -> dict[str, Any]:
        """The ``GET /v1/models`` body."""
        return {"object": "list", "data": [
            {"id": m, "object": "model", "created": _CREATED, "owned_by": "scripted",
             "root": m, "parent": None, "max_model_len": 32768} for m in self.models]}

    def dispatch(self, request: RecordedRequest) -> Reply:
        """The reply for one request (called by the handler thread)."""
        self._record(request)
        if not self._authorized(request):
            return Reply(status=401, body=error_body(401, "Incorrect API key provided"))
        path = request.path.split("?", 1)[0].rstrip("/")
        if request.method == "GET" and path.endswith("/models"):
            return Reply(status=200, body=self.models_body())
        if request.method == "POST" and path.endswith("/chat/completions"):
            if request.json is None:
                return Reply(status=400, body=error_body(400, "body is not JSON"))
            if self.known_models_only and request.model not in self.models:
                return Reply(status=404, body=error_body(
                    404, f"The model `{request.model}` does not exist."))
            return self._next_reply(request)
        return Reply(status=404, body=error_body(404, f"no route {request.method} {path}"))


class _Handler(BaseHTTPRequestHandler):
    owner: OpenAIServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib signature
        """Silence the default stderr access log."""

    def handle(self) -> None:
        """Serve the connection; a client that went away (timeouts, aborts) is not an error."""
        try:
            super().handle()
        except (BrokenPipeError, ConnectionResetError, ConnectionAbortedError):
            self.close_connection = True

    def _read(self) -> RecordedRequest:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        return RecordedRequest(self.command, self.path, dict(self.headers.items()), body)

    def do_GET(self) -> None:  # noqa: N802 - stdlib naming
        """Serve ``GET``."""
        self._serve()

    def do_POST(self) -> None:  # noqa: N802 - stdlib naming
        """Serve ``POST``."""
        self._serve()

    def _serve(self) -> None:
        request = self._read()
        reply = self.owner.dispatch(request)
        if reply.delay_s:
            time.sleep(reply.delay_s)
        if reply.drop:
            self._abort()
            return
        if reply.answer is not None and request.stream and reply.status == 200:
            self._send_stream(reply, render_stream(reply.answer, request))
            return
        if reply.answer is not None:
            body: Any = render_completion(reply.answer, request)
        else:
            body = reply.body
        if isinstance(body, bytes):
            data = body
        elif isinstance(body, str):
            data = body.encode()
        else:
            data = json.dumps(body).encode() if body is not None else b""
        if reply.truncate_at is not None:
            data = data[:reply.truncate_at]
        headers = dict(reply.headers)
        self.send_response(reply.status)
        self.send_header("Content-Type", headers.pop("Content-Type", "application/json"))
        self.send_header("Content-Length", str(len(data)))
        self.send_header("x-request-id", "req_" + uuid.uuid4().hex[:16])
        for name, value in headers.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)
        self.wfile.flush()

    def _send_stream(self, reply: Reply, events: list[bytes]) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream; charset=utf-8")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        for name, value in reply.headers.items():
            self.send_header(name, value)
        self.end_headers()
        payload = b"".join(events)
        limit = len(payload) if reply.truncate_at is None else reply.truncate_at
        sent_bytes = 0
        for index, data in enumerate(events):
            if reply.cut_after_events is not None and index >= reply.cut_after_events:
                if reply.cut_mode == "abort":
                    self._abort()
                    return
                break
            if sent_bytes + len(data) > limit:
                data = data[:limit - sent_bytes]
            if data:
                self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
                self.wfile.flush()
            sent_bytes += len(data)
            if sent_bytes >= limit:
                break
            if reply.event_delay_s:
                time.sleep(reply.event_delay_s)
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()

    def _abort(self) -> None:
        """Close the socket at once (no terminating chunk, no response)."""
        self.close_connection = True
        try:
            self.wfile.flush()
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
