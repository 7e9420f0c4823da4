"""A local Hugging Face model through ``transformers`` (seed 002's runtime): provider
``transformers``.

Environment (the seed's ``.env`` controls):

* ``MODEL_ID``: a Hugging Face model id or a local directory (``REPRO_MODEL_<ROLE>`` and
  ``REPRO_LLM_MODEL`` still win per role, as for every provider).
* ``TOKENIZER_ID``: the tokenizer's id or directory (default: the model's).
* ``USE_CUDA``: run on the GPU (``1``/``true``); a clear ``E_LLM_CONFIG`` error when torch sees
  no CUDA device.
* ``USE_8BIT``: load the weights in 8 bit through bitsandbytes (needs CUDA and the
  ``bitsandbytes`` package; ``E_LLM_CONFIG`` when either is missing).

Generation is stop-aware: every call runs with :class:`InterruptStoppingCriteria`, which ends
generation at the next token once the interrupt bound with :meth:`TransformersClient.set_interrupt`
(the debate's stop flag) fires, or once a streaming consumer stops reading. Streams come from a
``TextIteratorStreamer`` fed by ``generate`` running in a worker thread.

Structured output has no server-side schema here: the schema goes into the system prompt, the
answer is parsed as JSON, an invalid answer gets the project's one re-ask
(:data:`~repro_assets.llm.base.REASK_TEMPLATE`) and then the caller's fallback (the JSONizer).
Tool calling is not supported by local models (``E_LLM_TOOLS_UNSUPPORTED``).
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass
from typing import Any

from repro_assets import settings
from repro_assets.llm.base import (
    REASK_TEMPLATE,
    BaseLLMClient,
    StreamTally,
    StructuredCall,
    T,
    parse_output,
)
from repro_assets.llm.cache import LLMStore
from repro_assets.llm.config import LLMConfig
from repro_assets.llm.types import LLMError, LLMUnavailable, LLMUsage

log = logging.getLogger(__name__)

PROVIDER = "transformers"
JSON_INSTRUCTION = (
    "\n\nAnswer with ONLY a JSON object (no prose, no code fence) that matches this JSON "
    "schema: {schema}"
)


@dataclass(frozen=True)
class LocalModelSettings:
    """Where the weights come from and how they are loaded.

    Attributes:
        tokenizer_id: tokenizer id or directory ("" = the model's own).
        use_cuda: place the model on the GPU.
        use_8bit: load 8-bit weights through bitsandbytes.
    """

    tokenizer_id: str = ""
    use_cuda: bool = False
    use_8bit: bool = False

    @classmethod
    def from_env(cls) -> LocalModelSettings:
        """``TOKENIZER_ID``, ``USE_CUDA``, ``USE_8BIT``."""
        config = settings.current().llm
        return cls(tokenizer_id=config.tokenizer_id, use_cuda=config.use_cuda,
                   use_8bit=config.use_8bit)


@dataclass
class LoadedModel:
    """A tokenizer and a causal LM ready to generate."""

    tokenizer: Any
    model: Any
    device: str


_MODELS: dict[tuple[str, str, bool, bool], LoadedModel] = {}
_MODELS_LOCK = threading.Lock()


def _device(settings: LocalModelSettings) -> str:
    import torch

    if settings.use_cuda or settings.use_8bit:
        if not torch.cuda.is_available():
            what = "USE_8BIT (bitsandbytes 8-bit weights)" if settings.use_8bit else "USE_CUDA"
            raise LLMError(f"{what} needs a CUDA device, and torch sees none",
                           code="E_LLM_CONFIG")
        return "cuda"
    return "cpu"


def load_model(model_id: str, settings: LocalModelSettings) -> LoadedModel:
    """Load (once per process) the tokenizer and model of ``model_id``.

    Raises:
        LLMError: ``E_LLM_CONFIG`` for USE_CUDA/USE_8BIT without CUDA or bitsandbytes.
        LLMUnavailable: ``E_LLM_MODEL_LOAD`` when the model or tokenizer cannot be loaded.
    """
    tokenizer_id = settings.tokenizer_id or model_id
    key = (model_id, tokenizer_id, settings.use_cuda, settings.use_8bit)
    with _MODELS_LOCK:
        if key in _MODELS:
            return _MODELS[key]
        device = _device(settings)
        kwargs: dict[str, Any] = {}
        if settings.use_8bit:
            try:
                import bitsandbytes  # noqa: F401
            except ImportError as exc:
                raise LLMError("USE_8BIT needs the bitsandbytes package (pip install "
                               "bitsandbytes) and a CUDA GPU", code="E_LLM_CONFIG") from exc
            from transformers import BitsAndBytesConfig

            kwargs = {"quantization_config": BitsAndBytesConfig(load_in_8bit=True),
                      "device_map": "auto"}
        from transformers import AutoModelForCausalLM, AutoTokenizer

        started = time.perf_counter()
        try:
            tokenizer = AutoTokenizer.from_pretrained(tokenizer_id)
            model = AutoModelForCausalLM.from_pretrained(model_id, **kwargs)
        except (OSError, ValueError) as exc:
            raise LLMUnavailable(f"cannot load local model {model_id!r} (tokenizer "
                                 f"{tokenizer_id!r}): {exc}", code="E_LLM_MODEL_LOAD") from exc
        if not settings.use_8bit:
            model = model.to(device)  # type: ignore[arg-type]  # transformers' stubs
        model.eval()
        log.info("loaded %s on %s in %.1fs", model_id, device, time.perf_counter() - started)
        _MODELS[key] = LoadedModel(tokenizer=tokenizer, model=model, device=device)
        return _MODELS[key]


def fit_context(loaded: LoadedModel, prompt_tokens: int, max_new_tokens: int) -> int:
    """``max_new_tokens`` cut to what the model's context leaves after the prompt.

    Raises:
        LLMError: ``E_LLM_CONTEXT_TOO_LONG`` when the prompt alone fills the context.
    """
    context = getattr(loaded.model.config, "max_position_embeddings", None) or getattr(
        loaded.model.config, "n_positions", None)
    if not context:
        return max_new_tokens
    room = int(context) - prompt_tokens
    if room <= 0:
        raise LLMError(f"the prompt has {prompt_tokens} tokens; the model's context holds "
                       f"{context}", code="E_LLM_CONTEXT_TOO_LONG")
    if room < max_new_tokens:
        log.warning("answer budget cut from %d to %d tokens (context %d, prompt %d)",
                    max_new_tokens, room, context, prompt_tokens)
    return min(room, max_new_tokens)


def _stopping_criteria_class() -> type:
    from transformers import StoppingCriteria

    class InterruptStoppingCriteria(StoppingCriteria):
        """Stops generation at the next token once ``should_stop()`` is true (seed 002 §8)."""

        def __init__(self, should_stop: Callable[[], bool]) -> None:
            self.should_stop = should_stop
            self.fired = False

        def __call__(self, input_ids: Any, scores: Any, **kwargs: Any) -> Any:
            import torch

            stop = bool(self.should_stop())
            self.fired = self.fired or stop
            return torch.full((input_ids.shape[0],), stop, dtype=torch.bool,
                              device=input_ids.device)

    return InterruptStoppingCriteria


def interrupt_stopping_criteria(should_stop: Callable[[], bool]) -> Any:
    """A ``transformers`` stopping criterion that ends generation when ``should_stop()``."""
    return _stopping_criteria_class()(should_stop)


class TransformersClient(BaseLLMClient):
    """:class:`~repro_assets.llm.types.LLMClient` over a local ``transformers`` causal LM.

    Args:
        config: resolved configuration (provider ``transformers``; the model per role is
            ``MODEL_ID`` unless overridden).
        store: cache and usage store.
        settings: tokenizer and device settings (default: from the environment).
    """

    #: the debate binds its stop flag (:meth:`set_interrupt`) and streams every turn
    interruptible = True

    def __init__(self, config: LLMConfig, store: LLMStore | None = None,
                 settings: LocalModelSettings | None = None) -> None:
        super().__init__(config, store)
        self.settings = settings or LocalModelSettings.from_env()
        self._interrupt: Callable[[], bool] = lambda: False
        #: True when the last generation was ended by the interrupt
        self.interrupted = False

    def set_interrupt(self, should_stop: Callable[[], bool] | None) -> None:
        """Bind a stop flag: generation ends at the next token once it returns True."""
        self._interrupt = should_stop or (lambda: False)

    # ------------------------------------------------------------------ generation
    def _prompt_ids(self, loaded: LoadedModel, system: str, user: str) -> Any:
        tokenizer = loaded.tokenizer
        if getattr(tokenizer, "chat_template", None):
            ids = tokenizer.apply_chat_template(
                [{"role": "system", "content": system}, {"role": "user", "content": user}],
                add_generation_prompt=True, return_tensors="pt", return_dict=True)["input_ids"]
        else:
            ids = tokenizer(f"{system}\n\nUser: {user}\n\nAssistant:",
                            return_tensors="pt")["input_ids"]
        return ids.to(loaded.device)

    def _generate_kwargs(self, loaded: LoadedModel, ids: Any, temperature: float,
                         max_tokens: int, criteria: Any) -> dict[str, Any]:
        import torch
        from transformers import StoppingCriteriaList

        tokenizer = loaded.tokenizer
        max_tokens = fit_context(loaded, int(ids.shape[1]), max_tokens)
        pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else (
            tokenizer.eos_token_id if tokenizer.eos_token_id is not None else 0)
        kwargs: dict[str, Any] = {
            "input_ids": ids, "attention_mask": torch.ones_like(ids),
            "max_new_tokens": max_tokens, "pad_token_id": pad,
            "stopping_criteria": StoppingCriteriaList([criteria]),
        }
        if temperature > 0:
            kwargs.update(do_sample=True, temperature=temperature)
        else:
            kwargs.update(do_sample=False)
        return kwargs

    def _complete(self, *, role: str, model: str, system: str, user: str, temperature: float,
                  max_tokens: int, usage: list[LLMUsage]) -> str:
        """One blocking generation; records usage; raises if the interrupt ended it."""
        import torch

        loaded = load_model(model, self.settings)
        ids = self._prompt_ids(loaded, system, user)
        criteria = interrupt_stopping_criteria(self._interrupt)
        started = time.perf_counter()
        with torch.inference_mode():
            output = loaded.model.generate(
                **self._generate_kwargs(loaded, ids, temperature, max_tokens, criteria))
        new = output[0, ids.shape[1]:]
        usage.append(self._record(role, model, int(ids.shape[1]), int(new.shape[0]),
                                  time.perf_counter() - started, cache_hit=False, kind="text"))
        self.interrupted = criteria.fired
        if criteria.fired:  # a partial answer is never returned as an answer (nor cached)
            raise LLMError(f"{PROVIDER}/{model}: generation interrupted",
                           code="E_LLM_INTERRUPTED")
        return loaded.tokenizer.decode(new, skip_special_tokens=True)

    def _run_text(self, *, role: str, model: str, system: str, user: str, temperature: float,
                  max_tokens: int, usage: list[LLMUsage]) -> str:
        return self._complete(role=role, model=model, system=system, user=user,
                              temperature=temperature, max_tokens=max_tokens, usage=usage)

    def _run_structured(self, request: StructuredCall[T]) -> tuple[T | None, str, bool]:
        role, model, system, user = request.role, request.model, request.system, request.user
        schema, tools, temperature = request.schema, request.tools, request.temperature
        max_tokens, usage = request.max_tokens, request.usage
        if tools:
            raise LLMError(f"{PROVIDER}/{model}: local models do not call tools "
                           f"({', '.join(t.name for t in tools)})",
                           code="E_LLM_TOOLS_UNSUPPORTED")
        schema_json = json.dumps(schema.model_json_schema())
        system = system + JSON_INSTRUCTION.format(schema=schema_json)
        raw = self._complete(role=role, model=model, system=system, user=user,
                             temperature=temperature, max_tokens=max_tokens, usage=usage)
        parsed = parse_output(raw, schema)
        if parsed.value is not None:
            return parsed.value, raw, False  # type: ignore[return-value]
        reask = (f"{user}\n\nYour previous answer:\n{raw}\n\n"
                 + REASK_TEMPLATE.format(schema=schema_json))
        raw = self._complete(role=role, model=model, system=system, user=reask,
                             temperature=temperature, max_tokens=max_tokens, usage=usage)
        parsed = parse_output(raw, schema)
        return parsed.value, raw, True  # type: ignore[return-value]

    def _stream(self, *, role: str, model: str, system: str, user: str, temperature: float,
                max_tokens: int) -> Iterator[str]:
        """Yield decoded text as ``generate`` produces it (worker thread + streamer).

        Closing the iterator (the consumer stops reading, e.g. on interrupt) also stops the
        generation through the stopping criterion.
        """
        loaded = load_model(model, self.settings)
        ids = self._prompt_ids(loaded, system, user)
        yield from self._finish_stream(role, model, lambda tally: self._generate_stream(
            tally, loaded, ids, model=model, temperature=temperature, max_tokens=max_tokens))

    def _generate_stream(self, tally: StreamTally, loaded: LoadedModel, ids: Any, *,
                         model: str, temperature: float, max_tokens: int
                         ) -> Generator[str, None, None]:
        """The text pieces of one generation; the worker is stopped and joined on close."""
        import torch
        from transformers import TextIteratorStreamer

        closed = threading.Event()
        criteria = interrupt_stopping_criteria(lambda: closed.is_set() or self._interrupt())
        streamer = TextIteratorStreamer(loaded.tokenizer, skip_prompt=True,
                                        skip_special_tokens=True)
        kwargs = self._generate_kwargs(loaded, ids, temperature, max_tokens, criteria)
        result: dict[str, Any] = {}

        def work() -> None:
            try:
                with torch.inference_mode():
                    result["output"] = loaded.model.generate(**kwargs, streamer=streamer)
            except BaseException as exc:  # re-raised in the consumer's thread
                result["error"] = exc
                streamer.end()

        tally.started = time.perf_counter()
        tally.input_tokens = int(ids.shape[1])
        worker = threading.Thread(target=work, name=f"generate-{model}", daemon=True)
        worker.start()
        try:
            yield from streamer
        finally:
            closed.set()
            worker.join()
            output = result.get("output")
            tally.output_tokens = int(output.shape[1] - ids.shape[1]) if output is not None else 0
            self.interrupted = criteria.fired
        if "error" in result:
            raise LLMError(f"{PROVIDER}/{model} failed while generating: {result['error']}",
                           code="E_LLM_PROVIDER_ERROR") from result["error"]

    def _classify(self, exc: BaseException) -> str | None:
        """Local generation has nothing to retry: every failure is reported as it is."""
        return None
