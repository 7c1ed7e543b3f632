"""One iteration of SPADE self-play, independent of any training engine: ``SelfPlayLoop.run_iteration``.

The data flows one way, as in the paper. The loop plans ``loop.envs_per_iteration`` design attempts
(kind, skill, a corpus document, memory examples), asks the designer for all of them, then runs them
concurrently (``attempt_design``: checker, hint, paired rollouts, regret), scores them as a batch (the designer's reward is centred per
skill), records them in the memory and returns them with the iteration's metrics. Training on the result
is the trainer's job (``spade_train.run.driver.Trainer``), which is why nothing here imports torch.

The loop holds what lives across iterations: the memory, the per-skill win-rate EMAs of the
learning-potential reward, the planning slot and random generator (``state_dict`` resumes them), and
the checker's worker processes and verdicts.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from spade_envs.runtime.backend import ExecutionBackend
from spade_envs.runtime.threads import SessionThreads
from spade_envs.spec.models import EnvKind, env_id_for
from spade_train.config.sections import RunConfig
from spade_train.corpus import Corpus
from spade_train.designer.language import design_language
from spade_train.designer.prompts import DesignerPrompt
from spade_train.loop.checker import Checker
from spade_train.loop.design import (
    DesignAttempt,
    DesignContext,
    DesignPlan,
    Outcome,
    design_slot,
    designer_request,
    read_reply,
)
from spade_train.loop.metrics import Metrics, iteration_metrics
from spade_train.loop.self_judge import SELF as SELF_JUDGE
from spade_train.loop.self_judge import PolicyJudge
from spade_train.loop.summary import AttemptSummary, DesignerScore, remember
from spade_train.memory import EnvironmentMemory, NearDuplicate
from spade_train.policies.base import Generation
from spade_train.policies.roles import Policies
from spade_train.rewards import WinRateEMA, score_designer_batch


@dataclass(frozen=True)
class IterationResult:
    """One iteration's attempts, their designer scores (aligned with them) and metrics."""

    step: int
    attempts: tuple[DesignAttempt, ...]
    scores: tuple[DesignerScore, ...]
    seconds: float
    metrics: Metrics = field(default_factory=dict)
    """The iteration's row of ``metrics.jsonl`` (``spade_train.loop.metrics``; None where a mean is over nothing)."""

    def scored(self) -> Iterator[tuple[DesignAttempt, DesignerScore]]:
        return zip(self.attempts, self.scores)

    def summaries(self) -> list[AttemptSummary]:
        return [AttemptSummary.of(attempt, score) for attempt, score in self.scored()]

    def model_failure(self) -> str | None:
        """Why no model call of this iteration did anything, or None when some did: every designer call
        failed, or every episode played ended on the agent's failed call."""
        failed = [a for a in self.attempts if a.outcome is Outcome.DESIGNER_FAILED]
        if self.attempts and len(failed) == len(self.attempts):
            return f"all {len(failed)} designer calls failed; the first: {failed[0].detail}"
        episodes = [e for a in self.attempts if a.evaluation is not None for e in a.evaluation.episodes()]
        agent_errors = [e.error for e in episodes if e.error and e.error.startswith("policy:")]
        if episodes and len(agent_errors) == len(episodes):
            return f"all {len(episodes)} episodes ended on a failed agent call; the first: {agent_errors[0]}"
        return None


class _MemoryDuplicates:
    """The run's memory as a ``DuplicateFinder``."""

    def __init__(self, memory: EnvironmentMemory) -> None:
        self.memory = memory

    async def near_duplicates(self, code: str, threshold: float) -> Sequence[NearDuplicate]:
        return self.memory.find_near_duplicates(code, threshold)


class SelfPlayLoop:
    """Runs iterations; holds the state that lives across them (see the module docstring)."""

    def __init__(self, config: RunConfig, policies: Policies, *, backend: ExecutionBackend,
                 memory: EnvironmentMemory, corpus: Corpus | None = None, sessions: SessionThreads | None = None,
                 checker: Checker | None = None) -> None:
        """``checker``: the loop's own by default, whose seeds are drawn per environment from its code and
        the run's seed (``LoopSection.validator``), so no design can know the seeds it is checked on."""
        loop = config.loop
        self.config, self.policies, self.backend, self.memory, self.corpus = config, policies, backend, memory, corpus
        self.sessions = sessions or SessionThreads(backend)
        self.checker = checker or Checker(backend, loop.validator(plan_salt=config.run.seed),
                                          workers=loop.validation_workers, reuse_verdicts=loop.reuse_verdicts,
                                          reject_warnings=loop.warnings == "rejected")
        release = config.semantics.release_prompts()
        self.context = DesignContext(
            policies=policies, language=design_language(config.design.language, config.design.prompt), backend=backend,
            sessions=self.sessions, checker=self.checker, memory=_MemoryDuplicates(memory), loop=loop,
            designer_sampling=config.sampling.designer(), rollout=config.rollout(release),
            corpus_name=corpus.name if corpus is not None else None, hint=config.hint_settings(),
            invalid_designs=config.semantics.resolved().invalid_designs, release_prompts=release,
            judge=PolicyJudge(policies.agent, max_tokens=loop.judge_max_tokens) if loop.judge == SELF_JUDGE else None)
        self.rng = random.Random(config.run.seed)
        self.emas: dict[str, WinRateEMA] = {}
        self._slot = 0

    # ------------------------------------------------------------------ state across a resume
    def state_dict(self) -> dict[str, Any]:
        """What a resumed run needs to continue this loop exactly: rng, per-skill EMAs, plan slot."""
        return {"rng": _rng_state_to_json(self.rng.getstate()), "slot": self._slot,
                "emas": {skill: asdict(ema) for skill, ema in self.emas.items()}}

    def load_state_dict(self, state: dict[str, Any]) -> None:
        self.rng.setstate(_rng_state_from_json(state["rng"]))
        self._slot = int(state["slot"])
        self.emas = {skill: WinRateEMA(**values) for skill, values in state["emas"].items()}

    # ------------------------------------------------------------------ one iteration
    async def run_iteration(self, step: int) -> IterationResult:
        """Plan the batch, ask the designer for every design, then check, hint and play them concurrently.

        The designer calls come first, all of them, so that which copy of a repeated design counts as
        the repeat follows the plan order, not the order in which concurrent calls happened to finish:
        with seeded sampling (each request carries its own seed) the same config and seed then give
        the same iteration."""
        started = time.perf_counter()
        plans = [self._plan(step) for _ in range(self.config.loop.envs_per_iteration)]
        slots = asyncio.Semaphore(self.config.loop.concurrent_designs)

        async def ask(plan: DesignPlan) -> Generation:
            async with slots:
                return await self.policies.designer.generate(designer_request(plan, self.context))

        replies = await asyncio.gather(*(ask(plan) for plan in plans))
        earlier: set[str] = set()
        repeats: list[bool] = []
        for reply in replies:
            code = (await read_reply(self.context.language, reply.text)).code if reply.ok else None
            key = env_id_for(code) if code is not None else None
            repeats.append(self.config.loop.reject_repeats and key is not None and key in earlier)
            if key is not None:
                earlier.add(key)

        async def attempt(plan: DesignPlan, reply: Generation, repeat: bool) -> list[DesignAttempt]:
            async with slots:
                return await design_slot(plan, self.context, lambda old: self._plan_for(step, old.kind, old.skill),
                                         first=reply, is_repeat=lambda _: repeat)

        per_slot = await asyncio.gather(*(attempt(*args) for args in zip(plans, replies, repeats)))
        attempts = tuple(a for tries in per_slot for a in tries)
        scores = self._score(attempts)
        result = IterationResult(step, attempts, scores, time.perf_counter() - started, iteration_metrics(attempts, scores))
        remember(self.memory, result.summaries(), self.config.semantics.resolved().memory_win_rate)
        return result

    def _plan(self, step: int) -> DesignPlan:
        """Pick kind and skill for the next design slot, then its document and memory examples."""
        loop = self.config.loop
        kind: EnvKind = loop.kinds[self._slot % len(loop.kinds)]
        skill = loop.skills[(self._slot // len(loop.kinds)) % len(loop.skills)]
        self._slot += 1
        return self._plan_for(step, kind, skill)

    def _plan_for(self, step: int, kind: EnvKind, skill: str) -> DesignPlan:
        """A fresh designer call for this kind and skill: a new document, new memory examples, a new seed."""
        loop = self.config.loop
        document = None
        if self.corpus is not None and (loop.use_corpus or kind == "corpus_grounded"):
            document = self.corpus.sample_for(kind)
        semantics = self.config.semantics.resolved()
        examples = (self.memory.prompt_examples([skill], self.rng, ties=semantics.memory_ties)
                    if loop.use_memory else [])
        prompt = DesignerPrompt(kind=kind, skill=skill, max_turns=loop.max_turns, document=document,
                                examples=tuple(examples), negative_examples=semantics.negative_examples)
        return DesignPlan(kind=kind, skill=skill, prompt=prompt, step=step, seed=self.rng.randrange(2**31))

    def _score(self, attempts: Sequence[DesignAttempt]) -> tuple[DesignerScore, ...]:
        batch = score_designer_batch([a.env_outcome() for a in attempts], self.config.designer_rewards(),
                                     self.emas)
        self.emas = dict(batch.emas)
        return tuple(DesignerScore(raw=raw, reward=reward, baseline=baseline)
                     for raw, reward, baseline in zip(batch.raw, batch.rewards, batch.baselines))

    def close(self) -> None:
        """Stop the worker threads and processes this loop started."""
        self.sessions.close()
        self.checker.close()


def _rng_state_to_json(state: tuple[Any, ...]) -> list[Any]:
    version, internal, gauss = state
    return [version, list(internal), gauss]


def _rng_state_from_json(state: list[Any]) -> tuple[Any, ...]:
    version, internal, gauss = state
    return (version, tuple(internal), gauss)
