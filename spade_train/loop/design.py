"""One design attempt: a designer call and everything that becomes of it, as one awaitable function.

``attempt_design`` is the unit both trainers share: the self-play loop runs a batch of them per
iteration (``spade_train.loop.iteration``), the OpenRLHF executor one per designer sample. An attempt

1. asks the designer for an environment (``DesignPlan``: kind, skill, prompt) in the design language;
2. reads the module out of the reply; a repeat of code written earlier in the same batch stops here;
3. validates it in the sandbox (every tier but fuzz, which runs beside play) and opens it to learn
   what it is: its class, its kind (a design of another kind than was asked for is a ``kind`` finding),
   its turn budget and reward range, its first observation and solutions. With repair turns, the
   checker's findings go back to the designer;
4. rejects a near-duplicate of an environment in the memory (``DuplicateFinder``);
5. has the hint written and checks it for leaks, as text and by the hint readers in the sandbox;
6. plays K hinted and K unhinted episodes on the same seeds, measures regret, and drops the plays if
   the fuzz tier (run meanwhile) rejects the environment.

It returns a frozen ``DesignAttempt``: the ``Outcome`` and a one-line ``detail``, and everything the
later steps need (the environment record, the checker's report, the hint, the plays). Attempts are
scored in batches (``spade_train.rewards.score_designer_batch`` centres rewards per skill) and written
to the memory by the caller, from their ``AttemptSummary``.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import random
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any, Protocol

from spade_envs.checks.judge import JudgeModel
from spade_envs.checks.validate import check_hint, combine_reports
from spade_envs.runtime.backend import ExecutionBackend
from spade_envs.runtime.errors import EnvRuntimeError
from spade_envs.runtime.threads import SessionThreads
from spade_envs.spec.models import CheckFailure, EnvKind, EnvSpec, Provenance, ValidationReport, env_id_for
from spade_train.config.sections import LoopSection
from spade_train.designer.language import DesignLanguage
from spade_train.designer.parser import ParseResult
from spade_train.designer.prompts import KIND_TITLES, DesignerPrompt, repair_messages
from spade_train.environments import EnvironmentRecord, kind_of_code
from spade_train.hints import HintResult, HintSettings, write_hint
from spade_train.loop.checker import Checker
from spade_train.loop.self_judge import judge_design
from spade_train.memory import NearDuplicate
from spade_train.policies.base import Generation, GenerationRequest, Message, SamplingParams
from spade_train.policies.roles import Policies
from spade_train.release_prompts import ReleasePrompts
from spade_train.rewards import EnvOutcome, bootstrap_regret_ci, regret
from spade_train.rollout import EnvEvaluation, RolloutConfig, evaluate_environment
from spade_train.semantics import InvalidDesigns


class Outcome(str, Enum):
    """What became of a design attempt. Only ``PLAYED`` designs are valid."""

    PLAYED = "played"
    """It passed every check, got its hint and was played: the designer is paid by its plays."""
    DESIGNER_FAILED = "designer_failed"
    """A designer call (the first, or a repair turn's) failed: an endpoint error, a prompt too long."""
    MALFORMED = "malformed"
    """The reply held no environment."""
    REPEAT = "repeat"
    """The same code as an earlier attempt of the batch (``loop.reject_repeats``)."""
    INVALID = "invalid"
    """The checker rejected it (after any repair turns), or it is of another kind than asked for."""
    DUPLICATE = "duplicate"
    """Too similar to an environment in the memory (``loop.duplicate_threshold``)."""
    UNPLAYABLE = "unplayable"
    """It passed the checker but could not be opened for play."""
    ACCEPTED = "accepted"
    """It passed every check and got its hint, and was not played here (``attempt_design(play=False)``):
    agent rows play it later and its delay window scores it (``semantics.design_scoring = "window"``)."""


VALID_OUTCOMES = frozenset({Outcome.PLAYED, Outcome.ACCEPTED})
"""The outcomes of a valid design: played in its attempt, or accepted for later plays."""


@dataclass(frozen=True)
class DesignPlan:
    """What one attempt is asked for; ``seed`` draws its episodes' seeds."""

    kind: EnvKind
    skill: str
    prompt: DesignerPrompt
    step: int
    seed: int


class DuplicateFinder(Protocol):
    """The memory, as an attempt uses it: which stored environments its code resembles."""

    async def near_duplicates(self, code: str, threshold: float) -> Sequence[NearDuplicate]: ...


@dataclass(frozen=True)
class DesignContext:
    """What the attempts of a run share: the models, the sandbox, the checker and the settings."""

    policies: Policies
    language: DesignLanguage
    backend: ExecutionBackend
    sessions: SessionThreads
    checker: Checker
    memory: DuplicateFinder
    loop: LoopSection
    designer_sampling: SamplingParams
    rollout: RolloutConfig
    corpus_name: str | None = None
    hint: HintSettings = field(default_factory=HintSettings)
    """How the hint call samples and how its reply is cleaned (``RunConfig.hint_settings``)."""
    invalid_designs: InvalidDesigns = "scored"
    """``Semantics.invalid_designs``: "resampled" makes ``design_slot`` try again (see there)."""
    release_prompts: ReleasePrompts | None = None
    """The release's designer and hint prompts (``semantics.release_dir``); None: this toolkit's."""
    judge: JudgeModel | None = None
    """The run's own model as the judge of designs the checker accepted (``loop.judge = "self"``)."""


@dataclass(frozen=True)
class DesignAttempt:
    """One designer sample and what became of it (see ``Outcome``)."""

    plan: DesignPlan
    prompt: list[Message]
    generation: Generation
    """The first-turn generation: the designer is trained on this one only, as in the paper."""
    outcome: Outcome
    detail: str
    """One line saying why (the failing checks, the duplicate, the failed call) or what was played."""
    code: str | None = None
    """The last module read from the designer's replies (None: none was found)."""
    environment: EnvironmentRecord | None = None
    """Set once the code passed the checker and opened in the sandbox (its spec says what it is)."""
    report: ValidationReport | None = None
    repairs: int = 0
    hint: HintResult | None = None
    evaluation: EnvEvaluation | None = None
    """Set only for a played design."""
    regret: float | None = None
    regret_ci: tuple[float, float] | None = None

    @property
    def valid(self) -> bool:
        return self.outcome in VALID_OUTCOMES

    @property
    def kind(self) -> EnvKind:
        """The kind that was asked for (the environment's spec has the kind its code is)."""
        return self.plan.kind

    @property
    def skill(self) -> str:
        return self.plan.skill

    def env_outcome(self) -> EnvOutcome:
        """What the designer reward needs: validity, plays and their wins, the special outcomes."""
        evaluation = self.evaluation
        return EnvOutcome(
            valid=self.valid and evaluation is not None,
            timed_out=evaluation.timed_out if evaluation is not None else False,
            hinted_returns=evaluation.returns(True) if evaluation is not None else (),
            unhinted_returns=evaluation.returns(False) if evaluation is not None else (),
            unhinted_wins=tuple(e.won for e in evaluation.unhinted) if evaluation is not None else (),
            skill=self.skill, env_id=self.environment.id if self.environment is not None else "",
            malformed=self.outcome is Outcome.MALFORMED, repeat=self.outcome is Outcome.REPEAT,
            hint_failed=evaluation is not None and not evaluation.hinted,
            warnings=len(self.report.warnings) if self.report is not None else 0,
        )


@dataclass(frozen=True)
class _Observed:
    """What opening an environment shows: how the loader sees its class, and what the hinter needs."""

    class_name: str
    tool_use: bool
    max_turns: int | None
    reward_range: tuple[float, float] | None
    first_observation: str
    solutions: list[Any]
    """``solution()`` for seed 0, then for seeds 1..hint_seeds: the hint is checked against all of them."""


@dataclass(frozen=True)
class _Draft:
    """The designer's code after its turns: accepted by the checker (``observed`` set) or not."""

    code: str | None
    report: ValidationReport | None
    observed: _Observed | None
    repairs: int
    failure: tuple[Outcome, str] | None = None


def designer_request(plan: DesignPlan, context: DesignContext) -> GenerationRequest:
    """The designer's first call for ``plan``, seeded from the plan (unless the run's sampling names a
    seed): a reply depends on the plan and the model alone, not on which concurrent call came first."""
    sampling = context.designer_sampling
    if sampling.seed is None:
        sampling = replace(sampling, seed=plan.seed)
    release = context.release_prompts
    if release is not None and context.language.name == "python" and release.supports(plan.prompt.kind):
        return GenerationRequest(messages=release.designer_messages(plan.prompt), sampling=sampling, role="designer")
    return context.language.request(plan.prompt, sampling)


async def attempt_design(plan: DesignPlan, context: DesignContext, *,
                         is_repeat: Callable[[str], bool] | None = None,
                         first: Generation | None = None, play: bool = True) -> DesignAttempt:
    """Run one design attempt (see the module docstring). Model and environment failures are outcomes,
    never exceptions. ``is_repeat`` tells whether the batch already holds this code (and notes it).
    ``first``: the designer's reply to ``designer_request(plan, context)`` when the caller already
    asked for it (the self-play loop asks for a whole batch first, so that repeats are decided in plan
    order); None asks for it here. ``play=False`` stops after step 5 (the fuzz tier then runs beside the
    hint): a valid design is ``ACCEPTED`` with its hint and no plays, for a delay window to score."""
    request = designer_request(plan, context)
    if first is None:
        first = await context.policies.designer.generate(request)
    attempt = functools.partial(DesignAttempt, plan=plan, prompt=request.messages, generation=first)
    if not first.ok:
        return attempt(outcome=Outcome.DESIGNER_FAILED, detail=f"the designer call failed: {first.error}")
    draft = await _write_code(plan, context, request, first, is_repeat)
    if draft.failure is not None:
        outcome, detail = draft.failure
        return attempt(outcome=outcome, detail=detail, code=draft.code, report=draft.report, repairs=draft.repairs)
    assert draft.code is not None and draft.report is not None and draft.observed is not None
    environment = _environment(plan, context, draft.code, draft.observed)
    found = functools.partial(attempt, code=draft.code, environment=environment, report=draft.report,
                              repairs=draft.repairs)
    duplicate = await _duplicate_of(context, draft.code)
    if duplicate is not None:
        return found(outcome=Outcome.DUPLICATE, detail=f"a near-duplicate of {duplicate} in the memory")
    checked = draft.report
    if context.judge is not None:
        checked = await _judged(context, draft, environment)
        found = functools.partial(found, report=checked)
        if not checked.ok:
            rejected = [f.message for f in checked.failures if f not in draft.report.failures]
            return found(outcome=Outcome.INVALID, detail=f"the model judge rejected it: {'; '.join(rejected)[:400]}")
    tiers = _tiers_before_play(context)
    fuzz = asyncio.create_task(context.checker.validate(draft.code, ("static", "fuzz"))) if tiers else None
    hint = await _hint(context, environment, draft.observed)
    environment = environment.with_hint(hint.usable_hint)
    if not play:
        report = checked if fuzz is None else combine_reports(checked, await fuzz)
        accepted = functools.partial(found, environment=environment, report=report, hint=hint)
        if not report.ok:
            return accepted(outcome=Outcome.INVALID, detail=f"the fuzz tier (run beside the hint) rejected it: "
                                                            f"{_checks(report)}")
        with_hint = "with" if hint.usable_hint is not None else "without"
        return accepted(outcome=Outcome.ACCEPTED, detail=f"accepted for later plays, {with_hint} an accepted hint")
    evaluation = await evaluate_environment(
        context.policies.agent, context.backend, context.sessions, environment.code, hint=hint.usable_hint,
        config=context.rollout, class_name=environment.spec.class_name, rng=random.Random(plan.seed))
    report = checked if fuzz is None else combine_reports(checked, await fuzz)
    found = functools.partial(found, environment=environment, report=report, hint=hint)
    if not report.ok:
        return found(outcome=Outcome.INVALID, detail=f"the fuzz tier (run beside play) rejected it: "
                                                     f"{_checks(report)}")
    hinted, unhinted = evaluation.returns(True), evaluation.returns(False)
    return found(outcome=Outcome.PLAYED, evaluation=evaluation, regret=regret(hinted, unhinted),
                 regret_ci=bootstrap_regret_ci(hinted, unhinted) if hinted and unhinted else None,
                 detail=f"played {len(hinted) + len(unhinted)} episodes ({'with' if hinted else 'without'} "
                        f"an accepted hint)")


def resampled_attempts(context: DesignContext) -> int:
    """Attempts per design slot: ``loop.design_attempts`` where invalid designs are re-sampled (the release,
    with no repair turns), else 1."""
    loop = context.loop
    return loop.design_attempts if context.invalid_designs == "resampled" and loop.repair_turns == 0 else 1


Replan = Callable[[DesignPlan], DesignPlan | Awaitable[DesignPlan]]
"""A fresh plan for the same slot: plain for the embedded loop, awaitable where the plan comes from the
OpenRLHF shared state."""


async def design_slot(plan: DesignPlan, context: DesignContext, replan: Replan, *,
                      is_repeat: Callable[[str], bool] | None = None,
                      first: Generation | None = None, play: bool = True) -> list[DesignAttempt]:
    """One design slot's attempts: one, or (invalid designs re-sampled, as the release does) a fresh attempt
    from ``replan`` (same kind and skill, new document, memory examples and seed) after each invalid one,
    until one is valid or ``resampled_attempts`` are used up. The last one is the slot's design. ``first``
    is the designer's reply for the first attempt when the caller already asked for it; ``play`` goes to
    every ``attempt_design``. Both trainers call this, so the rule is one piece of code."""
    tries = [await attempt_design(plan, context, is_repeat=is_repeat, first=first, play=play)]
    while not tries[-1].valid and len(tries) < resampled_attempts(context):
        fresh = replan(plan)
        plan = await fresh if inspect.isawaitable(fresh) else fresh
        tries.append(await attempt_design(plan, context, play=play))
    return tries


async def read_reply(language: DesignLanguage, response: str) -> ParseResult:
    """The environment a designer's reply holds, read in a worker thread.

    Reading is CPU work that grows with the reply (up to ``MAX_REPLY_CHARS``), and the event loop it would
    block is shared: on OpenRLHF it is the rollout engine's, which streams every sample's tokens and fires
    the design budget's timeouts, so one long reply read there stalls the whole engine."""
    return await asyncio.to_thread(language.read, response)


async def _write_code(plan: DesignPlan, context: DesignContext, request: GenerationRequest, first: Generation,
                      is_repeat: Callable[[str], bool] | None) -> _Draft:
    """The designer's turns: read, check and open its code; feed the findings back while repair turns last.
    Turn ``t`` comes after ``t`` repairs."""
    messages, response = request.messages, first.text
    turns = context.loop.repair_turns + 1
    for turn in range(turns):
        parsed = await read_reply(context.language, response)
        code, report = parsed.code, None
        if code is None:
            feedback: str | list[CheckFailure] = (f"No environment code found: {parsed.reason}. "
                                                  "Reply with one ```python block.")
            failure = (Outcome.MALFORMED, f"no environment in the reply: {parsed.reason}")
        elif turn == 0 and is_repeat is not None and is_repeat(code):
            return _Draft(code, None, None, turn, (Outcome.REPEAT, "a repeat of a design earlier in this batch"))
        else:
            report = await context.checker.validate(code, _tiers_before_play(context))
            if report.ok:
                try:
                    observed = await context.sessions.run_holding_session(_observe, context.backend, code,
                                                                context.loop.hint_seeds)
                except EnvRuntimeError as error:
                    unplayable = f"it could not be opened for play: {error}"
                    return _Draft(code, report, None, turn, (Outcome.UNPLAYABLE, unplayable))
                finding = _kind_finding(plan.kind, observed)
                if finding is None:
                    return _Draft(code, report, observed, turn)
                report = report.model_copy(update={"ok": False, "failures": [*report.failures, finding]})
            feedback = list(report.failures)
            failure = (Outcome.INVALID, f"the checker rejected it: {_checks(report)}")
        if turn == turns - 1:
            return _Draft(code, report, None, turn, failure)
        messages = repair_messages(messages, response, feedback)
        sampling = request.sampling if request.sampling.seed is None else replace(
            request.sampling, seed=request.sampling.seed + turn + 1)
        repair = await context.policies.designer.generate(
            GenerationRequest(messages=messages, sampling=sampling, role="designer"))
        if not repair.ok:
            return _Draft(code, report, None, turn + 1, (Outcome.DESIGNER_FAILED,
                                                         f"the repair call failed: {repair.error}"))
        response = repair.text
    raise AssertionError("unreachable: the last turn returns")


def _tiers_before_play(context: DesignContext) -> tuple[str, ...] | None:
    """The checker's tiers to pass before an environment is played; None: all of them (nothing runs
    beside play)."""
    tiers = context.checker.config.tiers
    if not context.loop.fuzz_beside_play or "fuzz" not in tiers:
        return None
    return tuple(tier for tier in tiers if tier != "fuzz")


def _checks(report: ValidationReport) -> str:
    return ", ".join(dict.fromkeys(failure.check for failure in report.failures)) or "no check named"


def _observe(backend: ExecutionBackend, code: str, hint_seeds: int) -> _Observed:
    """Open the environment once (see ``_Observed``)."""
    with backend.open_session(code) as session:
        solutions = []
        for seed in range(1, hint_seeds + 1):
            session.reset(seed)
            solutions.append(session.solution())
        first = session.reset(0).observation
        solutions.insert(0, session.solution())
        loaded = session.loaded
    return _Observed(class_name=loaded.class_name, tool_use=loaded.tool_use, max_turns=loaded.max_turns,
                     reward_range=loaded.reward_range, first_observation=first, solutions=solutions)


def _kind_finding(requested: EnvKind, observed: _Observed) -> CheckFailure | None:
    """A finding when the code is of another kind than was asked for (None when it is of that kind)."""
    actual = kind_of_code(requested, tool_use=observed.tool_use, solution=observed.solutions[0])
    if actual == requested:
        return None
    why = {"tool_use": "the class subclasses ToolUseBaseEnv",
           "single_answer": "solution() returns one answer",
           "multi_turn_game": "solution() returns a list of moves and the class does not subclass ToolUseBaseEnv",
           "corpus_grounded": "solution() returns a list of moves"}[actual]
    return CheckFailure(check="kind", message=f"A {KIND_TITLES[requested]} was asked for, but this is a "
                        f"{KIND_TITLES[actual]} ({why}); write the kind that was asked for.")


def _environment(plan: DesignPlan, context: DesignContext, code: str, observed: _Observed) -> EnvironmentRecord:
    """The record of an accepted design: what its code is, as the sandbox saw it."""
    turns = observed.max_turns if observed.max_turns is not None and 1 <= observed.max_turns <= 1000 \
        else context.loop.max_turns
    declared = observed.reward_range
    spec = EnvSpec(
        id=env_id_for(code), class_name=observed.class_name,
        kind=kind_of_code(plan.kind, tool_use=observed.tool_use, solution=observed.solutions[0]),
        skill=plan.skill, max_turns=turns,
        **({"reward_range": declared} if declared is not None and declared[0] <= declared[1] else {}),
        grounding=plan.prompt.grounding(context.corpus_name),
        provenance=Provenance(author=getattr(context.policies.designer, "name", "designer"), step=plan.step),
    )
    return EnvironmentRecord(spec, code)


async def _duplicate_of(context: DesignContext, code: str) -> str | None:
    threshold = context.loop.duplicate_threshold
    if threshold is None:
        return None
    matches = await context.memory.near_duplicates(code, threshold)
    return matches[0].env_id if matches else None


async def _judged(context: DesignContext, draft: _Draft, environment: EnvironmentRecord) -> ValidationReport:
    """The checker's report with the judge's findings added (``loop.judge = "self"``); its warnings reject
    where the checker's do (``loop.warnings = "rejected"``)."""
    assert context.judge is not None and draft.code is not None and draft.report is not None
    assert draft.observed is not None
    findings = await judge_design(context.judge, draft.code, first_observation=draft.observed.first_observation,
                                  solutions=draft.observed.solutions, tool_use=environment.spec.kind == "tool_use",
                                  release=context.release_prompts, severity=context.loop.judge_severity)
    errors = [f for f in findings if f.severity == "error" or context.checker.reject_warnings]
    report = draft.report
    return report.model_copy(update={"ok": report.ok and not errors, "failures": [*report.failures, *errors],
                                     "warnings": [*report.warnings, *(f for f in findings if f not in errors)]})


async def _hint(context: DesignContext, environment: EnvironmentRecord, observed: _Observed) -> HintResult:
    """The hint for this environment: written, checked against the solutions as text, then played by the
    hint readers in the sandbox (a hint they win with leaks the solution)."""
    tool_use = environment.spec.kind == "tool_use"
    release = context.release_prompts
    messages = (release.hint_messages(environment.code, tool_use=tool_use) if release is not None
                else context.language.hint_messages(environment.code))
    hint = await write_hint(context.policies.hinter, environment.code, observed.first_observation,
                            solutions=observed.solutions, tool_use=tool_use, settings=context.hint,
                            messages=messages)
    if not (hint.accepted and hint.hint):
        return hint
    leak = await context.sessions.run_holding_session(functools.partial(
        check_hint, environment.code, hint.hint, context.backend, class_name=environment.spec.class_name,
        config=context.checker.config.dynamic))
    if leak is None:
        return hint
    return replace(hint, accepted=False, reason=f"the hint leaks the solution: {leak}")
