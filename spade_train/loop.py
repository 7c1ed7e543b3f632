"""One iteration of SPADE self-play, independent of any training engine.

The data flows one way, as in the paper: a document and the memory feed the designer; its code goes
through the SDK's checker in the sandbox; a separate call writes a hint; the agent plays each valid
environment K times with the hint and K times without; regret becomes the designer's reward; the
memory records everything. The result is a list of samples with rewards. Training them is the
backend's job (the embedded CPU trainer, or OpenRLHF), which is why nothing here imports torch.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from spade_envs.checks.batch import ValidationPool
from spade_envs.checks.validate import ValidatorConfig, combine_reports, validate_source
from spade_envs.fuzz.runner import FuzzConfig
from spade_envs.runtime.backend import ExecutionBackend
from spade_envs.runtime.errors import EnvRuntimeError
from spade_envs.runtime.limits import ExecutionLimits
from spade_envs.runtime.pool import SessionPool
from spade_envs.spec.models import EnvKind, EnvSpec, Provenance, ValidationReport, env_id_for
from spade_train.corpus import Corpus
from spade_train.designer.language import DesignLanguage, PythonDesignLanguage
from spade_train.designer.prompts import DesignerPrompt, repair_messages
from spade_train.designer.skills import DEFAULT_GAME_SKILLS
from spade_train.hints import HintResult, write_hint
from spade_train.memory import EnvironmentMemory
from spade_train.policies.base import Generation, GenerationRequest, Message, Policy, SamplingParams
from spade_train.rewards import (
    DesignerRewardConfig,
    EnvOutcome,
    WinRateEMA,
    bootstrap_regret_ci,
    regret,
    score_designer_batch,
)
from spade_train.rollout import EnvEvaluation, RolloutConfig, evaluate_environment


@dataclass(frozen=True)
class LoopConfig:
    """Everything one iteration needs; defaults follow the reference where it has one."""

    envs_per_iteration: int = 24
    kinds: tuple[EnvKind, ...] = ("multi_turn_game",)
    skills: tuple[str, ...] = DEFAULT_GAME_SKILLS
    max_turns: int = 25
    designer_sampling: SamplingParams = field(
        default_factory=lambda: SamplingParams(temperature=0.6, max_tokens=16384))
    repair_turns: int = 0
    """Extra designer turns fed with the checker's feedback; only the first turn is trained on."""
    validation: ValidatorConfig = field(default_factory=lambda: ValidatorConfig(fuzz=FuzzConfig(examples=50)))
    rollout: RolloutConfig = field(default_factory=RolloutConfig)
    rewards: DesignerRewardConfig = field(default_factory=lambda: DesignerRewardConfig(variant="blend"))
    use_corpus: bool = True
    """False is the paper's no-corpus ablation."""
    use_memory: bool = True
    """False is the paper's no-memory ablation."""
    duplicate_threshold: float | None = 0.9
    """Reject an environment this similar to one in memory (counters collapse); None disables it."""
    hint_seeds: int = 3
    """Seeds whose solutions the hint is checked against for leaks."""
    concurrent_designs: int = 4
    validation_workers: int = 0
    """Worker processes for validation (0: validate in a thread of this process). Validation is most of
    an iteration's non-model work and runs under the GIL, so processes are what let it use more cores."""
    reject_repeats: bool = True
    """Reject a design whose code an earlier attempt of the same iteration already wrote: only the first
    copy is validated and played, later copies earn nothing. A designer collapsing onto one environment
    then pays for every repeat, which keeps its batch diverse."""
    fuzz_beside_play: bool = True
    """Run the fuzz tier while the environment is hinted and played, not before: the tier is most of the
    checker's time, and beside play it hides behind the model's generations instead of holding them up.
    An environment that then fails it is discarded after play (no rollouts kept, the designer's reward
    is an invalid one's) and gets no repair turn; the verdict is the same as with the tier run first."""
    reuse_verdicts: bool = True
    """Reuse the checker's report for code it has already judged in this process. The checker is
    deterministic (fixed seeds), so a repeated design needs no second validation; designers repeat
    themselves, the compact embedded language especially."""
    seed: int = 0


VERDICT_CACHE_SIZE = 4096


@dataclass
class DesignAttempt:
    """One designer sample and what became of it."""

    kind: EnvKind
    skill: str
    prompt: list[Message]
    generation: Generation
    """The first-turn generation: the designer is trained on this one only, as in the paper."""
    code: str | None = None
    report: ValidationReport | None = None
    repairs: int = 0
    spec: EnvSpec | None = None
    hint: HintResult | None = None
    evaluation: EnvEvaluation | None = None
    outcome: EnvOutcome | None = None
    regret: float | None = None
    regret_ci: tuple[float, float] | None = None
    rejection: str | None = None
    repeat: bool = False
    """The same code as an earlier attempt of this iteration (``LoopConfig.reject_repeats``)."""
    reward: float | None = None
    raw_reward: float = 0.0

    @property
    def valid(self) -> bool:
        return self.spec is not None and self.rejection is None


@dataclass
class IterationResult:
    step: int
    attempts: list[DesignAttempt]
    seconds: float
    metrics: dict[str, float] = field(default_factory=dict)


class SelfPlayLoop:
    """Runs iterations; holds the state that lives across them (memory, per-skill EMAs, rngs)."""

    def __init__(
        self,
        *,
        designer: Policy,
        agent: Policy,
        hinter: Policy | None,
        backend: ExecutionBackend,
        memory: EnvironmentMemory,
        corpus: Corpus | None,
        config: LoopConfig,
        pool: SessionPool | None = None,
        language: DesignLanguage | None = None,
    ) -> None:
        self.designer, self.agent, self.hinter = designer, agent, hinter or designer
        self.language = language or PythonDesignLanguage()
        self.backend, self.memory, self.corpus, self.config = backend, memory, corpus, config
        self.pool = pool or SessionPool(backend)
        self.validation_pool = (
            ValidationPool(backend.name, getattr(backend, "limits", ExecutionLimits()), config.validation,
                           config.validation_workers)
            if config.validation_workers > 0 else None
        )
        self.rng = random.Random(config.seed)
        self.emas: dict[str, WinRateEMA] = {}
        self._slot = 0
        self._verdicts: OrderedDict[str, ValidationReport] = OrderedDict()
        self._written_this_iteration: set[str] = set()

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
        started = time.perf_counter()
        semaphore = asyncio.Semaphore(self.config.concurrent_designs)
        plans = [self._plan() for _ in range(self.config.envs_per_iteration)]

        async def attempt(kind: EnvKind, skill: str, prompt: DesignerPrompt) -> DesignAttempt:
            async with semaphore:
                return await self._design(step, kind, skill, prompt)

        self._written_this_iteration: set[str] = set()
        attempts = list(await asyncio.gather(*(attempt(*plan) for plan in plans)))
        self._score(attempts)
        self._remember(step, attempts)
        return IterationResult(step, attempts, time.perf_counter() - started, self._metrics(attempts))

    def _plan(self) -> tuple[EnvKind, str, DesignerPrompt]:
        """Pick kind, skill, document and memory examples for the next designer call."""
        kind = self.config.kinds[self._slot % len(self.config.kinds)]
        skill = self.config.skills[(self._slot // len(self.config.kinds)) % len(self.config.skills)]
        self._slot += 1
        document = None
        if self.corpus is not None and (self.config.use_corpus or kind == "corpus_grounded"):
            document = self.corpus.sample_for(kind)
        examples: Sequence[Any] = ()
        if self.config.use_memory:
            examples = self.memory.prompt_examples([skill], self.rng)
        prompt = DesignerPrompt(kind=kind, skill=skill, max_turns=self.config.max_turns, document=document,
                                examples=tuple(examples))
        return kind, skill, prompt

    async def _design(self, step: int, kind: EnvKind, skill: str, prompt: DesignerPrompt) -> DesignAttempt:
        request = self.language.request(prompt, self.config.designer_sampling)
        first = await self.designer.generate(request)
        attempt = DesignAttempt(kind=kind, skill=skill, prompt=request.messages, generation=first)
        if not first.ok:
            attempt.rejection = f"designer call failed: {first.error}"
            return attempt
        messages, response = request.messages, first.text
        for turn in range(self.config.repair_turns + 1):
            parsed = self.language.read(response)
            attempt.code = parsed.code
            if turn == 0 and parsed.code is not None and self._is_repeat(parsed.code):
                attempt.repeat = True
                attempt.rejection = "repeat of a design written earlier in this iteration"
                return attempt
            if parsed.code is None:
                feedback = f"No environment code found: {parsed.reason}. Reply with one ```python block."
            else:
                attempt.report = await self._validate(parsed.code, self._tiers_before_play())
                if attempt.report.ok:
                    break
                feedback = list(attempt.report.failures)
            if turn == self.config.repair_turns:
                attempt.rejection = "invalid environment" if parsed.code else f"unparseable: {parsed.reason}"
                return attempt
            messages = repair_messages(messages, response, feedback)
            repair = await self.designer.generate(GenerationRequest(messages=messages,
                                                                    sampling=self.config.designer_sampling,
                                                                    role="designer"))
            attempt.repairs += 1
            if not repair.ok:
                attempt.rejection = f"repair call failed: {repair.error}"
                return attempt
            response = repair.text
        assert attempt.code is not None and attempt.report is not None
        attempt.spec = self._spec(step, attempt, prompt)
        duplicate = self._duplicate_of(attempt.code)
        if duplicate:
            attempt.rejection = f"near-duplicate of {duplicate}"
            return attempt
        if self._tiers_before_play() is None:
            await self._hint_and_play(attempt)
            return attempt
        fuzz = asyncio.create_task(self._validate(attempt.code, ("static", "fuzz")))
        await self._hint_and_play(attempt)
        attempt.report = combine_reports(attempt.report, await fuzz)
        if not attempt.report.ok:
            attempt.rejection = "invalid environment (fuzz tier, run beside play)"
            attempt.evaluation, attempt.regret, attempt.regret_ci = None, None, None
        return attempt

    def _tiers_before_play(self) -> tuple[str, ...] | None:
        """The tiers to pass before an environment is played; None: all of them (nothing runs beside)."""
        tiers = self.config.validation.tiers
        if not self.config.fuzz_beside_play or "fuzz" not in tiers:
            return None
        return tuple(tier for tier in tiers if tier != "fuzz")

    def _is_repeat(self, code: str) -> bool:
        if not self.config.reject_repeats:
            return False
        key = env_id_for(code)
        seen = key in self._written_this_iteration
        self._written_this_iteration.add(key)
        return seen

    async def _validate(self, code: str, tiers: tuple[str, ...] | None = None) -> ValidationReport:
        """The checker's verdict on ``code`` for ``tiers`` (None: the configured ones), in a worker."""
        key = env_id_for(code) + ("" if tiers is None else "/" + ",".join(tiers))
        cached = self._verdicts.get(key) if self.config.reuse_verdicts else None
        if cached is not None:
            self._verdicts.move_to_end(key)
            return cached
        if self.validation_pool is not None:
            report = await self.validation_pool.validate(code, tiers=tiers)
        else:
            config = self.config.validation if tiers is None else replace(self.config.validation, tiers=tiers)
            report = await asyncio.to_thread(validate_source, code, self.backend, config=config)
        if self.config.reuse_verdicts:
            self._verdicts[key] = report
            while len(self._verdicts) > VERDICT_CACHE_SIZE:
                self._verdicts.popitem(last=False)
        return report

    def close(self) -> None:
        """Stop the worker threads and processes this loop started."""
        self.pool.close()
        if self.validation_pool is not None:
            self.validation_pool.close()

    def _spec(self, step: int, attempt: DesignAttempt, prompt: DesignerPrompt) -> EnvSpec:
        report = attempt.report
        assert attempt.code is not None and report is not None and report.class_name is not None
        return EnvSpec(
            id=env_id_for(attempt.code),
            class_name=report.class_name,
            kind="tool_use" if report.tool_use else attempt.kind,
            skill=attempt.skill,
            max_turns=self.config.max_turns,
            grounding=prompt.grounding(self.corpus.name if self.corpus is not None else None),
            provenance=Provenance(author=getattr(self.designer, "name", "designer"), step=step),
        )

    def _duplicate_of(self, code: str) -> str | None:
        if self.config.duplicate_threshold is None:
            return None
        matches = self.memory.find_near_duplicates(code, self.config.duplicate_threshold)
        return matches[0].env_id if matches else None

    async def _hint_and_play(self, attempt: DesignAttempt) -> None:
        code, spec = attempt.code, attempt.spec
        assert code is not None and spec is not None
        try:
            first_observation, solutions = await self.pool.run_async(self._observe, code, spec.class_name)
        except EnvRuntimeError as error:
            attempt.rejection = f"could not be opened for play: {error}"
            return
        attempt.hint = await write_hint(self.hinter, code, first_observation, solutions=solutions,
                                        tool_use=spec.kind == "tool_use")
        evaluation = await evaluate_environment(
            self.agent, self.backend, self.pool, code, hint=attempt.hint.usable_hint, config=self.config.rollout,
            class_name=spec.class_name, rng=random.Random(self.rng.randrange(2**31)))
        attempt.evaluation = evaluation
        hinted, unhinted = evaluation.returns(True), evaluation.returns(False)
        attempt.regret = regret(hinted, unhinted)
        attempt.regret_ci = bootstrap_regret_ci(hinted, unhinted) if hinted and unhinted else None

    def _observe(self, code: str, class_name: str) -> tuple[str, list[Any]]:
        """The first observation (what the hinter sees) and solutions for some seeds (the leak check)."""
        with self.backend.open_session(code, class_name=class_name) as session:
            solutions = []
            for seed in range(1, self.config.hint_seeds + 1):
                session.reset(seed)
                solutions.append(session.solution())
            first = session.reset(0).observation
            solutions.insert(0, session.solution())
        return first, solutions

    # ------------------------------------------------------------------ rewards and memory
    def _score(self, attempts: list[DesignAttempt]) -> None:
        for attempt in attempts:
            evaluation = attempt.evaluation
            attempt.outcome = EnvOutcome(
                valid=attempt.valid and evaluation is not None,
                timed_out=evaluation.timed_out if evaluation is not None else False,
                hinted_returns=evaluation.returns(True) if evaluation is not None else (),
                unhinted_returns=evaluation.returns(False) if evaluation is not None else (),
                skill=attempt.skill,
                malformed=attempt.generation.ok and attempt.code is None,
                repeat=attempt.repeat,
            )
        batch = score_designer_batch([a.outcome for a in attempts if a.outcome is not None], self.config.rewards,
                                     self.emas)
        self.emas = dict(batch.emas)
        for attempt, reward, raw in zip(attempts, batch.rewards, batch.raw):
            attempt.reward, attempt.raw_reward = reward, raw

    def _remember(self, step: int, attempts: list[DesignAttempt]) -> None:
        with self.memory.batch():
            for attempt in attempts:
                if attempt.spec is None or attempt.code is None:
                    continue
                failing = attempt.report.failures if attempt.report is not None else []
                self.memory.add_environment(attempt.spec, attempt.code, iteration=step,
                                            valid=attempt.valid, failing_checks=failing)
                evaluation = attempt.evaluation
                if evaluation is None or attempt.regret is None:
                    continue
                self.memory.record_evaluation(
                    attempt.spec.id, step=step, unhinted_win_rate=evaluation.win_rate(False),
                    hinted_win_rate=evaluation.win_rate(True) if evaluation.hinted else None,
                    regret=attempt.regret, plays=len(evaluation.hinted) + len(evaluation.unhinted),
                    regret_ci=attempt.regret_ci)

    @staticmethod
    def _metrics(attempts: list[DesignAttempt]) -> dict[str, float]:
        played = [a for a in attempts if a.evaluation is not None]
        episodes = [e for a in played for e in a.evaluation.hinted + a.evaluation.unhinted]  # type: ignore[union-attr]

        def mean(values: Sequence[float]) -> float:
            return sum(values) / len(values) if values else 0.0

        return {
            "designs": float(len(attempts)),
            # Over distinct designs: a repeat says nothing new about validity (it has its own rate).
            "valid_rate": mean([float(a.valid) for a in attempts if not a.repeat]),
            "repeat_rate": mean([float(a.repeat) for a in attempts]),
            "played": float(len(played)),
            "regret_mean": mean([a.regret for a in played if a.regret is not None]),
            "win_rate_hinted": mean([a.evaluation.win_rate(True) for a in played if a.evaluation.hinted]),  # type: ignore[union-attr]
            "win_rate_unhinted": mean([a.evaluation.win_rate(False) for a in played]),  # type: ignore[union-attr]
            "return_unhinted": mean([r for a in played for r in a.evaluation.returns(False)]),  # type: ignore[union-attr]
            "hint_accepted_rate": mean([float(a.hint.accepted) for a in played if a.hint is not None]),
            "episode_errors": float(sum(e.error is not None for e in episodes)),
            "timeouts": float(sum(a.outcome.timed_out for a in attempts if a.outcome is not None)),
            "designer_reward_raw_mean": mean([a.raw_reward for a in attempts]),
        }


def _rng_state_to_json(state: tuple[Any, ...]) -> list[Any]:
    version, internal, gauss = state
    return [version, list(internal), gauss]


def _rng_state_from_json(state: list[Any]) -> tuple[Any, ...]:
    version, internal, gauss = state
    return (version, tuple(internal), gauss)
