"""Agent rollouts: a policy plays multi-turn episodes in sandboxed environments.

One episode is a chat: the system prompt explains how to act, each observation is a user message,
each model reply is an assistant message and is sent to the environment whole (the environment reads
the last ``\\boxed{}`` or the tool calls in it). The first observation of a hinted episode carries the
hint; an episode's value (under the run's return mode) and whether it was won come from the same place.
All three are the contract's rules (``spade_envs.contract.episode``), shared with the checker, the
designer rewards and the metrics.

An environment is evaluated with K hinted and K unhinted episodes, all concurrently, their turns sent to
the agent in lock-step rounds (``LockstepBatcher``: one batch per round, the same batches every run). Both conditions
use the same K seeds: a paired comparison removes the between-seed variance from the regret.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from spade_envs.contract.episode import (
    TEXT_AGENT_PROMPT,
    TOOL_AGENT_PROMPT,
    ReturnMode,
    episode_value,
    inject_hint,
    is_win,
)
from spade_envs.runtime.backend import ExecutionBackend
from spade_envs.runtime.errors import EnvCodeError, EnvRuntimeError, EnvTimeoutError
from spade_envs.runtime.session import EnvSession
from spade_envs.runtime.threads import SessionThreads
from spade_envs.spec.models import EpisodeLog
from spade_train.policies.base import (
    BatchPolicy,
    Generation,
    GenerationRequest,
    Message,
    Policy,
    SamplingParams,
    generate_all,
)
from spade_train.semantics import EnvironmentErrors, FailedPlays, PlaySeeds


@dataclass(frozen=True)
class RolloutConfig:
    """How episodes are played. A run builds it from its configuration (``RunConfig.rollout``), where the
    defaults of these settings live; so the settings of a run have no second default here."""

    episodes_per_condition: int
    """K: episodes with the hint and K without, per environment (16 in the paper)."""
    sampling: SamplingParams
    return_mode: ReturnMode
    """terminal_clipped is the reference: the last reward clipped to [-1, 1] if terminated, else 0."""
    seed: int
    max_turns: int | None = None
    """Cap on turns per episode; None: the environment's own max_turns."""
    system_prompt: str | None = None
    """The agent's system message; None: TEXT_AGENT_PROMPT or TOOL_AGENT_PROMPT by environment kind."""
    unhinted_episodes: int | None = None
    """Unhinted plays when they differ from K (None: K)."""
    environment_errors: EnvironmentErrors = "zero"
    """The return of an episode whose environment raised in step(): 0, or -1 and terminated (the release)."""
    failed_plays: FailedPlays = "zero"
    """An unhinted play the harness could not finish (the model call failed, a timeout, a crash): kept
    with return 0, or retried once and then dropped (the release). Hinted ones are always kept."""
    play_seeds: PlaySeeds = "paired"
    """The same seeds in both arms, or independent ones (the release)."""
    first_message: Callable[[str, str | None], str] | None = None
    """The agent's first user message from the first observation and the hint, with no system message
    (the release's ``qwen3_game`` template, ``ReleasePrompts.agent_message``); None: the system prompt, then
    the observation with the hint injected by the contract."""


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
    failed: list[Episode] = field(default_factory=list)
    """With ``failed_plays = "retry_then_drop"``: every unhinted attempt that failed and is not among the
    kept plays (a play whose retry was kept, and both attempts of a dropped play)."""

    def episodes(self) -> list[Episode]:
        """Every kept episode, hinted first."""
        return self.hinted + self.unhinted

    @property
    def timed_out(self) -> bool:
        """Whether any play timed out, kept or dropped (the release flags the design either way)."""
        return any(e.timed_out for e in self.episodes() + self.failed)

    def returns(self, hinted: bool) -> tuple[float, ...]:
        return tuple(e.episode_return for e in (self.hinted if hinted else self.unhinted))

    def win_rate(self, hinted: bool) -> float:
        """The share of the condition's episodes that were won (``Episode.won``, the contract's ``is_win``)."""
        episodes = self.hinted if hinted else self.unhinted
        return sum(e.won for e in episodes) / len(episodes) if episodes else 0.0


class LockstepBatcher:
    """The agent's requests of an environment's concurrent episodes, sent to the policy one round at a time.

    Each episode is a member. For a ``BatchPolicy``, a round is sent once every member still playing has
    asked for its next turn, as one batch in member order (``generate_all``: one ``generate_batch`` call for a local model,
    where a dozen rows cost about what one does). Which members are still playing at a round depends only
    on the episodes' own course, never on timing, so the batches, and with them every generation, are the
    same from run to run. A member leaves when its episode ends; a member that joins later (the retry of
    a failed play) joins at whatever round is next.
    """

    def __init__(self, policy: Policy, members: int = 0) -> None:
        self.policy = policy
        self.playing = members
        self._pending: dict[int, tuple[GenerationRequest, asyncio.Future[Generation]]] = {}
        self._rounds: set[asyncio.Task[None]] = set()
        self._next_member = members

    def join(self) -> int:
        """A new member (its number); the members of the constructor are 0 .. members - 1."""
        self.playing += 1
        self._next_member += 1
        return self._next_member - 1

    def member(self, number: int) -> Policy:
        """The policy one member plays with: the batcher's view of it for a ``BatchPolicy``, the policy
        itself otherwise (a served model batches concurrent requests on its own, and holding them back
        for a round would only make every episode wait for the slowest)."""
        return _Member(self, number) if isinstance(self.policy, BatchPolicy) else self.policy

    def leave(self) -> None:
        self.playing -= 1
        self._send_if_complete()

    async def generate(self, number: int, request: GenerationRequest) -> Generation:
        future: asyncio.Future[Generation] = asyncio.get_running_loop().create_future()
        self._pending[number] = (request, future)
        self._send_if_complete()
        return await future

    def _send_if_complete(self) -> None:
        if not self._pending or len(self._pending) < self.playing:
            return
        batch = [self._pending[number] for number in sorted(self._pending)]
        self._pending = {}
        task = asyncio.ensure_future(self._send(batch))
        self._rounds.add(task)
        task.add_done_callback(self._rounds.discard)

    async def _send(self, batch: list[tuple[GenerationRequest, asyncio.Future[Generation]]]) -> None:
        try:
            generations = await generate_all(self.policy, [request for request, _ in batch])
        except Exception as error:  # noqa: BLE001 - a policy never raises; one that does fails its turns
            generations = [Generation(text="", finish_reason="error", error=f"{type(error).__name__}: {error}")
                           for _ in batch]
        for (_, future), generation in zip(batch, generations):
            if not future.done():
                future.set_result(generation)


@dataclass(frozen=True)
class _Member:
    """One episode's view of a ``LockstepBatcher``: a ``Policy``."""

    batcher: LockstepBatcher
    number: int

    @property
    def name(self) -> str:
        return self.batcher.policy.name

    async def generate(self, request: GenerationRequest) -> Generation:
        return await self.batcher.generate(self.number, request)


async def play_episode(
    policy: Policy,
    session: EnvSession,
    threads: SessionThreads,
    *,
    seed: int,
    hint: str | None,
    config: RolloutConfig,
) -> Episode:
    """One episode. Environment and model failures end the episode and are recorded, never raised."""
    tool_use = session.loaded.tool_use
    tools = await threads.run_async(session.tools) if tool_use else None
    system = config.system_prompt or (TOOL_AGENT_PROMPT if tool_use else TEXT_AGENT_PROMPT)
    # The release's game template (``first_message``) has no system message; its tool-use plays keep theirs.
    release_game = config.first_message is not None and not tool_use
    messages: list[Message] = [] if release_game else [{"role": "system", "content": system}]
    episode = Episode(seed=seed, hinted=hint is not None, messages=messages)
    try:
        first = await threads.run_async(session.reset, seed)
    except EnvRuntimeError as error:
        return _failed(episode, error)
    observation = (config.first_message(first.observation, hint) if release_game and config.first_message
                   else inject_hint(first.observation, hint))
    turn_limit = config.max_turns or session.loaded.max_turns or 10
    rewards: list[float] = []
    for turn in range(turn_limit):
        episode.messages.append({"role": "user", "content": observation})
        sampling = replace(config.sampling, seed=turn_seed(seed, turn, config.sampling.seed))
        generation = await policy.generate(GenerationRequest(messages=list(episode.messages),
                                                             sampling=sampling, tools=tools, role="agent"))
        if not generation.ok:
            episode.error = f"policy: {generation.error}"
            break
        episode.messages.append({"role": "assistant", "content": generation.text})
        try:
            step = await threads.run_async(session.step, generation.text)
        except EnvCodeError as error:
            if config.environment_errors == "zero":
                episode.turns.append(AgentTurn(observation, generation, 0.0))
                return _failed(episode, error)
            # The release: the game's own exception is a lost episode, reward -1 and terminated.
            episode.turns.append(AgentTurn(observation, generation, -1.0))
            episode.error, episode.terminated = f"environment: {error}", True
            episode.episode_return = episode_value([*rewards, -1.0], True, config.return_mode)
            return episode
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
    episode.episode_return = episode_value(rewards, episode.terminated, config.return_mode)
    episode.won = is_win(rewards, episode.terminated)
    return episode


def turn_seed(episode_seed: int, turn: int, base: int | None = None) -> int:
    """The sampling seed of an agent turn: a function of the episode's seed and the turn (and the run's
    sampling seed, if it names one), so that a turn's reply depends on what the model sees and not on
    which of the concurrent requests reached it first. A hinted and an unhinted episode on the same
    seed draw the same random numbers: the paired comparison extends to the agent's sampling."""
    return ((episode_seed * 1_000_003 + turn) * 7_919 + (base or 0)) % (1 << 63)


def _failed(episode: Episode, error: EnvRuntimeError) -> Episode:
    episode.error = f"environment: {error}"
    episode.timed_out = isinstance(error, EnvTimeoutError)
    episode.episode_return = 0.0
    return episode


async def evaluate_environment(
    policy: Policy,
    backend: ExecutionBackend,
    threads: SessionThreads,
    source: str,
    *,
    hint: str | None,
    config: RolloutConfig,
    class_name: str | None = None,
    init_kwargs: dict[str, Any] | None = None,
    rng: random.Random | None = None,
) -> EnvEvaluation:
    """Play K hinted and K (or ``unhinted_episodes``) unhinted episodes concurrently.

    Seeds are paired (the unhinted plays use the hinted plays' seeds, then fresh ones) or independent, as
    ``config.play_seeds`` says. With ``failed_plays = "retry_then_drop"`` an unhinted play the harness
    could not finish is played once more on the same seed and left out if that fails too.
    """
    rng = rng or random.Random(config.seed)
    hinted_count = config.episodes_per_condition
    unhinted_count = config.unhinted_episodes or hinted_count
    seeds = [rng.randrange(2**31) for _ in range(max(hinted_count, unhinted_count))]
    hinted_seeds = seeds[:hinted_count]
    unhinted_seeds = (seeds[:unhinted_count] if config.play_seeds == "paired"
                      else [rng.randrange(2**31) for _ in range(unhinted_count)])

    hinted_plays_count = hinted_count if hint is not None else 0
    batcher = LockstepBatcher(policy, members=hinted_plays_count + unhinted_count)

    async def one(seed: int, with_hint: bool, member: int) -> Episode:
        try:
            try:
                async with threads.session(source, class_name=class_name, max_turns=config.max_turns,
                                           init_kwargs=init_kwargs) as session:
                    return await play_episode(batcher.member(member), session, threads, seed=seed,
                                              hint=hint if with_hint else None, config=config)
            except EnvRuntimeError as error:  # opening the session failed (play_episode keeps its own errors)
                episode = Episode(seed=seed, hinted=with_hint, messages=[])
                return _failed(episode, error)
        finally:
            batcher.leave()

    async def unhinted_play(seed: int, member: int) -> list[Episode]:
        """The play, or a failed play and its retry (the last one is the play kept, if it did not fail)."""
        episode = await one(seed, False, member)
        if config.failed_plays == "zero" or not harness_failed(episode):
            return [episode]
        return [episode, await one(seed, False, batcher.join())]

    hinted = [one(seed, True, number) for number, seed in enumerate(hinted_seeds)] if hint is not None else []
    hinted_plays = asyncio.gather(*hinted)
    unhinted_plays = asyncio.gather(*(unhinted_play(seed, hinted_plays_count + number)
                                      for number, seed in enumerate(unhinted_seeds)))
    hinted_results, tries = await asyncio.gather(hinted_plays, unhinted_plays)
    hinted_results = list(hinted_results)
    if config.failed_plays == "zero":
        return EnvEvaluation(hinted=hinted_results, unhinted=[attempts[0] for attempts in tries])
    kept = [attempts[-1] for attempts in tries if not harness_failed(attempts[-1])]
    failed = [episode for attempts in tries for episode in attempts if harness_failed(episode)]
    return EnvEvaluation(hinted=hinted_results, unhinted=kept, failed=failed)


def harness_failed(episode: Episode) -> bool:
    """Whether the play could not be finished for a reason outside the game's own code (the model call,
    a timeout, the sandbox): what the release retries. A game that raised in step() under
    ``environment_errors = "minus_one"`` has terminated and is a lost episode, not a failure."""
    return episode.error is not None and not episode.terminated
