"""vLLM's offline engine (``vllm.LLM``) in-process, as a policy: fast local generation on a GPU.

vLLM is an optional extra (``pip install "spade-toolkit[vllm]"``; the PyPI wheel is a CUDA build), so
it is imported when a policy is built: this module imports without vllm and without a GPU.

``LLM`` is synchronous and not thread-safe, and it is fast only when it gets many prompts at once.
So one worker thread owns the engine: ``generate`` queues the request and awaits a future, and the
worker takes everything queued so far as one batch (one ``LLM.chat`` call per distinct tool list).
While a batch runs, new requests pile up and form the next one, so concurrent rollouts share batches
without any waiting window. A failed batch is retried request by request, so one bad prompt (too
long, say) only fails itself. For request-level continuous batching, serve the model with
``vllm serve`` and use ``OpenAICompatiblePolicy``.
"""

from __future__ import annotations

import asyncio
import json
import queue
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field, replace
from typing import Any

from spade_train.policies.base import Generation, GenerationRequest, SamplingParams

INSTALL_HINT = 'VLLMPolicy needs vLLM, which is not installed: pip install "spade-toolkit[vllm]"'


def import_vllm() -> Any:
    """The vllm module, or an ImportError whose one line says how to install it."""
    try:
        import vllm
    except ImportError:
        raise ImportError(INSTALL_HINT) from None
    return vllm


def to_vllm_sampling_kwargs(sampling: SamplingParams, *, logprobs: bool = True) -> dict[str, Any]:
    """Keyword arguments for ``vllm.SamplingParams`` that reproduce ``sampling``.

    Unset options are left out so vLLM's own defaults apply (its "no top-k" value changed between
    releases). ``logprobs=0`` asks vLLM for the sampled token's log-probability only.
    """
    kwargs: dict[str, Any] = {
        "temperature": sampling.temperature,
        "top_p": sampling.top_p,
        "max_tokens": sampling.max_tokens,
    }
    if sampling.top_k is not None:
        kwargs["top_k"] = sampling.top_k
    if sampling.stop:
        kwargs["stop"] = list(sampling.stop)
    if sampling.seed is not None:
        kwargs["seed"] = sampling.seed
    if logprobs:
        kwargs["logprobs"] = 0
    return kwargs


def generation_from_output(output: Any) -> Generation:
    """A ``Generation`` from one ``vllm.RequestOutput`` (first completion only)."""
    completion = output.outputs[0]
    token_ids = [int(t) for t in completion.token_ids]
    logprobs = None
    if completion.logprobs is not None:
        logprobs = [float(step[token].logprob) for token, step in zip(token_ids, completion.logprobs)]
    prompt_ids = getattr(output, "prompt_token_ids", None)
    return Generation(
        text=completion.text,
        finish_reason=str(completion.finish_reason or "stop"),
        prompt_token_ids=[int(t) for t in prompt_ids] if prompt_ids is not None else None,
        completion_token_ids=token_ids,
        completion_logprobs=logprobs,
    )


@dataclass
class _Pending:
    request: GenerationRequest
    future: Future[Generation]
    queued_at: float = field(default_factory=time.monotonic)


_CLOSE = object()


class VLLMPolicy:
    """Chat generation with ``vllm.LLM(model, **llm_kwargs)`` (e.g. ``tensor_parallel_size=2``).

    ``logprobs=True`` (default) returns each sampled token's log-probability, which trainers need.
    ``max_batch_size`` caps how many queued requests go into one ``LLM.chat`` call.
    ``from_llm`` wraps an engine that already exists (shared between roles, or a stand-in in tests).
    Call ``close()`` to stop the worker thread; it is a daemon, so it never blocks interpreter exit.
    """

    def __init__(self, model: str, *, name: str | None = None, logprobs: bool = True,
                 max_batch_size: int = 256, **llm_kwargs: Any) -> None:
        vllm = import_vllm()
        self._start(vllm.LLM(model=model, **llm_kwargs), vllm.SamplingParams,
                    name=name or model, logprobs=logprobs, max_batch_size=max_batch_size)

    @classmethod
    def from_llm(cls, llm: Any, sampling_params_class: Callable[..., Any], *, name: str = "vllm",
                 logprobs: bool = True, max_batch_size: int = 256) -> VLLMPolicy:
        """Wrap an existing engine: anything with vLLM's ``chat(messages, sampling_params, ...)``."""
        policy = cls.__new__(cls)
        policy._start(llm, sampling_params_class, name=name, logprobs=logprobs, max_batch_size=max_batch_size)
        return policy

    def _start(self, llm: Any, sampling_params_class: Callable[..., Any], *, name: str, logprobs: bool,
               max_batch_size: int) -> None:
        if max_batch_size < 1:
            raise ValueError("max_batch_size must be >= 1")
        self.name = name
        self.llm = llm
        self.logprobs = logprobs
        self.max_batch_size = max_batch_size
        self._sampling_params_class = sampling_params_class
        self._queue: queue.SimpleQueue[_Pending | object] = queue.SimpleQueue()
        self._closed = threading.Event()
        self._worker = threading.Thread(target=self._serve, name=f"vllm-policy-{name}", daemon=True)
        self._worker.start()

    def sampling_params(self, sampling: SamplingParams) -> Any:
        return self._sampling_params_class(**to_vllm_sampling_kwargs(sampling, logprobs=self.logprobs))

    async def generate(self, request: GenerationRequest) -> Generation:
        if self._closed.is_set():
            return Generation(text="", finish_reason="error", error="VLLMPolicy is closed")
        pending = _Pending(request, Future())
        self._queue.put(pending)
        return await asyncio.wrap_future(pending.future)

    def close(self) -> None:
        """Finish the queued requests, then stop the worker."""
        if not self._closed.is_set():
            self._closed.set()
            self._queue.put(_CLOSE)
            self._worker.join()
        # A request queued while closing would wait forever: answer it.
        while True:
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                return
            if isinstance(item, _Pending) and item.future.set_running_or_notify_cancel():
                item.future.set_result(Generation(text="", finish_reason="error", error="VLLMPolicy is closed"))

    # ------------------------------------------------------------------ worker thread
    def _serve(self) -> None:
        while True:
            item = self._queue.get()
            if item is _CLOSE:
                return
            batch = [item]
            closing = False
            while len(batch) < self.max_batch_size:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is _CLOSE:
                    closing = True
                    break
                batch.append(item)
            # Skip requests whose caller gave up (a cancelled asyncio task cancels its future).
            live = [p for p in batch if isinstance(p, _Pending) and p.future.set_running_or_notify_cancel()]
            for group in _group_by_tools(live).values():
                self._run(group)
            if closing:
                return

    def _run(self, group: list[_Pending]) -> None:
        """Generate for requests that share a tool list; never raises (the worker must survive)."""
        try:
            outputs = self.llm.chat(
                [p.request.messages for p in group],
                sampling_params=[self.sampling_params(p.request.sampling) for p in group],
                tools=group[0].request.tools,
                use_tqdm=False,
            )
            if len(outputs) != len(group):
                raise RuntimeError(f"vLLM returned {len(outputs)} outputs for {len(group)} prompts")
            results = [generation_from_output(output) for output in outputs]
        except Exception as error:  # noqa: BLE001 - reported per request below
            if len(group) > 1:
                for pending in group:
                    self._run([pending])
                return
            results = [Generation(text="", finish_reason="error", error=f"vLLM: {type(error).__name__}: {error}")]
        now = time.monotonic()
        for pending, result in zip(group, results):
            pending.future.set_result(replace(result, latency_s=now - pending.queued_at))


def _group_by_tools(batch: list[_Pending]) -> dict[str | None, list[_Pending]]:
    """``LLM.chat`` takes one tool list per call, so requests are grouped by theirs."""
    groups: dict[str | None, list[_Pending]] = {}
    for pending in batch:
        tools = pending.request.tools
        key = json.dumps(tools, sort_keys=True, default=str) if tools else None
        groups.setdefault(key, []).append(pending)
    return groups
