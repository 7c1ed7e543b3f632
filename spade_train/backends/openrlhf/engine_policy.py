"""The self-play loop's ``Policy`` over OpenRLHF's ``llm_engine``, and the token bookkeeping of a trained episode.

Inside ``AgentExecutor.execute`` OpenRLHF hands over ``llm_engine``, whose
``generate(prompt_token_ids, sampling_params)`` returns a vLLM ``RequestOutput``. ``EnginePolicy`` turns
that into the loop's ``Policy``: messages go through the tokenizer's chat template, the reply comes back
as a ``Generation`` with token ids and log-probabilities. The designer, hint writer and nested agent
rollouts of a design attempt (``spade_train.loop.design``) then run unchanged on the training engine.

A trained agent episode must be one token sequence in which the model's replies are exactly the tokens
it sampled and everything between them (environment feedback) is marked as not trained.
``TrajectoryRecorder`` is a ``Policy`` for one such episode: ``rollout.play_episode`` drives it as it
drives any policy, and it extends a single token list turn by turn (template tokens of the new user
message appended after the model's reply, never a re-tokenisation of the history), recording where each
reply starts and ends.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field, replace
from typing import Any

from spade_train.policies.base import Generation, GenerationRequest, Message, SamplingParams
from spade_train.policies.vllm_offline import generation_from_output, to_vllm_sampling_kwargs

TEMPLATE_FIELDS = ("temperature", "top_p", "top_k", "max_tokens", "min_tokens", "skip_special_tokens", "logprobs",
                   "stop", "seed")
"""Sampling options copied from OpenRLHF's sampling parameters before ours are applied."""

_SENTINEL = "\u2063SPADE-TURN-BOUNDARY\u2063"


def render_prompt(tokenizer: Any, messages: list[Message], tools: list[dict[str, Any]] | None = None,
                  options: dict[str, Any] | None = None) -> list[int]:
    """Token ids of ``messages`` with the generation prompt, as the chat template writes them.

    ``options`` go to the template (Qwen3's ``enable_thinking``)."""
    text = tokenizer.apply_chat_template(messages, tools=tools, add_generation_prompt=True, tokenize=False,
                                         **(options or {}))
    return list(tokenizer(text, add_special_tokens=False)["input_ids"])


def continuation_ids(tokenizer: Any, observation: str, *, previous_reply_ids: list[int],
                     tools: list[dict[str, Any]] | None = None, options: dict[str, Any] | None = None) -> list[int]:
    """The tokens that follow a model reply when the environment answers with ``observation``.

    Rendered from a stand-in conversation so that templates that rewrite earlier turns (Qwen3 drops old
    reasoning) cannot shift the history: the text after a sentinel assistant reply is the end-of-turn
    marker, the user message and the next generation prompt. When the reply already ended with the
    end-of-turn token (it stopped rather than ran out of tokens), that marker is not repeated.
    """
    stand_in = [{"role": "user", "content": "."}, {"role": "assistant", "content": _SENTINEL},
                {"role": "user", "content": observation}]
    text = tokenizer.apply_chat_template(stand_in, tools=tools, add_generation_prompt=True, tokenize=False,
                                         **(options or {}))
    suffix = text[text.index(_SENTINEL) + len(_SENTINEL):]
    if previous_reply_ids:
        last = tokenizer.decode([previous_reply_ids[-1]], skip_special_tokens=False)
        if last and previous_reply_ids[-1] in set(tokenizer.all_special_ids) and suffix.startswith(last):
            suffix = suffix[len(last):]
    return list(tokenizer(suffix, add_special_tokens=False)["input_ids"])


def derive_sampling(template: Any, sampling: SamplingParams, *, max_tokens: int) -> Any:
    """OpenRLHF's sampling-parameter object with our request's options, built anew (never mutated).

    Options the request leaves unset (``top_k``) keep OpenRLHF's value. A fresh object of the template's own class (``vllm.SamplingParams`` in a real run) lets its
    constructor re-derive what depends on the options. Log-probabilities of the sampled tokens are
    always requested: the trained samples need them.
    """
    options = {name: getattr(template, name) for name in TEMPLATE_FIELDS if hasattr(template, name)}
    options.update(to_vllm_sampling_kwargs(sampling, logprobs=True))
    options["max_tokens"] = max_tokens
    if not sampling.stop:
        options.pop("stop", None)
    return type(template)(**options)


class EnginePolicy:
    """A ``Policy`` over one rollout engine. Never raises: failures come back as ``Generation.error``.

    ``max_length`` bounds prompt plus reply (OpenRLHF's ``max_len``); a reply gets at most the room left.
    ``engine_loop`` is the event loop the engine belongs to: a call made from another thread's event loop
    is handed over to it (the executor itself calls from the engine's loop).
    """

    name = "openrlhf-engine"

    def __init__(self, engine: Any, tokenizer: Any, template: Any, *, max_length: int,
                 engine_loop: asyncio.AbstractEventLoop | None = None,
                 chat_options: dict[str, Any] | None = None) -> None:
        self.engine, self.tokenizer, self.template = engine, tokenizer, template
        self.max_length = max_length
        self.engine_loop = engine_loop
        self.chat_options = dict(chat_options or {})
        """Chat-template options for every prompt (``openrlhf.enable_thinking``)."""

    def with_chat_options(self, options: dict[str, Any]) -> EnginePolicy:
        """The same engine with other chat-template options (the designer's own thinking switch)."""
        if options == self.chat_options:
            return self
        return EnginePolicy(self.engine, self.tokenizer, self.template, max_length=self.max_length,
                            engine_loop=self.engine_loop, chat_options=options)

    async def generate(self, request: GenerationRequest) -> Generation:
        try:
            prompt_ids = render_prompt(self.tokenizer, request.messages, request.tools, self.chat_options)
        except Exception as error:  # noqa: BLE001 - a template failure is this call's failure
            return Generation(text="", finish_reason="error", error=f"chat template: {error}")
        return await self.generate_ids(prompt_ids, request.sampling)

    async def generate_ids(self, prompt_ids: list[int], sampling: SamplingParams) -> Generation:
        """Generate from token ids (the recorder's path: the prompt is already tokens)."""
        room = self.max_length - len(prompt_ids)
        if room <= 0:
            return Generation(text="", finish_reason="length", prompt_token_ids=list(prompt_ids),
                              error=f"the context is full ({len(prompt_ids)} of {self.max_length} tokens)")
        params = derive_sampling(self.template, sampling, max_tokens=min(sampling.max_tokens, room))
        try:
            output = await self._call(self.engine.generate(list(prompt_ids), params))
            generation = generation_from_output(output)
        except Exception as error:  # noqa: BLE001 - an engine failure ends this call, not the rollout
            return Generation(text="", finish_reason="error", prompt_token_ids=list(prompt_ids),
                              error=f"{type(error).__name__}: {error}")
        return replace(generation, prompt_token_ids=list(prompt_ids), text=self._without_eos(generation.text))

    def _without_eos(self, text: str) -> str:
        """The reply text without a trailing end-of-sequence marker (engines asked to keep special tokens
        may include it; the environment and the hint must not see it)."""
        eos = getattr(self.tokenizer, "eos_token", None)
        return text[: -len(eos)] if eos and text.endswith(eos) else text

    async def _call(self, coroutine: Any) -> Any:
        loop = self.engine_loop
        if loop is None or loop is asyncio.get_running_loop():
            return await coroutine
        return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(coroutine, loop))


@dataclass
class TrajectoryRecorder:
    """A ``Policy`` for one trained multi-turn episode, keeping OpenRLHF's token view of it.

    ``tokens``: the whole episode; ``action_ranges``: [start, end) of each reply in ``tokens``;
    ``logprobs``: one per token, the sampled log-probability on reply tokens and 0.0 elsewhere (as
    OpenRLHF's own multi-turn executor writes them). Each request must extend the previous one by the
    reply and one user message, which is how ``rollout.play_episode`` calls a policy.
    """

    policy: EnginePolicy
    tokens: list[int] = field(default_factory=list)
    logprobs: list[float] = field(default_factory=list)
    action_ranges: list[tuple[int, int]] = field(default_factory=list)
    truncated: bool = False
    """The last reply ran out of tokens (finish reason "length")."""
    name: str = "openrlhf-trajectory"
    _messages: int = 0
    _last_reply: list[int] = field(default_factory=list)

    async def generate(self, request: GenerationRequest) -> Generation:
        tokenizer = self.policy.tokenizer
        try:
            options = self.policy.chat_options
            if not self.action_ranges:
                prompt = render_prompt(tokenizer, request.messages, request.tools, options)
            else:
                if len(request.messages) != self._messages + 2 or request.messages[-1]["role"] != "user":
                    raise ValueError("each turn must add the reply and one user message")
                prompt = self.tokens + continuation_ids(tokenizer, request.messages[-1]["content"],
                                                        previous_reply_ids=self._last_reply, tools=request.tools,
                                                        options=options)
        except Exception as error:  # noqa: BLE001 - reported as this turn's failure
            return Generation(text="", finish_reason="error", error=f"trajectory: {error}")
        generation = await self.policy.generate_ids(prompt, request.sampling)
        if not generation.ok or not generation.completion_token_ids:
            return generation if not generation.ok else replace(generation, error="the engine returned no tokens")
        reply = list(generation.completion_token_ids)
        reply_logprobs = list(generation.completion_logprobs or [0.0] * len(reply))
        self.logprobs.extend([0.0] * (len(prompt) - len(self.tokens)))
        self.tokens = prompt + reply
        self.logprobs.extend(reply_logprobs)
        self.action_ranges.append((len(prompt), len(self.tokens)))
        self.truncated = generation.finish_reason == "length"
        self._messages, self._last_reply = len(request.messages), reply
        return generation
