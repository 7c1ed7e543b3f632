"""Agent rollouts: a policy plays multi-turn episodes in sandboxed environments.

One episode is a chat: the system prompt explains how to act, each observation is a user message,
each model reply is an assistant message and is sent to the environment whole (the environment reads
the last ``\\boxed{}`` or the tool calls in it). The first observation of a hinted episode carries the
hint exactly as the reference injects it: ``"{obs}\\n\\nHINT: {hint}"``.

An environment is evaluated with K hinted and K unhinted episodes, all concurrently. Both conditions
use the same K seeds: a paired comparison removes the between-seed variance from the regret.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from spade_envs.contract.episode import episode_return, is_win
from spade_envs.runtime.backend import ExecutionBackend
from spade_envs.runtime.errors import EnvRuntimeError, EnvTimeoutError
from spade_envs.runtime.pool import SessionPool
from spade_envs.runtime.session import EnvSession
from spade_envs.spec.models import EpisodeLog
from spade_train.hints import inject_hint
from spade_train.policies.base import Generation, GenerationRequest, Message, Policy, SamplingParams

TEXT_AGENT_PROMPT = (
    "You are playing a text environment. Read each observation carefully, think step by step, and end "
    "every reply with exactly one action written as \\boxed{ACTION}."
)
TOOL_AGENT_PROMPT = (
    "You are an assistant with tools. Call a tool with "
    '<tool_call>{"name": "<tool>", "arguments": {...}}</tool_call>; give your final answer with '
    "<answer>...</answer>."
)


@dataclass(frozen=True)
class RolloutConfig:
    episodes_per_condition: int = 16
    """K: episodes with the hint and K without, per environment (16 in the paper)."""
    sampling: SamplingParams = field(default_factory=lambda: SamplingParams(temperature=0.6, max_tokens=1024))
    max_turns: int | None = None
    """Cap on turns per episode; default: the environment's own max_turns."""
    return_mode: Literal["terminal_clipped", "sum_clipped"] = "terminal_clipped"
    """terminal_clipped is the reference: the last reward clipped to [-1, 1] if terminated, else 0."""
    system_prompt: str | None = None
    """The agent's system message; default TEXT_AGENT_PROMPT or TOOL_AGENT_PROMPT by environment kind."""
    seed: int = 0


@dataclass(frozen=True)
class AgentTurn:
    observation: str
    generation: Generation
    reward: float


@dataclass
class Episode:
    seed: int
    hinted: bool
    messages: list[Message]
    turns: list[AgentTurn] = field(default_factory=list)
    terminated: bool = False
    truncated: bool = False
    episode_return: float = 0.0
    won: bool = False
    error: str | None = None
    timed_out: bool = False

    def to_log(self, env_id: str | None, hint: str | None) -> EpisodeLog:
        observations = [turn.observation for turn in self.turns]
        rewards = [turn.reward for turn in self.turns]
        actions = [turn.generation.text for turn in self.turns]
        observations.append(self.messages[-1]["content"] if self.messages and self.messages[-1]["role"] == "user"
                            else "")
        return EpisodeLog(env_id=env_id, seed=self.seed, hint=hint if self.hinted else None, actions=actions,
                          observations=observations, rewards=rewards, terminated=self.terminated,
                          truncated=self.truncated, episode_return=self.episode_return)


@dataclass
class EnvEvaluation:
    """K hinted and K unhinted episodes of one environment."""

    hinted: list[Episode]
    unhinted: list[Episode]

    @property
    def timed_out(self) -> bool:
        return any(e.timed_out for e in self.hinted + self.unhinted)

    def returns(self, hinted: bool) -> tuple[float, ...]:
        return tuple(e.episode_return for e in (self.hinted if hinted else self.unhinted))

    def win_rate(self, hinted: bool) -> float:
        episodes = self.hinted if hinted else self.unhinted
        return sum(e.won for e in episodes) / len(episodes) if episodes else 0.0


def _episode_value(rewards: Sequence[float], terminated: bool, mode: str) -> float:
    if mode == "sum_clipped":
        return max(-1.0, min(1.0, float(sum(rewards))))
    return episode_return(rewards, terminated)


async def play_episode(
    policy: Policy,
    session: EnvSession,
    pool: SessionPool,
    *,
    seed: int,
    hint: str | None,
    config: RolloutConfig,
) -> Episode:
    """One episode. Environment and model failures end the episode and are recorded, never raised."""
    tool_use = session.loaded.tool_use
    tools = await pool.run_async(session.tools) if tool_use else None
    system = config.system_prompt or (TOOL_AGENT_PROMPT if tool_use else TEXT_AGENT_PROMPT)
    episode = Episode(seed=seed, hinted=hint is not None, messages=[{"role": "system", "content": system}])
    try:
        first = await pool.run_async(session.reset, seed)
    except EnvRuntimeError as error:
        return _failed(episode, error)
    observation = inject_hint(first.observation, hint)
    turn_limit = config.max_turns or session.loaded.max_turns or 10
    rewards: list[float] = []
    for _ in range(turn_limit):
        episode.messages.append({"role": "user", "content": observation})
        generation = await policy.generate(GenerationRequest(messages=list(episode.messages),
                                                             sampling=config.sampling, tools=tools, role="agent"))
        if not generation.ok:
            episode.error = f"policy: {generation.error}"
            break
        episode.messages.append({"role": "assistant", "content": generation.text})
        try:
            step = await pool.run_async(session.step, generation.text)
        except EnvRuntimeError as error:
            episode.turns.append(AgentTurn(observation, generation, 0.0))
            return _failed(episode, error)
        episode.turns.append(AgentTurn(observation, generation, step.reward))
        rewards.append(step.reward)
        observation = step.observation
        if step.done:
            episode.terminated, episode.truncated = step.terminated, step.truncated
            break
    else:
        episode.truncated = True
    episode.messages.append({"role": "user", "content": observation})
    episode.episode_return = _episode_value(rewards, episode.terminated, config.return_mode)
    episode.won = is_win(rewards, episode.terminated)
    return episode


def _failed(episode: Episode, error: EnvRuntimeError) -> Episode:
    episode.error = f"environment: {error}"
    episode.timed_out = isinstance(error, EnvTimeoutError)
    episode.episode_return = 0.0
    return episode


async def evaluate_environment(
    policy: Policy,
    backend: ExecutionBackend,
    pool: SessionPool,
    source: str,
    *,
    hint: str | None,
    config: RolloutConfig,
    class_name: str | None = None,
    init_kwargs: dict[str, Any] | None = None,
    rng: random.Random | None = None,
) -> EnvEvaluation:
    """Play K hinted and K unhinted episodes concurrently, on the same K seeds."""
    rng = rng or random.Random(config.seed)
    seeds = [rng.randrange(2**31) for _ in range(config.episodes_per_condition)]

    async def one(seed: int, with_hint: bool) -> Episode:
        try:
            session = await pool.run_async(
                lambda: backend.open_session(source, class_name=class_name, max_turns=config.max_turns,
                                             init_kwargs=init_kwargs))
        except EnvRuntimeError as error:
            episode = Episode(seed=seed, hinted=with_hint, messages=[])
            return _failed(episode, error)
        try:
            return await play_episode(policy, session, pool, seed=seed, hint=hint if with_hint else None,
                                      config=config)
        finally:
            await pool.run_async(session.close)

    hinted = [one(seed, True) for seed in seeds] if hint else []
    unhinted = [one(seed, False) for seed in seeds]
    results = await asyncio.gather(*hinted, *unhinted)
    return EnvEvaluation(hinted=list(results[: len(hinted)]), unhinted=list(results[len(hinted):]))
