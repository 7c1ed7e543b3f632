"""An ``llm_engine`` over a transformers model: the agent executor without vLLM or a GPU.

OpenRLHF's rollout actor passes itself to the executor as ``llm_engine``; all the executor uses is
``await llm_engine.generate(prompt_token_ids, sampling_params)`` returning a vLLM ``RequestOutput``.
``TransformersEngine`` offers the same call over ``TransformersPolicy`` (the project's local model
client), with vLLM's output shape (``outputs[0].token_ids / text / finish_reason / logprobs``), so the
executor can be run and debugged on a laptop and tested on CPU. ``EngineSamplingParams`` has the
attribute names of ``vllm.SamplingParams`` that OpenRLHF sets.

``respond`` optionally forces replies (a test or a demo that needs a model to write valid code): given
the decoded prompt it returns a text to answer with, or None to sample. A forced reply's tokens are
scored by the model, so its log-probabilities are the model's own.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from spade_train.policies.base import Generation, GenerationRequest, SamplingParams
from spade_train.policies.transformers_local import TransformersPolicy


@dataclass
class EngineSamplingParams:
    """The options of ``vllm.SamplingParams`` that OpenRLHF and the executor use, same names and meanings."""

    temperature: float = 1.0
    top_p: float = 1.0
    top_k: int = -1
    """-1 (or 0): no top-k."""
    max_tokens: int | None = None
    min_tokens: int = 1
    skip_special_tokens: bool = False
    logprobs: int | None = None
    stop: list[str] | None = None
    seed: int | None = None


@dataclass(frozen=True)
class TokenLogprob:
    logprob: float


@dataclass(frozen=True)
class CompletionOutput:
    token_ids: list[int]
    text: str
    finish_reason: str
    logprobs: list[dict[int, TokenLogprob]] | None


@dataclass(frozen=True)
class RequestOutput:
    prompt_token_ids: list[int]
    outputs: list[CompletionOutput] = field(default_factory=list)


class _TokenPromptPolicy(TransformersPolicy):
    """``TransformersPolicy`` whose prompt is given as token ids (set per thread before each call)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._prompt = threading.local()

    def render_prompt(self, request: GenerationRequest) -> list[int]:
        return list(self._prompt.ids)

    def generate_ids(self, prompt_ids: list[int], sampling: SamplingParams) -> Generation:
        self._prompt.ids = prompt_ids
        return self.generate_blocking(GenerationRequest(messages=[], sampling=sampling))


class TransformersEngine:
    """``llm_engine.generate`` backed by a local transformers checkpoint (see the module docstring)."""

    def __init__(self, model_path: str | Path, *, respond: Callable[[str], str | None] | None = None,
                 device: str | None = None) -> None:
        self.policy = _TokenPromptPolicy(str(model_path), device=device)
        self.tokenizer = self.policy.tokenizer
        self.respond = respond
        self.calls = 0

    async def generate(self, prompt_token_ids: list[int], sampling_params: Any,
                       multi_modal_data: Any = None) -> RequestOutput:
        self.calls += 1
        return await asyncio.to_thread(self._generate, list(prompt_token_ids), sampling_params)

    def _generate(self, prompt_ids: list[int], params: Any) -> RequestOutput:
        sampling = _sampling(params, room=self._room(prompt_ids))
        forced = self.respond(self.tokenizer.decode(prompt_ids, skip_special_tokens=False)) if self.respond else None
        if forced is not None:
            generation = self._score(prompt_ids, forced, sampling)
        else:
            generation = self.policy.generate_ids(prompt_ids, sampling)
            if generation.error is not None:
                raise RuntimeError(generation.error)
        tokens = list(generation.completion_token_ids or [])
        logprobs = [{token: TokenLogprob(value)} for token, value in zip(tokens, generation.completion_logprobs or [])]
        # As vLLM: the token that stopped generation is in token_ids but not in the text.
        shown = tokens[:-1] if generation.finish_reason == "stop" and tokens and tokens[-1] in self.policy.eos_token_ids \
            else tokens
        text = self.tokenizer.decode(shown, skip_special_tokens=bool(getattr(params, "skip_special_tokens", True)))
        completion = CompletionOutput(token_ids=tokens, text=text, finish_reason=generation.finish_reason,
                                      logprobs=logprobs if getattr(params, "logprobs", None) is not None else None)
        return RequestOutput(prompt_token_ids=prompt_ids, outputs=[completion])

    def _room(self, prompt_ids: list[int]) -> int:
        limit = self.policy.max_positions
        return max(0, limit - len(prompt_ids)) if limit is not None else 1 << 30

    def _score(self, prompt_ids: list[int], text: str, sampling: SamplingParams) -> Generation:
        """A forced reply (ending with end-of-sequence), cut to ``max_tokens``, with the model's log-probs.

        The text is left empty: the caller decodes the tokens, so a cut reply reads as cut."""
        import torch

        eos = self.tokenizer.eos_token_id
        reply = list(self.tokenizer(text, add_special_tokens=False)["input_ids"]) + ([eos] if eos is not None else [])
        finish = "stop"
        if len(reply) > sampling.max_tokens:
            reply, finish = reply[: sampling.max_tokens], "length"
        with self.policy.lock, torch.inference_mode():
            ids = torch.tensor([prompt_ids + reply], device=self.policy.device)
            logits = self.policy.model(input_ids=ids).logits[0, len(prompt_ids) - 1: -1].float()
            scaled = logits / sampling.temperature if sampling.temperature > 0 else logits
            logprobs = torch.log_softmax(scaled, dim=-1).gather(1, torch.tensor(reply).unsqueeze(1)).squeeze(1)
        return Generation(text="", finish_reason=finish, prompt_token_ids=prompt_ids, completion_token_ids=reply,
                          completion_logprobs=[float(v) for v in logprobs])


def _sampling(params: Any, *, room: int) -> SamplingParams:
    top_k = getattr(params, "top_k", None)
    max_tokens = getattr(params, "max_tokens", None)
    return SamplingParams(
        temperature=float(getattr(params, "temperature", 1.0)),
        top_p=float(getattr(params, "top_p", 1.0)),
        top_k=top_k if top_k is not None and top_k > 0 else None,
        max_tokens=min(room, max_tokens) if max_tokens is not None else room,
        stop=tuple(getattr(params, "stop", None) or ()),
        seed=getattr(params, "seed", None),
    )
