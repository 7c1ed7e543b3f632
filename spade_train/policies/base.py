"""The one interface every model client implements: ``Policy.generate``.

The self-play loop, rollouts and evaluation only ever call this. A policy never raises for a model
or endpoint failure: it returns a ``Generation`` with ``error`` set, so one bad call cannot kill a
run; callers decide what an error is worth (an invalid environment, a lost turn).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

Message = dict[str, str]
"""A chat message: {"role": "system" | "user" | "assistant" | "tool", "content": "..."}."""


@dataclass(frozen=True)
class SamplingParams:
    temperature: float = 0.6
    top_p: float = 1.0
    top_k: int | None = None
    max_tokens: int = 1024
    stop: tuple[str, ...] = ()
    seed: int | None = None


@dataclass(frozen=True)
class GenerationRequest:
    messages: list[Message]
    sampling: SamplingParams = field(default_factory=SamplingParams)
    tools: list[dict[str, Any]] | None = None
    """OpenAI function schemas, for tool-use agents."""
    role: str = "agent"
    """Which role is asking ("designer", "hinter", "agent"): trainers and logs key on it."""


@dataclass(frozen=True)
class Generation:
    text: str
    finish_reason: str = "stop"
    prompt_token_ids: list[int] | None = None
    completion_token_ids: list[int] | None = None
    completion_logprobs: list[float] | None = None
    """Per-token log-probabilities under the sampling policy (needed by trainers)."""
    latency_s: float = 0.0
    error: str | None = None
    """Set when the call failed (timeout, HTTP error, ...); ``text`` is then empty."""

    @property
    def ok(self) -> bool:
        return self.error is None


@runtime_checkable
class Policy(Protocol):
    """A model behind an async generate call."""

    name: str

    async def generate(self, request: GenerationRequest) -> Generation: ...


@runtime_checkable
class BatchPolicy(Protocol):
    """A policy that can also answer several requests in one call: a local model whose forward pass
    costs about the same for a batch as for one request. Lock-step rollouts use it when it is there."""

    name: str

    async def generate(self, request: GenerationRequest) -> Generation: ...

    async def generate_batch(self, requests: Sequence[GenerationRequest]) -> list[Generation]: ...


async def generate_all(policy: Policy, requests: Sequence[GenerationRequest]) -> list[Generation]:
    """Every request's generation, in order: one ``generate_batch`` call where the policy has it,
    concurrent ``generate`` calls otherwise (a served model batches those itself)."""
    if isinstance(policy, BatchPolicy):
        return list(await policy.generate_batch(requests))
    return list(await asyncio.gather(*(policy.generate(request) for request in requests)))
