"""The agent executor: turns a role-tagged row into one trained sample, by running the self-play loop.

OpenRLHF awaits ``execute`` ``n_samples_per_prompt`` times per row, concurrently, inside a rollout
engine, and trains on the returned token sequence. Two kinds of row (``labels.RowLabel``):

- **designer**: one design attempt of ``spade_train.loop.SelfPlayLoop`` with a batch of one: the
  designer writes an environment (this generation is the trained sample), the checker judges it in the
  sandbox, the model writes a hint, the agent plays K episodes with and K without it (nested, untrained
  generations through the same engine), and the loop's designer reward (``raw_reward``, uncentered:
  OpenRLHF's ``group_norm`` compares the row's designs, which share skill, document and examples) is
  the sample's reward. The attempt runs in a worker thread with its own event loop, because the loop
  talks to its memory synchronously and the memory is the shared pool actor; engine calls are handed
  back to the engine's loop (``EnginePolicy``).
- **agent**: one episode of an environment leased from the pool, played by ``rollout.play_episode``
  through a ``TrajectoryRecorder``; the episode return is the reward.

Every response has the same ``extra_logs`` keys (OpenRLHF batches the two roles together and needs
equal keys), numbers only; a role's own figures are 0 on the other role's samples, so divide a mean by
the mean of ``spade/designer`` (or ``spade/agent``) to read it per role. ``scores`` feed dynamic
filtering: a sample's reward clipped to [0, 1], so groups that all win, all lose or wrote nothing
usable are dropped; -1 for designer samples that must not be trained yet (designer delay, or the
no-designer-training ablation), which drops their group.

A sample with no model tokens (the environment failed before the first turn, the prompt did not fit)
still has to be a valid training sample: it is a one-token placeholder reply (end of sequence) with the
reward it earned, which in practice lands in a group that dynamic filtering drops.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any

from spade_envs.runtime.backend import ExecutionBackend, create_backend
from spade_envs.runtime.errors import EnvRuntimeError
from spade_envs.runtime.limits import ExecutionLimits
from spade_envs.runtime.pool import SessionPool
from spade_train.backends.openrlhf.engine_policy import EnginePolicy, TrajectoryRecorder
from spade_train.backends.openrlhf.labels import RowLabel
from spade_train.backends.openrlhf.pool import DesignPlan, DesignReport, Lease, MemoryWrite, PoolClient
from spade_train.corpus import Corpus
from spade_train.loop import DesignAttempt, LoopConfig, SelfPlayLoop
from spade_train.memory import MemoryExample, NearDuplicate
from spade_train.rollout import Episode, RolloutConfig, play_episode
from spade_train.run_config import RunConfig, loop_config, parse_run_config

UNTRAINED_SCORE = -1.0
"""Score of a designer sample that must not be trained: outside any dynamic-filtering range."""

LOG_KEYS = (
    "spade/designer", "spade/design_trained", "spade/design_valid", "spade/design_played", "spade/design_regret",
    "spade/design_win_rate", "spade/design_win_rate_hinted", "spade/design_hint_accepted",
    "spade/design_repairs", "spade/agent", "spade/episode_return", "spade/episode_won", "spade/episode_turns",
    "spade/episode_hinted", "spade/episode_env_error", "spade/pool_size",
)


# ---------------------------------------------------------------------------------- configuration
def rollout_config(config: RunConfig) -> RolloutConfig:
    """Agent episodes, trained or nested: the same as the loop's (``run_config.loop_config``)."""
    return loop_config(config).rollout


def design_loop_config(config: RunConfig, *, kind: str, skill: str, seed: int) -> LoopConfig:
    """The loop of one design attempt: one environment, of the row's kind and skill. Repeats and verdict
    reuse span a batch of attempts in one loop, and here each attempt is a loop of its own."""
    return replace(loop_config(config), envs_per_iteration=1, kinds=(kind,), skills=(skill,),  # type: ignore[arg-type]
                   reject_repeats=False, reuse_verdicts=False, concurrent_designs=1, validation_workers=0,
                   seed=seed)


# ---------------------------------------------------------------------------------- samples
@dataclass
class TrainedSample:
    """One response in OpenRLHF's shape (see ``response``)."""

    tokens: list[int]
    action_ranges: list[tuple[int, int]]
    logprobs: list[float]
    reward: float
    score: float
    truncated: bool = False
    logs: dict[str, float] = field(default_factory=dict)

    def response(self, prompt: str, label: str) -> dict[str, Any]:
        extra = {key: float(self.logs.get(key, 0.0)) for key in LOG_KEYS}
        return {"prompt": prompt, "label": label, "images": None, "mm_train_inputs": None,
                "observation_tokens": list(self.tokens), "action_ranges": list(self.action_ranges),
                "rollout_log_probs": list(self.logprobs), "reward": float(self.reward), "scores": float(self.score),
                "truncated": bool(self.truncated), "extra_logs": extra}


def placeholder_sample(tokenizer: Any, note: str, *, reward: float, score: float,
                       logs: dict[str, float]) -> TrainedSample:
    """A sample whose only action is the end-of-sequence token (see the module docstring)."""
    tokens = list(tokenizer(f"[spade: {note}]", add_special_tokens=False)["input_ids"])[:64]
    eos = tokenizer.eos_token_id if tokenizer.eos_token_id is not None else 0
    tokens.append(int(eos))
    return TrainedSample(tokens=tokens, action_ranges=[(len(tokens) - 1, len(tokens))], logprobs=[0.0] * len(tokens),
                         reward=reward, score=score, logs=logs)


def _clip01(value: float) -> float:
    return max(0.0, min(1.0, value))


# ---------------------------------------------------------------------------------- the loop's memory
class PlannedMemory:
    """What ``SelfPlayLoop`` uses as its memory during one attempt.

    Reads come from the row's plan (the examples) and from the pool (near-duplicates); writes are kept
    and sent to the pool with the attempt's report, where they reach the real memory in one batch.
    """

    def __init__(self, examples: tuple[MemoryExample, ...], client: PoolClient) -> None:
        self.examples, self.client = examples, client
        self.writes: list[MemoryWrite] = []

    def prompt_examples(self, skills: Any, rng: Any, **_: Any) -> list[MemoryExample]:
        return list(self.examples)

    def find_near_duplicates(self, code: str, threshold: float = 0.9, **_: Any) -> list[NearDuplicate]:
        return self.client.near_duplicates(code, threshold)

    @contextmanager
    def batch(self) -> Iterator[None]:
        yield

    def add_environment(self, spec: Any, code: str, **kwargs: Any) -> bool:
        self.writes.append(("add_environment", (spec, code), kwargs))
        return True

    def record_evaluation(self, env_id: str, **kwargs: Any) -> None:
        self.writes.append(("record_evaluation", (env_id,), kwargs))


# ---------------------------------------------------------------------------------- the executor
@dataclass
class _Run:
    """What an executor keeps per run (per pool actor): configuration, sandbox, worker threads."""

    config: RunConfig
    client: PoolClient
    backend: ExecutionBackend
    sessions: SessionPool
    designs: ThreadPoolExecutor
    rollout: RolloutConfig

    def close(self) -> None:
        self.designs.shutdown(wait=False, cancel_futures=True)
        self.sessions.close()


def connect_ray(label: RowLabel) -> PoolClient:
    from spade_train.backends.openrlhf.ray_pool import RayPoolClient

    return RayPoolClient.connect(label.pool, label.namespace)


class SpadeAgentExecutor:
    """OpenRLHF's agent executor for SPADE rows (``agent_executor.AgentExecutor`` adds OpenRLHF's base class).

    ``connect`` maps a row label to its pool client; the default finds the run's Ray named actor. The
    run's configuration comes from the pool, so the executor needs no arguments (OpenRLHF builds it with
    none) and no shared file system.
    """

    def __init__(self, connect: Callable[[RowLabel], PoolClient] | None = None) -> None:
        self._connect = connect or connect_ray
        self._runs: dict[tuple[str, str], _Run] = {}
        self._lock = threading.Lock()

    async def execute(self, prompt: str, label: str, sampling_params: Any, max_length: int, hf_tokenizer: Any,
                      llm_engine: Any, images: Any = None) -> dict[str, Any]:
        row = RowLabel.parse(label)
        run = await self._run_for(row)
        policy = EnginePolicy(llm_engine, hf_tokenizer, sampling_params, max_length=max_length,
                              engine_loop=asyncio.get_running_loop())
        if row.role == "designer":
            sample = await self._design(run, row, policy)
        else:
            sample = await self._play(run, row, policy)
        return sample.response(prompt, label)

    async def _run_for(self, row: RowLabel) -> _Run:
        key = (row.pool, row.namespace)
        with self._lock:
            run = self._runs.get(key)
        if run is not None:
            return run
        client = self._connect(row)
        config = parse_run_config(await client.settings(), source=f"the settings of pool {row.pool}")
        with self._lock:
            if key not in self._runs:
                backend = create_backend(config.run.sandbox, ExecutionLimits())
                self._runs[key] = _Run(
                    config=config, client=client, backend=backend,
                    sessions=SessionPool(backend, workers=config.openrlhf.env_workers),
                    designs=ThreadPoolExecutor(max_workers=max(8, 4 * config.openrlhf.n_samples_per_prompt),
                                               thread_name_prefix="spade-design"),
                    rollout=rollout_config(config))
            return self._runs[key]

    def close(self) -> None:
        """Stop the worker threads (OpenRLHF never calls this; tests and tools do)."""
        with self._lock:
            runs, self._runs = list(self._runs.values()), {}
        for run in runs:
            run.close()

    # -------------------------------------------------------------- designer rows
    async def _design(self, run: _Run, row: RowLabel, policy: EnginePolicy) -> TrainedSample:
        assert row.skill is not None and row.kind is not None
        plan = await run.client.plan_design(row.row, row.samples, row.skill, row.kind)
        attempt, writes = await asyncio.get_running_loop().run_in_executor(
            run.designs, lambda: asyncio.run(self._attempt(run, row, plan, policy)))
        report = design_report(row, plan, attempt, writes)
        await run.client.record_design(report)
        return designer_sample(attempt, plan, report, policy.tokenizer)

    async def _attempt(self, run: _Run, row: RowLabel, plan: DesignPlan,
                       policy: EnginePolicy) -> tuple[DesignAttempt, tuple[MemoryWrite, ...]]:
        assert row.skill is not None and row.kind is not None
        memory = PlannedMemory(plan.examples, run.client)
        corpus = (Corpus([plan.document], name=plan.corpus_name or "corpus", seed=plan.seed)
                  if plan.document is not None else None)
        loop = SelfPlayLoop(designer=policy, agent=policy, hinter=policy, backend=run.backend,
                            memory=memory, corpus=corpus,  # type: ignore[arg-type]
                            config=design_loop_config(run.config, kind=row.kind, skill=row.skill, seed=plan.seed),
                            pool=run.sessions)
        if plan.ema is not None:
            loop.emas = {row.skill: plan.ema}
        result = await loop.run_iteration(plan.step)
        return result.attempts[0], tuple(memory.writes)

    # -------------------------------------------------------------- agent rows
    async def _play(self, run: _Run, row: RowLabel, policy: EnginePolicy) -> TrainedSample:
        lease = await run.client.lease(row.row, row.samples, row.hinted)
        recorder = TrajectoryRecorder(policy)
        hint = lease.hint if row.hinted else None
        episode = await self._episode(run, lease, recorder, hint)
        env_error = episode.error is not None and episode.error.startswith("environment")
        await run.client.report_episode(lease.env_id, episode.episode_return, episode.won, env_error)
        logs = {"spade/agent": 1.0, "spade/episode_return": episode.episode_return,
                "spade/episode_won": float(episode.won), "spade/episode_turns": float(len(episode.turns)),
                "spade/episode_hinted": float(hint is not None), "spade/episode_env_error": float(env_error),
                "spade/pool_size": float(lease.pool_size)}
        score = _clip01(episode.episode_return)
        if not recorder.action_ranges:
            return placeholder_sample(policy.tokenizer, f"no turn played: {episode.error}",
                                      reward=episode.episode_return, score=score, logs=logs)
        return TrainedSample(tokens=recorder.tokens, action_ranges=recorder.action_ranges,
                             logprobs=recorder.logprobs, reward=episode.episode_return, score=score,
                             truncated=recorder.truncated, logs=logs)

    @staticmethod
    async def _episode(run: _Run, lease: Lease, recorder: TrajectoryRecorder, hint: str | None) -> Episode:
        try:
            session = await run.sessions.run_async(
                lambda: run.backend.open_session(lease.code, class_name=lease.class_name,
                                                 max_turns=run.rollout.max_turns))
        except EnvRuntimeError as error:
            return Episode(seed=lease.seed, hinted=hint is not None, messages=[], error=f"environment: {error}")
        try:
            return await play_episode(recorder, session, run.sessions, seed=lease.seed, hint=hint, config=run.rollout)
        finally:
            await run.sessions.run_async(session.close)


# ---------------------------------------------------------------------------------- designer results
def design_report(row: RowLabel, plan: DesignPlan, attempt: DesignAttempt,
                  writes: tuple[MemoryWrite, ...]) -> DesignReport:
    evaluation, spec = attempt.evaluation, attempt.spec
    played = attempt.valid and evaluation is not None and attempt.regret is not None
    return DesignReport(
        row=row.row, step=plan.step, kind=spec.kind if spec else str(row.kind), skill=attempt.skill,
        memory_writes=writes, valid=attempt.valid, played=played,
        env_id=spec.id if spec else None, class_name=spec.class_name if spec else None,
        code=attempt.code if attempt.valid else None, max_turns=spec.max_turns if spec else 10,
        hint=attempt.hint.usable_hint if attempt.hint else None,
        hint_accepted=attempt.hint.accepted if attempt.hint else None,
        regret=attempt.regret, regret_ci=attempt.regret_ci,
        win_rate_unhinted=evaluation.win_rate(False) if evaluation else None,
        win_rate_hinted=evaluation.win_rate(True) if evaluation and evaluation.hinted else None,
        unhinted_returns=evaluation.returns(False) if evaluation else (),
        raw_reward=float(attempt.raw_reward), rejection=attempt.rejection, repairs=attempt.repairs,
        failures=tuple(f.check for f in attempt.report.failures) if attempt.report else (),
    )


def designer_sample(attempt: DesignAttempt, plan: DesignPlan, report: DesignReport, tokenizer: Any) -> TrainedSample:
    """The trained sample of a designer row: the first-turn reply, rewarded with the loop's raw reward."""
    reward = float(attempt.raw_reward)
    score = _clip01(reward) if plan.train else UNTRAINED_SCORE
    logs = {"spade/designer": 1.0, "spade/design_trained": float(plan.train), "spade/design_valid": float(report.valid),
            "spade/design_played": float(report.played), "spade/design_regret": report.regret or 0.0,
            "spade/design_win_rate": report.win_rate_unhinted or 0.0,
            "spade/design_win_rate_hinted": report.win_rate_hinted or 0.0,
            "spade/design_hint_accepted": float(bool(report.hint_accepted)),
            "spade/design_repairs": float(report.repairs)}
    generation = attempt.generation
    prompt, reply = generation.prompt_token_ids, generation.completion_token_ids
    if not (generation.ok and prompt and reply):
        return placeholder_sample(tokenizer, f"designer call failed: {generation.error}", reward=reward, score=score,
                                  logs=logs)
    logprobs = list(generation.completion_logprobs or [0.0] * len(reply))
    tokens = list(prompt) + list(reply)
    return TrainedSample(tokens=tokens, action_ranges=[(len(prompt), len(tokens))],
                         logprobs=[0.0] * len(prompt) + logprobs, reward=reward, score=score,
                         truncated=generation.finish_reason == "length", logs=logs)
