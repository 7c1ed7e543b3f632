"""Format warm-up: a few supervised steps that teach a from-scratch model the *shape* of each reply.

SPADE starts from an instruct model that already answers in the format it is asked for. A randomly
initialised model does not: it would spend the whole CPU budget discovering that a reply is
``\\boxed{ move }``. The warm-up stands in for instruction tuning, and only for that:

- agent: contexts from real episodes of rendered environments. Without a hint, a context is answered
  with a move drawn uniformly, so the model learns "answer with a move in this format" and nothing
  about which move (every code is as likely as any other). With a hint (``follow_hints``), it is
  answered with the move the hint's code gives the colour shown: an instruct model reads a hint it is
  given, a model built from scratch cannot, and without that ability a hint is noise, regret is zero or
  negative, and the designer has nothing to learn from. This teaches *reading* a hint, never which code
  an unhinted game uses: the agent's no-hint play starts at chance;
- designer: its real prompts, answered with a design whose every slot is drawn uniformly, so it
  learns the ``slot=value`` syntax and nothing about which designs pass the checker.

What the run then shows (valid designs, rules learnt, regret) comes from self-play alone.
"""

from __future__ import annotations

import asyncio
import math
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from spade_envs.contract.episode import inject_hint
from spade_envs.runtime.backend import ExecutionBackend
from spade_envs.runtime.errors import EnvRuntimeError
from spade_envs.runtime.threads import SessionThreads
from spade_train.designer.prompts import DesignerPrompt
from spade_train.designer.signal_language import (
    AGENT_ACTION,
    AGENT_SYSTEM,
    CLASS_NAME,
    MOVES,
    SignalDesign,
    SignalDesignLanguage,
    all_designs,
    random_design,
    render_environment,
)
from spade_train.policies.base import Message
from spade_train.rollout import LockstepBatcher, RolloutConfig, play_episode


@dataclass(frozen=True)
class WarmupExample:
    messages: list[Message]
    target: str


def agent_examples(
    backend: ExecutionBackend, rng: random.Random, count: int, *, designs: int = 24, episodes_per_design: int = 40,
    follow_hints: bool = True,
) -> list[WarmupExample]:
    """Contexts from real episodes of rendered environments, answered with a uniformly random move, or,
    in a hinted episode with ``follow_hints``, the move the hint's code gives the colour shown.

    Unhinted episodes are played with random moves, so the contexts include later turns ("correct ...",
    "wrong ...") as rollouts will show them.
    """
    contexts: list[WarmupExample] = []
    candidates = all_designs()
    rng.shuffle(candidates)
    for design in candidates[:designs]:
        try:
            with backend.open_session(render_environment(design), class_name=CLASS_NAME) as session:
                for _ in range(episodes_per_design):
                    first = session.reset(rng.randrange(2**31)).observation
                    hinted = rng.random() < 0.5
                    shown = inject_hint(first, design.hint) if hinted else first
                    # The rendered environment's solution() is the moves its code gives the signals.
                    following = list(session.solution()) if hinted and follow_hints else []
                    contexts += episode_contexts(
                        session, [{"role": "system", "content": AGENT_SYSTEM}, {"role": "user", "content": shown}],
                        (AGENT_ACTION.format(move=following[turn] if turn < len(following) else rng.choice(MOVES))
                         for turn in range(design.length + design.lives)))
        except EnvRuntimeError:
            continue  # a design whose reset raises has no episodes to learn the format from
    return [rng.choice(contexts) for _ in range(count)] if contexts else []


def episode_contexts(session: Any, messages: list[Message], actions: Iterable[str]) -> list[WarmupExample]:
    """One episode played in ``session`` (just reset) with ``actions`` in turn, until it ends: the context
    before each action, answered with it (``actions`` is read lazily: a generator draws no move past the
    end). ``messages`` are the system prompt and the first observation as
    shown; each action and the observation it got are appended, as a rollout does."""
    contexts = []
    messages = list(messages)
    for action in actions:
        contexts.append(WarmupExample(messages=list(messages), target=action))
        step = session.step(action)
        if step.done:
            break
        messages += [{"role": "assistant", "content": action}, {"role": "user", "content": step.observation}]
    return contexts


def designer_examples(skills: Sequence[str], rng: random.Random, count: int) -> list[WarmupExample]:
    """Designer prompts (with random example designs, as memory would show) answered with random designs."""
    language = SignalDesignLanguage()
    examples = []
    for _ in range(count):
        shown = [_FakeExample(render_environment(random_design(rng)), rng.choice(("positive", "negative")))
                 for _ in range(rng.randrange(4))]
        prompt = DesignerPrompt(kind="multi_turn_game", skill=rng.choice(list(skills)), examples=tuple(shown))
        examples.append(WarmupExample(messages=language.messages(prompt), target=str(random_design(rng))))
    return examples


@dataclass(frozen=True)
class _FakeExample:
    """A memory example as ``DesignerPrompt`` expects one (only ``code`` and ``label`` are shown)."""

    code: str
    label: str
    skill: str = "warm-up"
    win_rate: float = 0.5
    regret: float = 0.0


def learning_rate_at(step: int, steps: int, peak: float, schedule: str) -> float:
    """The warm-up's learning rate at ``step`` of ``steps``: ``peak`` throughout ("constant"), or ("cosine")
    a linear ramp over the first tenth of the steps, then a cosine decay to a tenth of ``peak``."""
    if schedule == "constant":
        return peak
    if schedule != "cosine":
        raise ValueError(f"unknown warm-up schedule {schedule!r}; choose 'cosine' or 'constant'")
    ramp = max(1, steps // 10)
    if step < ramp:
        return peak * (step + 1) / ramp
    progress = (step - ramp) / max(1, steps - ramp)
    return peak * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * progress)))


def supervised_steps(
    model: Any,
    tokenizer: Any,
    examples: Sequence[WarmupExample],
    *,
    steps: int,
    batch_size: int,
    learning_rate: float,
    rng: random.Random,
    schedule: str = "constant",
    on_step: Callable[[int, float], None] | None = None,
    optimizer: Any | None = None,
    start: int = 0,
) -> list[float]:
    """Cross-entropy on the target tokens (and the end-of-turn token) only; returns the losses of steps
    ``start`` to ``steps - 1``. ``schedule``: the learning rate over the steps (``learning_rate_at``).
    ``optimizer`` (``new_optimizer``) and ``start`` continue a round that was checkpointed at ``start``."""
    if steps == 0 or not examples:
        return []
    encoded = []
    for example in examples:
        prompt = tokenizer.apply_chat_template(example.messages, add_generation_prompt=True, tokenize=False)
        prompt_ids = tokenizer(prompt, add_special_tokens=False)["input_ids"]
        target_ids = tokenizer(example.target, add_special_tokens=False)["input_ids"] + [tokenizer.eos_token_id]
        encoded.append((prompt_ids, target_ids))
    optimizer = optimizer if optimizer is not None else new_optimizer(model, learning_rate)
    pad = tokenizer.pad_token_id
    losses = []
    model.train()
    for step in range(start, steps):
        for group in optimizer.param_groups:
            group["lr"] = learning_rate_at(step, steps, learning_rate, schedule)
        batch = [encoded[rng.randrange(len(encoded))] for _ in range(batch_size)]
        optimizer.zero_grad(set_to_none=True)
        loss = _accumulate_batch(model, batch, pad)
        optimizer.step()
        losses.append(loss)
        if on_step is not None:
            on_step(step, losses[-1])
    model.eval()
    return losses


def new_optimizer(model: Any, learning_rate: float) -> Any:
    """The optimizer of one warm-up round (each round starts a fresh one)."""
    import torch

    return torch.optim.AdamW(model.parameters(), lr=learning_rate, weight_decay=0.0)


def _accumulate_batch(model: Any, batch: Sequence[tuple[list[int], list[int]]], pad: int, parts: int = 2) -> float:
    """Accumulate the gradient of the batch's loss (the mean over its target tokens) and return the loss.

    The batch is sorted by length and run in ``parts`` slices, each padded only to its own longest
    example: contexts range from one turn to a whole episode, and one width for all of them spent about
    half of every forward pass on padding. Each slice's mean is weighted by its share of the target
    tokens, so the gradient is the whole batch's."""
    import torch

    ordered = sorted(batch, key=lambda pair: len(pair[0]) + len(pair[1]))
    size = -(-len(ordered) // parts)
    targets = sum(len(target_ids) for _, target_ids in ordered)
    total = 0.0
    for start in range(0, len(ordered), size):
        part = ordered[start: start + size]
        width = max(len(p) + len(t) for p, t in part)
        ids = torch.full((len(part), width), pad, dtype=torch.long)
        labels = torch.full((len(part), width), -100, dtype=torch.long)
        mask = torch.zeros((len(part), width), dtype=torch.long)
        for row, (prompt_ids, target_ids) in enumerate(part):
            sequence = prompt_ids + target_ids
            ids[row, : len(sequence)] = torch.tensor(sequence)
            labels[row, len(prompt_ids): len(sequence)] = torch.tensor(target_ids)
            mask[row, : len(sequence)] = 1
        loss = model(input_ids=ids, attention_mask=mask, labels=labels).loss
        share = sum(len(target_ids) for _, target_ids in part) / targets
        (loss * share).backward()
        total += float(loss.detach()) * share
    return total


async def hinted_win_rate(policy: Any, backend: ExecutionBackend, rng: random.Random, *, episodes: int,
                          rollout: RolloutConfig) -> float:
    """The share of ``episodes`` hinted games the model wins, each of a design drawn uniformly from the
    language and played in the sandbox as the run plays it (the run's agent sampling, seeded per turn).

    This is what the warm-up is for: a from-scratch model that has not learnt to follow the hint gives
    self-play no regret to pay the designer with (measured: a seed whose warm-up left a hinted win rate
    of 0.22 had regret about 0 for almost every design)."""
    designs = [random_design(rng) for _ in range(episodes)]
    seeds = [rng.randrange(2**31) for _ in range(episodes)]
    pool = SessionThreads(backend)
    batcher = LockstepBatcher(policy, members=len(designs))  # every game's turn of a round in one batch

    async def one(member: int, design: SignalDesign, seed: int) -> bool:
        code = render_environment(design)
        try:
            try:
                session = await pool.run_async(lambda: backend.open_session(code, class_name=CLASS_NAME))
            except EnvRuntimeError:
                return False
            try:
                return (await play_episode(batcher.member(member), session, pool, seed=seed, hint=design.hint,
                                           config=rollout)).won
            finally:
                await pool.run_async(session.close)
        finally:
            batcher.leave()

    try:
        won = await asyncio.gather(*(one(member, design, seed)
                                     for member, (design, seed) in enumerate(zip(designs, seeds))))
    finally:
        pool.close()
    return sum(won) / len(won) if won else 0.0
