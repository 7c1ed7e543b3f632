"""The one interface every model client implements: ``Policy.generate``.

The self-play loop, rollouts and evaluation only ever call this. A policy never raises for a model
or endpoint failure: it returns a ``Generation`` with ``error`` set, so one bad call cannot kill a
run; callers decide what an error is worth (an invalid environment, a lost turn).
"""

from __future__ import annotations

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
