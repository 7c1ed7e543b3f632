"""Win rate on a pool of SPADE environments: the bundled library, or a pool ``spade-train`` exported.

Each item is one environment with one seed. The model plays the episode exactly as a SPADE agent does
in training (``spade_train.rollout.play_episode``: the agent system prompt, each observation a user
turn, each reply sent whole to the environment, ``\\boxed{}`` actions or tool calls), with the
environment's code running in the execution backend named by ``EvalSettings.sandbox`` (the WebAssembly
sandbox by default: pool environments are model-written). A sample scores 1 when the episode is a win
in the reference's sense (it terminated on a reward of 1), else 0; its return (the reference's
terminal-clipped return), turns and any failure go into ``details``.

Items are ordered seed by seed (every environment's first seed, then every second seed), so
``--limit N`` samples N different environments rather than N seeds of the first one.
"""

from __future__ import annotations

import asyncio
import random
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spade_envs.contract.actions import extract_boxed
from spade_envs.pool import PoolError
from spade_envs.runtime import EnvRuntimeError, ExecutionBackend, backend_names, create_backend
from spade_envs.runtime.threads import SessionThreads
from spade_eval.benchmark import BenchmarkDataError, EvalItem, Generate, ItemRecord, SampleRecord
from spade_eval.suites.games.outcomes import game_outcome_rates, sample_sampling
from spade_train.environments import BUNDLED, EnvironmentRecord, load_environments
from spade_train.policies.base import Generation, GenerationRequest, SamplingParams
from spade_train.rollout import Episode, RolloutConfig, play_episode

DEFAULT_SEEDS_PER_ENV = 8


@dataclass(frozen=True)
class PoolTask:
    environment: EnvironmentRecord
    """Its ``label`` names it in item ids: the bundled name (``maze_walk``) or the pool's content id."""
    seed: int


class _GenerateAsPolicy:
    """The benchmark's cached ``generate`` behind the ``Policy`` protocol that rollouts call."""

    name = "spade-eval"

    def __init__(self, generate: Generate) -> None:
        self._generate = generate

    async def generate(self, request: GenerationRequest) -> Generation:
        return await self._generate(request)


def exported_environments(directory: Path) -> list[EnvironmentRecord]:
    """The environments of an exported pool, verified against its manifest (``spade_train.environments``)."""
    try:
        loaded = load_environments(directory)
    except PoolError as error:
        raise BenchmarkDataError(f"spade_pool: {error}") from None
    if not loaded:
        raise BenchmarkDataError(f"spade_pool: the pool in {directory} has no environments; export a "
                                 "non-empty pool or leave out the pool option to use the bundled library")
    return loaded


class SpadePoolBenchmark:
    """Win rate over (environment, seed) items of a SPADE environment pool, played in the sandbox."""

    name = "spade_pool"
    suite = "games"
    samples = 1
    metric = "win rate"

    def __init__(
        self,
        *,
        sampling: SamplingParams,
        pool_dir: Path | None = None,
        sandbox: str = "wasm",
        seeds_per_env: int = DEFAULT_SEEDS_PER_ENV,
        seed: int = 0,
        backend: ExecutionBackend | None = None,
    ) -> None:
        if seeds_per_env < 1:
            raise ValueError(f"seeds_per_env must be at least 1, got {seeds_per_env}")
        if backend is None and sandbox not in backend_names():
            raise ValueError(f"unknown sandbox {sandbox!r}; choose one of: {', '.join(backend_names())}")
        self.sampling = sampling
        self.pool_dir = pool_dir
        self.sandbox = backend.name if backend is not None else sandbox
        self.seeds_per_env = seeds_per_env
        self.seed = seed
        self._backend = backend
        self._owns_backend = backend is None
        self._backend_lock = threading.Lock()

    @property
    def backend(self) -> ExecutionBackend:
        """Built on first use: starting the WebAssembly sandbox costs time a run that skips us should not pay."""
        with self._backend_lock:
            if self._backend is None:
                self._backend = create_backend(self.sandbox)
            return self._backend

    def load(self, data_dir: Path | None, limit: int | None) -> list[EvalItem]:
        """The pool's (environment, seed) items, seed-major; ``data_dir`` is unused (the pool is an option)."""
        environments = load_environments(BUNDLED) if self.pool_dir is None else exported_environments(self.pool_dir)
        rng = random.Random(self.seed)
        seeds = [rng.randrange(2**31) for _ in range(self.seeds_per_env)]
        items = [EvalItem(id=f"{environment.label}@{seed}", payload=PoolTask(environment, seed))
                 for seed in seeds for environment in environments]
        return items if limit is None else items[: max(0, limit)]

    async def run_item(self, item: EvalItem, generate: Generate, sampling: SamplingParams,
                       samples: int) -> ItemRecord:
        """Play the item's episode ``samples`` times on one session, one after another (a fixed order of
        requests for the generation cache); with a seed in ``sampling``, sample k uses seed + k."""
        task: PoolTask = item.payload
        environment = task.environment
        policy = _GenerateAsPolicy(generate)
        backend = await asyncio.to_thread(lambda: self.backend)  # the first call may compile the sandbox
        records: list[SampleRecord] = []
        with SessionThreads(backend, workers=1) as threads:
            try:
                session = await threads.run_async(lambda: backend.open_session(
                    environment.code, class_name=environment.spec.class_name, max_turns=environment.spec.max_turns))
            except EnvRuntimeError as error:
                failed = [_sample(environment, task.seed, None, error=f"environment: {error}") for _ in range(samples)]
                return ItemRecord(id=item.id, samples=failed)
            try:
                for sample in range(samples):
                    config = RolloutConfig(episodes_per_condition=1, sampling=sample_sampling(sampling, sample),
                                           return_mode="terminal_clipped", seed=task.seed)
                    episode = await play_episode(policy, session, threads, seed=task.seed, hint=None, config=config)
                    records.append(_sample(environment, task.seed, episode, error=episode.error))
            finally:
                await threads.run_async(session.close)
        return ItemRecord(id=item.id, samples=records)

    def summary_metrics(self, records: list[ItemRecord]) -> dict[str, float]:
        """Win, loss and error rates (``game_outcome_rates``), and the mean terminal-clipped return."""
        rates = game_outcome_rates(records) or {}
        returns = [s.details["return"] for r in records for s in r.samples if "return" in s.details]
        if returns:
            rates["mean_return"] = sum(returns) / len(returns)
        return rates

    def close(self) -> None:
        """Drop the backend this benchmark built (sessions are closed item by item)."""
        with self._backend_lock:
            if self._owns_backend:
                self._backend = None


def _sample(environment: EnvironmentRecord, seed: int, episode: Episode | None, *,
            error: str | None) -> SampleRecord:
    details: dict[str, Any] = {"env": environment.label, "seed": seed, "kind": environment.spec.kind,
                               "skill": environment.spec.skill}
    if episode is None:
        details.update(outcome="error", won=False, turns=0)
    else:
        outcome = "win" if episode.won else "error" if episode.error else "loss"
        details.update(outcome=outcome, won=episode.won,
                       **{"return": episode.episode_return}, turns=len(episode.turns),
                       terminated=episode.terminated, truncated=episode.truncated)
        if episode.timed_out:
            details["timed_out"] = True
    if error:
        details["error"] = error
    response = episode.turns[-1].generation.text if episode is not None and episode.turns else ""
    return SampleRecord(score=1.0 if episode is not None and episode.won else 0.0, response=response,
                        extracted=extract_boxed(response) if response else None, details=details)
