"""What every real provider client shares: retries, usage, cache, tool caps, output parsing.

A provider subclass implements the conversation itself (:meth:`BaseLLMClient._run_structured`,
:meth:`BaseLLMClient._run_text`, :meth:`BaseLLMClient._stream`) and classifies its SDK's
exceptions (:meth:`BaseLLMClient._classify`); this class wraps every SDK call in a tenacity
loop that honours ``Retry-After`` and maps what is left to the typed errors of
:mod:`repro_assets.llm.types`.

One model turn has one deadline (``LLMConfig.call_deadline_s``): every attempt's request
timeout is cut to what is left of it, no retry starts (or waits) past it, and a stream is
abandoned when it runs past it. The SDKs' own retries are off by default, so the worst case
of one turn is the deadline, not ``timeout x SDK tries x attempts``. A response body that is
not valid JSON (a proxy cut it, a server crashed mid-write) is retried like a 5xx and ends as
``E_LLM_BAD_RESPONSE``; a stream that ends before the model finished is
``E_LLM_STREAM_INCOMPLETE``, never a complete answer.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import threading
import time
from collections.abc import Callable, Generator, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import tenacity
from pydantic import BaseModel, ValidationError

from repro_assets.llm.cache import LLMStore, cache_key
from repro_assets.llm.config import LLMConfig, cost_usd, price_for
from repro_assets.llm.types import (
    CacheScope,
    EventHandler,
    LLMError,
    LLMInvalidOutput,
    LLMPolicyCapExceeded,
    LLMRateLimited,
    LLMResult,
    LLMTimeout,
    LLMUnavailable,
    LLMUsage,
    Role,
    Tool,
    ToolCallRecord,
)

log = logging.getLogger(__name__)

T = TypeVar("T", bound=BaseModel)

#: Name of the output tool of tool-use structured output (Anthropic).
OUTPUT_TOOL_NAME = "emit_output"

#: The exact re-ask sent once after malformed or schema-invalid JSON.
REASK_TEMPLATE = (
    "Your response was invalid JSON. Return ONLY valid JSON matching this schema: {schema}"
)

#: A caller's last resort after the re-ask failed: ``fallback(raw_text, schema) -> instance``
#: (e.g. :func:`repro_assets.llm.jsonizer.jsonizer_fallback`).
Fallback = Callable[[str, type[T]], T]

# error kinds returned by _classify
RATE_LIMIT = "rate_limit"
TIMEOUT = "timeout"
SERVER = "server"
CONNECTION = "connection"
AUTH = "auth"
BAD_REQUEST = "bad_request"
BAD_RESPONSE = "bad_response"
OTHER = "other"
_RETRYABLE = frozenset({RATE_LIMIT, TIMEOUT, SERVER, CONNECTION, BAD_RESPONSE})

#: A function making one SDK request with the given request timeout (seconds).
Attempt = Callable[[float], Any]


def role_name(role: Role | str) -> str:
    """Return the plain role string."""
    return str(role.value if isinstance(role, Role) else role)


@dataclass
class ToolBudget:
    """Per-run tool-call counters (seed 000, Common Patterns 4: Tool Usage Tracking)."""

    caps: dict[str, int]
    counts: dict[str, int] = field(default_factory=dict)

    def record(self, tool: Tool) -> None:
        """Count one call of ``tool``.

        Raises:
            LLMPolicyCapExceeded: when the tool's cap bucket goes over its cap.
        """
        bucket = tool.cap_key
        if not bucket:
            return
        self.counts[bucket] = self.counts.get(bucket, 0) + 1
        cap = self.caps.get(bucket)
        if cap is not None and self.counts[bucket] > cap:
            raise LLMPolicyCapExceeded(
                f"Exceeded {bucket} cap ({cap}) with tool {tool.name!r}",
                code="E_POLICY_CAP_EXCEEDED",
            )


@dataclass
class ParsedOutput:
    """The outcome of validating one model output against the schema."""

    value: BaseModel | None
    error: str | None


def parse_output(raw: str | dict[str, Any] | None, schema: type[T]) -> ParsedOutput:
    """Validate ``raw`` (JSON text or an already-decoded object) against ``schema``.

    Text may be wrapped in a Markdown code fence; nothing else is repaired.
    """
    if raw is None:
        return ParsedOutput(None, "empty output")
    try:
        if isinstance(raw, str):
            text = raw.strip()
            if text.startswith("```"):
                text = text.strip("`")
                text = text[4:] if text.lower().startswith("json") else text
            return ParsedOutput(schema.model_validate_json(text.strip()), None)
        return ParsedOutput(schema.model_validate(raw), None)
    except ValidationError as exc:
        return ParsedOutput(None, str(exc))


def tool_spec(tool: Tool) -> dict[str, Any]:
    """The cache-key view of a tool: name, description and argument schema."""
    return {"name": tool.name, "description": tool.description,
            "args": tool.args_model.model_json_schema()}


@dataclass
class StructuredCall(Generic[T]):
    """One structured request, as every provider's conversation receives it.

    Attributes:
        role: the role name (model selection, usage rows).
        model: the model to call.
        system: system prompt.
        user: user prompt.
        schema: pydantic model of the output.
        tools: function tools the model may call before answering.
        temperature: sampling temperature (providers drop it for reasoning models).
        max_tokens: output token limit per model turn.
        usage: one row per model turn, appended by the provider.
        records: one record per tool call, appended by the provider.
    """

    role: str
    model: str
    system: str
    user: str
    schema: type[T]
    tools: Sequence[Tool]
    temperature: float
    max_tokens: int
    usage: list[LLMUsage] = field(default_factory=list)
    records: list[ToolCallRecord] = field(default_factory=list)


@dataclass
class StreamTally:
    """What a provider's stream tells the finisher: token counts and when it started."""

    input_tokens: int = 0
    output_tokens: int = 0
    started: float = field(default_factory=time.perf_counter)


class BaseLLMClient:
    """Shared machinery of the OpenAI, OpenAI-compatible and Anthropic clients.

    Args:
        config: the resolved configuration.
        store: cache and usage store (default: one on ``config.database_url``).
    """

    available = True

    def __init__(self, config: LLMConfig, store: LLMStore | None = None) -> None:
        self.config = config
        self._store = store or LLMStore(config.database_url)
        self._usage: list[LLMUsage] = []
        self._lock = threading.Lock()
        self.tool_budget = ToolBudget(dict(config.tool_caps))
        #: how our retry loop waits (tests replace it to record waits instead of sleeping)
        self.sleep: Callable[[float], None] = time.sleep
        #: the clock deadlines are measured on (tests replace it together with ``sleep``)
        self.clock: Callable[[], float] = time.monotonic
        self._scopes: list[CacheScope] = []
        self._events: EventHandler | None = None
        self._stream_tokens = False

    # ------------------------------------------------------------------ public API
    def with_config(self, **changes: Any) -> BaseLLMClient:
        """A new client of the same provider with ``changes`` applied to its config.

        The copy shares the cache/usage store and starts with fresh usage and tool budgets.
        """
        client = type(self)(dataclasses.replace(self.config, **changes), store=self._store)
        client.sleep = self.sleep
        client.clock = self.clock
        client.set_event_handler(self._events, stream_tokens=self._stream_tokens)
        return client

    def set_event_handler(self, handler: EventHandler | None, *,
                          stream_tokens: bool = False) -> None:
        """Report tool calls (and, with ``stream_tokens``, answer text deltas) to ``handler``.

        With ``stream_tokens`` structured answers are requested as streams so that their text
        reaches ``handler`` while the model writes it; the result is the same.
        """
        self._events = handler
        self._stream_tokens = stream_tokens and handler is not None

    @property
    def streams_tokens(self) -> bool:
        """True when structured answers are streamed to an event handler."""
        return self._stream_tokens

    def _emit(self, kind: str, **data: Any) -> None:
        if self._events is None:
            return
        try:
            self._events(kind, data)
        except Exception:  # a listener must never break the call it listens to
            log.warning("LLM event handler failed on %s", kind, exc_info=True)

    @contextmanager
    def cache_scope(self) -> Iterator[CacheScope]:
        """See :meth:`repro_assets.llm.types.LLMClient.cache_scope` (scopes nest)."""
        scope = CacheScope()
        self._scopes.append(scope)
        passed = False
        try:
            yield scope
            passed = scope.rejected is None
        finally:
            self._scopes.remove(scope)
            if passed and self._scopes:  # the enclosing block decides
                self._scopes[-1].pending += scope.pending
                self._scopes[-1].served += scope.served
            elif passed:
                for write in scope.pending:
                    write()
            else:
                for key in scope.served:
                    self._store.delete(key)
                if scope.pending or scope.served:
                    log.info("LLM answers of a failed block not cached (%d new, %d evicted)%s",
                             len(scope.pending), len(scope.served),
                             f": {scope.rejected}" if scope.rejected else "")

    @property
    def provider(self) -> str:
        """The provider name."""
        return self.config.provider

    def model_for(self, role: Role | str) -> str:
        """The model configured for ``role``."""
        return self.config.model_for(role)

    def structured(
        self,
        *,
        role: Role | str,
        system: str,
        user: str,
        schema: type[T],
        tools: Sequence[Tool] = (),
        temperature: float = 0.1,
        max_tokens: int = 4096,
        fallback: Fallback[T] | None = None,
        use_cache: bool = True,
    ) -> LLMResult[T]:
        """Return an instance of ``schema``: tool loop, one re-ask, then ``fallback``.

        Args:
            role: the agent role (selects the model).
            system: system prompt.
            user: user prompt.
            schema: pydantic model of the output (also the structured-output schema).
            tools: function tools the model may call before answering.
            temperature: sampling temperature (dropped for reasoning models).
            max_tokens: output token limit per model turn.
            fallback: called as ``fallback(raw_text, schema)`` when the output is still
                invalid after the re-ask (e.g. the JSONizer on a cheaper model).
            use_cache: set False to bypass the response cache for this call.

        Raises:
            LLMRateLimited, LLMTimeout, LLMUnavailable, LLMInvalidOutput,
            LLMPolicyCapExceeded, LLMError.
        """
        name = role_name(role)
        model = self.model_for(name)
        key = cache_key({
            "kind": "structured", "provider": self.provider, "model": model,
            "messages": [{"role": "system", "content": system},
                         {"role": "user", "content": user}],
            "schema": schema.model_json_schema(), "tools": [tool_spec(t) for t in tools],
            "temperature": temperature, "max_tokens": max_tokens,
        })
        cached = self._cache_get(key, use_cache)
        if cached is not None:
            hit = self._record(name, model, 0, 0, 0.0, cache_hit=True, kind="structured")
            return LLMResult(
                value=schema.model_validate(cached["value"]),
                raw_text=cached.get("raw_text", ""),
                usage=[hit],
                tool_calls=[ToolCallRecord(**c) for c in cached.get("tool_calls", [])],
                reasked=bool(cached.get("reasked", False)),
            )
        call = StructuredCall(role=name, model=model, system=system, user=user, schema=schema,
                              tools=tools, temperature=temperature, max_tokens=max_tokens)
        value, raw_text, reasked = self._run_structured(call)
        usage, records = call.usage, call.records
        if value is None:
            if fallback is None:
                raise LLMInvalidOutput(
                    f"{self.provider}/{model} returned invalid output for "
                    f"{schema.__name__} twice", raw_text=raw_text,
                )
            log.warning("LLM output for %s invalid after re-ask; using fallback",
                        schema.__name__)
            rescued = fallback(raw_text, schema)
            return LLMResult(value=rescued, raw_text=raw_text, usage=usage, tool_calls=records,
                             reasked=reasked, fallback_used=True)
        self._cache_put(key, use_cache, kind="structured", role=name, model=model, usage=usage,
                        payload={"value": value.model_dump(mode="json"), "raw_text": raw_text,
                                 "tool_calls": [_record_json(r) for r in records],
                                 "reasked": reasked})
        return LLMResult(value=value, raw_text=raw_text, usage=usage, tool_calls=records,
                         reasked=reasked)

    def text(
        self,
        *,
        role: Role | str,
        system: str,
        user: str,
        temperature: float = 0.1,
        max_tokens: int = 1024,
        use_cache: bool = True,
    ) -> LLMResult[Any]:
        """Return free text in ``LLMResult.raw_text`` (``value`` is None)."""
        name = role_name(role)
        model = self.model_for(name)
        key = cache_key({
            "kind": "text", "provider": self.provider, "model": model,
            "messages": [{"role": "system", "content": system},
                         {"role": "user", "content": user}],
            "temperature": temperature, "max_tokens": max_tokens,
        })
        cached = self._cache_get(key, use_cache)
        if cached is not None:
            hit = self._record(name, model, 0, 0, 0.0, cache_hit=True, kind="text")
            return LLMResult(value=None, raw_text=cached.get("raw_text", ""), usage=[hit])
        usage: list[LLMUsage] = []
        raw = self._run_text(role=name, model=model, system=system, user=user,
                             temperature=temperature, max_tokens=max_tokens, usage=usage)
        self._cache_put(key, use_cache, kind="text", role=name, model=model, usage=usage,
                        payload={"raw_text": raw})
        return LLMResult(value=None, raw_text=raw, usage=usage)

    def stream_text(
        self,
        *,
        role: Role | str,
        system: str,
        user: str,
        temperature: float = 0.1,
        max_tokens: int = 1024,
    ) -> Iterator[str]:
        """Yield text deltas as the model produces them (never cached)."""
        name = role_name(role)
        return self._stream(role=name, model=self.model_for(name), system=system, user=user,
                            temperature=temperature, max_tokens=max_tokens)

    def _finish_stream(self, role: str, model: str,
                       texts: Callable[[StreamTally], Generator[str, None, None]]
                       ) -> Iterator[str]:
        """Yield a provider's text pieces; record one usage row however the stream ends.

        ``texts(tally)`` is the provider's own generator: it yields text and keeps the token
        counts in ``tally`` up to date (it may reset ``tally.started`` once its model is
        loaded). Its own cleanup runs first (closed or exhausted), then the row is recorded.
        """
        tally = StreamTally()
        pieces = texts(tally)
        try:
            for text in pieces:
                if text:
                    yield text
        finally:
            pieces.close()
            self._record(role, model, tally.input_tokens, tally.output_tokens,
                         time.perf_counter() - tally.started, cache_hit=False, kind="stream")

    def usage_summary(self) -> dict[str, Any]:
        """Totals over every call of this client, ready for asset metadata."""
        with self._lock:
            calls = list(self._usage)
        models = sorted({u.model for u in calls})
        return {
            "provider": self.provider,
            "calls": len(calls),
            "input_tokens": sum(u.input_tokens for u in calls),
            "output_tokens": sum(u.output_tokens for u in calls),
            "cost_usd": round(sum(u.cost_usd for u in calls), 6),
            "cache_hits": sum(1 for u in calls if u.cache_hit),
            "latency_s": round(sum(u.latency_s for u in calls), 3),
            "models": ", ".join(models),
            "price_known": all(price_for(m) is not None for m in models),
        }

    @property
    def usage(self) -> list[LLMUsage]:
        """Every usage record of this client, in call order."""
        with self._lock:
            return list(self._usage)

    # ------------------------------------------------------------------ for subclasses
    def _run_structured(self, request: StructuredCall[T]) -> tuple[T | None, str, bool]:
        """Run the conversation; return ``(value or None, last raw text, reasked)``.

        The provider appends one usage row per model turn to ``request.usage`` and one
        record per tool call to ``request.records``.
        """
        raise NotImplementedError

    def _run_text(self, *, role: str, model: str, system: str, user: str, temperature: float,
                  max_tokens: int, usage: list[LLMUsage]) -> str:
        """Return the model's text answer."""
        raise NotImplementedError

    def _stream(self, *, role: str, model: str, system: str, user: str, temperature: float,
                max_tokens: int) -> Iterator[str]:
        """Yield text deltas."""
        raise NotImplementedError

    def _classify(self, exc: BaseException) -> str | None:
        """Return the error kind of an SDK exception, or None if it is not an SDK error."""
        raise NotImplementedError

    # ------------------------------------------------------------------ helpers
    def _kind(self, exc: BaseException) -> str | None:
        """The error kind of anything an SDK call raised (None: not a provider failure).

        A body that is not valid JSON reaches us as the SDK's raw ``json.JSONDecodeError``
        (HTTP 200 with a cut body): a provider failure like a 5xx, not a bug of ours.
        """
        if isinstance(exc, json.JSONDecodeError):
            return BAD_RESPONSE
        return self._classify(exc)

    def _deadline(self) -> float:
        """The clock time by which the current model turn must be over."""
        return self.clock() + max(0.0, self.config.call_deadline_s)

    def _call(self, fn: Attempt, *, role: str, model: str, usage: list[LLMUsage],
              kind: str, tokens: Callable[[Any], tuple[int, int]]) -> Any:
        """Run one SDK call with our retries; record its usage; map errors to typed ones."""
        started = time.perf_counter()
        result = self._with_retries(fn, model=model)
        latency = time.perf_counter() - started
        input_tokens, output_tokens = tokens(result)
        usage.append(self._record(role, model, input_tokens, output_tokens, latency,
                                  cache_hit=False, kind=kind))
        return result

    def _with_retries(self, fn: Attempt, *, model: str, deadline: float | None = None) -> Any:
        """Call ``fn(request_timeout)`` until it succeeds, retries run out or the deadline.

        Args:
            fn: one SDK request; it must pass the timeout it is given to the SDK
                (``timeout=`` of ``create``), which is what is left of the deadline.
            model: for error messages.
            deadline: clock time the whole loop must end by (default: now + the config's
                ``call_deadline_s``).

        Raises:
            LLMError: a typed error for every provider failure left after retries.
        """
        end = self._deadline() if deadline is None else deadline
        attempts = max(1, self.config.retry_attempts)

        def attempt() -> Any:
            left = end - self.clock()
            if left <= 0:
                raise LLMTimeout(f"{self.provider}/{model}: the {self.config.call_deadline_s}s "
                                 "deadline of this call was spent before the request")
            return fn(min(self.config.timeout_s, left))

        def stop(state: tenacity.RetryCallState) -> bool:
            return (state.attempt_number >= attempts
                    or self.clock() + state.upcoming_sleep >= end)

        retrying = tenacity.Retrying(
            stop=stop,
            retry=tenacity.retry_if_exception(lambda e: self._kind(e) in _RETRYABLE),
            wait=self._wait,
            before_sleep=self._before_sleep,
            sleep=lambda seconds: self.sleep(seconds),
            reraise=True,
        )
        try:
            return retrying(attempt)
        except LLMError:
            raise
        except Exception as exc:
            kind = self._kind(exc)
            if kind is None:
                raise
            raise self._typed_error(kind, exc, model,
                                    deadline_spent=self.clock() >= end) from exc

    def _stream_events(self, open_stream: Attempt, *, model: str,
                       finished: Callable[[Any], bool]) -> Iterator[Any]:
        """Open a stream (with retries) and yield its events within the call's deadline.

        Args:
            open_stream: opens the SDK stream with the given request timeout.
            model: for error messages.
            finished: True for the event that says the model finished its answer
                (a ``finish_reason``, ``message_stop``).

        Raises:
            LLMError: ``E_LLM_STREAM_INCOMPLETE`` when the stream broke or ended before a
                finishing event (what was yielded so far is not a complete answer);
                ``E_LLM_TIMEOUT`` when it ran past the deadline; typed errors for failures
                before the first event.
        """
        end = self._deadline()
        stream = self._with_retries(open_stream, model=model, deadline=end)
        done = False
        count = 0
        try:
            for event in stream:
                count += 1
                done = done or finished(event)
                yield event
                if not done and self.clock() > end:
                    raise LLMTimeout(f"{self.provider}/{model}: stream still running after "
                                     f"the {self.config.call_deadline_s}s deadline")
        except LLMError:
            raise
        except Exception as exc:
            if self._kind(exc) is None:
                raise
            raise LLMUnavailable(
                f"{self.provider}/{model}: the stream broke after {count} events "
                f"({type(exc).__name__}: {exc})", code="E_LLM_STREAM_INCOMPLETE") from exc
        finally:
            stream.close()
        if not done:
            raise LLMUnavailable(
                f"{self.provider}/{model}: the stream ended after {count} events without the "
                "model finishing its answer (no finish reason): the text is incomplete",
                code="E_LLM_STREAM_INCOMPLETE")

    def _wait(self, state: tenacity.RetryCallState) -> float:
        exc = state.outcome.exception() if state.outcome else None
        retry_after = self._retry_after(exc) if exc is not None else None
        if retry_after is not None:
            return max(0.0, min(retry_after * self.config.retry_after_scale,
                                self.config.retry_wait_max_s))
        backoff = tenacity.wait_exponential_jitter(
            initial=self.config.retry_wait_min_s, max=self.config.retry_wait_max_s, jitter=0.0)
        return min(backoff(state), self.config.retry_wait_max_s)

    def _before_sleep(self, state: tenacity.RetryCallState) -> None:
        exc = state.outcome.exception() if state.outcome else None
        log.warning("LLM call to %s failed (%s: %s); retry %d in %.2fs", self.provider,
                    type(exc).__name__, exc, state.attempt_number,
                    state.next_action.sleep if state.next_action else 0.0)

    @staticmethod
    def _retry_after(exc: BaseException) -> float | None:
        response = getattr(exc, "response", None)
        headers = getattr(response, "headers", None)
        if headers is None:
            return None
        for header, divisor in (("retry-after-ms", 1000.0), ("retry-after", 1.0)):
            raw = headers.get(header)
            if raw is None:
                continue
            try:
                return float(raw) / divisor
            except ValueError:
                continue
        return None

    def _typed_error(self, kind: str, exc: BaseException, model: str, *,
                     deadline_spent: bool = False) -> LLMError:
        where = f"{self.provider}/{model}"
        status = getattr(exc, "status_code", None)
        detail = f"{type(exc).__name__}" + (f" (HTTP {status})" if status else "")
        if deadline_spent:
            detail += f"; the call's {self.config.call_deadline_s}s deadline is spent"
        if kind == RATE_LIMIT:
            return LLMRateLimited(f"{where} kept rate-limiting: {detail}")
        if kind == TIMEOUT:
            return LLMTimeout(f"{where} timed out (request timeout {self.config.timeout_s}s, "
                              f"deadline {self.config.call_deadline_s}s per call): {detail}")
        if kind in (SERVER, CONNECTION):
            return LLMUnavailable(f"{where} failed after retries: {detail}",
                                  code="E_LLM_PROVIDER_ERROR")
        if kind == BAD_RESPONSE:
            return LLMUnavailable(f"{where} kept sending unreadable response bodies "
                                  f"({detail}: {exc})", code="E_LLM_BAD_RESPONSE")
        if kind == AUTH:
            return LLMUnavailable(f"{where} rejected the credentials: {detail}",
                                  code="E_LLM_AUTH")
        if kind == BAD_REQUEST:
            return LLMError(f"{where} rejected the request: {detail}: {exc}",
                            code="E_LLM_BAD_REQUEST")
        return LLMError(f"{where} failed: {detail}: {exc}", code="E_LLM_PROVIDER_ERROR")

    def _record(self, role: str, model: str, input_tokens: int, output_tokens: int,
                latency: float, *, cache_hit: bool, kind: str) -> LLMUsage:
        usage = LLMUsage(
            provider=self.provider, model=model, role=role, input_tokens=input_tokens,
            output_tokens=output_tokens, latency_s=round(latency, 4),
            cost_usd=0.0 if cache_hit else cost_usd(model, input_tokens, output_tokens),
            cache_hit=cache_hit,
        )
        with self._lock:
            self._usage.append(usage)
        if self.config.record_usage:
            self._store.record_usage(usage, kind=kind, run_id=self.config.run_id)
        return usage

    def _cache_get(self, key: str, use_cache: bool) -> dict[str, Any] | None:
        if not (self.config.cache_enabled and use_cache):
            return None
        cached = self._store.get(key)
        if cached is not None and self._scopes:
            self._scopes[-1].served.append(key)
        return cached

    def _cache_put(self, key: str, use_cache: bool, *, kind: str, role: str, model: str,
                   usage: list[LLMUsage], payload: dict[str, Any]) -> None:
        if not (self.config.cache_enabled and use_cache):
            return

        def write() -> None:
            self._store.put(
                key, kind=kind, provider=self.provider, model=model, role=role,
                payload=payload, input_tokens=sum(u.input_tokens for u in usage),
                output_tokens=sum(u.output_tokens for u in usage),
                cost_usd=sum(u.cost_usd for u in usage),
            )

        if self._scopes:  # held until the enclosing cache_scope succeeds
            self._scopes[-1].pending.append(write)
        else:
            write()

    def _run_tool(self, tool: Tool, arguments: str | dict[str, Any],
                  records: list[ToolCallRecord]) -> str:
        """Validate arguments, call ``tool`` within its cap; return the result as JSON text.

        Invalid arguments are reported back to the model as the tool result.

        Raises:
            LLMPolicyCapExceeded: the tool's per-run cap is exceeded.
        """
        self.tool_budget.record(tool)
        self._emit("tool_call", name=tool.name, arguments=_arguments_json(arguments))
        try:
            if isinstance(arguments, str):
                args = tool.args_model.model_validate_json(arguments or "{}")
            else:
                args = tool.args_model.model_validate(arguments)
        except ValidationError as exc:
            parsed = _arguments_json(arguments)
            message = f"invalid arguments for {tool.name}: {exc}"
            records.append(ToolCallRecord(name=tool.name, arguments=parsed,
                                          result={"error": message}))
            return json.dumps({"error": message})
        result = tool.fn(args)
        records.append(ToolCallRecord(name=tool.name, arguments=args.model_dump(mode="json"),
                                      result=result))
        return json.dumps(result, default=str, ensure_ascii=False)


def _arguments_json(arguments: str | dict[str, Any]) -> Any:
    if not isinstance(arguments, str):
        return arguments
    try:
        return json.loads(arguments or "{}")
    except ValueError:
        return {"_raw": arguments}


def _record_json(record: ToolCallRecord) -> dict[str, Any]:
    return json.loads(json.dumps({"name": record.name, "arguments": record.arguments,
                                  "result": record.result}, default=str))
