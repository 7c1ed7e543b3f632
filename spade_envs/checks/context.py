"""One validation in progress: its configuration, sessions, findings and the barrier around every check.

The dynamic tiers (``contract.py``, ``feasibility.py``, the fuzzer) share this context. It owns:

* the sessions, each with one role, so that the environment cannot tell validation from play:
  ``oracle`` is the only session that is ever asked for ``solution()``, ``hint()``, a sibling instance
  or an audit; ``player`` and ``twin`` see only what rollouts send (``get_tools``, ``reset``, ``step``),
  so the policies probing for exploits meet the environment exactly as an agent would;
* the findings (one per check: the first counterexample is what a repair needs);
* ``check()``, the barrier: whatever a check runs into, from an exception in the environment to a
  value the host cannot digest, becomes a finding for this environment and never an exception out of
  the checker;
* ``play()``, batched scripted episodes in the player session, in chunks sized to stay well inside
  the per-call time limit, replayed one by one when a chunk fails so the failure is pinned.
"""

from __future__ import annotations

import contextlib
import hashlib
import math
import secrets
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from spade_envs.checks.stats import ChanceRule
from spade_envs.runtime.backend import ExecutionBackend
from spade_envs.runtime.errors import (
    ContractViolation,
    EnvCodeError,
    EnvCrashError,
    EnvLoadError,
    EnvMemoryError,
    EnvRuntimeError,
    EnvTimeoutError,
)
from spade_envs.runtime.limits import work_seconds
from spade_envs.runtime.replies import StepResult
from spade_envs.runtime.session import EnvSession
from spade_envs.runtime.traces import EpisodePlan, EpisodeTrace
from spade_envs.spec.models import CheckFailure, KnownAnswers

MAX_TURNS_LIMIT = 1000
"""Largest turn budget an environment may declare (as in ``EnvSpec``)."""


@dataclass(frozen=True)
class CheckConfig:
    """What the dynamic checks need to know; all fields have defaults that suit model-written code."""

    seeds: tuple[int, ...] = (0, 1, 2)
    """Seeds of the contract tier (the first seeds of the plan)."""
    plan_seeds: int = 100
    """Seeds on which feasibility and the exploit probes run: half from the small range, half drawn from
    the 32-bit range rollouts use (``seed_plan``)."""
    seed: int | None = 0
    """Draws the plan's large seeds: the same value gives the same seeds and the same verdict (the report
    records it as ``plan_seed``). None: a seed of its own for each environment, from ``plan_salt`` and a hash
    of its code, so that no environment can know beforehand which seeds it will be checked on."""
    plan_salt: int | None = None
    """With ``seed`` None: mixed with the code's hash into the plan seed (the same salt and code give the
    same seeds again; a run's seed makes self-play reproducible). None: drawn at random for each validation."""
    search_episodes: int = 1_500
    """Episodes the exploit search may play per environment (it counts work, not seconds: the same
    budget gives the same verdict on any machine)."""
    probe_screen: int = 16
    """Every probe plays the plan's first this many seeds; one that wins there more often than chance
    plays all of them before the verdict."""
    chance: ChanceRule = field(default_factory=ChanceRule)
    max_turns: int | None = None
    """Passed to the constructor when set; otherwise the class default is used."""
    init_kwargs: dict[str, Any] = field(default_factory=dict)
    reward_range: tuple[float, float] | None = None
    """Overrides the environment's declared ``reward_range``."""
    hint: str | None = None
    """A hint to check for leaks (besides any the environment writes itself with ``hint()``)."""
    reference_solution: bool = True
    """False for an environment that ships no reference solution (a third-party game through its adapter):
    ``solution_defined`` is not run, nor the feasibility tier (``ValidationJob.reference_solution``)."""
    answer_format_required: bool = True
    """Whether the right answer written out of its ``\\boxed{}`` (bare, in brackets, after 'Answer:') counts
    as a wrong one. SPADE's contract asks for the box; a grader written for another framework (a verifiers
    rubric, a TRL reward function) may take the answer in any wrapping it likes, which is no defect there
    (``ValidationJob.answer_format_required``)."""
    min_distinct_tasks: int = 8
    """Fewer distinct tasks than this over the plan's seeds makes the environment degenerate (an agent
    memorises a handful of tasks instead of learning the skill)."""
    sum_clipped: bool = True
    """Also protect the ``sum_clipped`` return (the sum of rewards): a non-winning episode must not reach
    the win return. Off only for an environment that will only ever be scored by its last reward."""
    step_budget_s: float | None = None
    """Time one step may take on the probes' long inputs and huge numbers; default: a fifth of the call
    time limit (at least 0.5 s)."""
    second_max_turns: int = 25
    """The other turn budget the constructor is tried with (the recipes' 25), or 12 if that is the default."""
    clock_offset_s: float = 3 * 86_400 + 12_345.678
    """How far the clock twin's clock is moved: days, hours, minutes and a fraction of a second."""
    clock_tick_s: float = 37.5
    """How far the clock twin's clock advances at each reading (normal sessions: a millisecond), so that
    behaviour that depends on elapsed time (a fuse, a time bonus) shows too."""

    def plan_seed_for(self, source: str) -> int:
        """The seed that draws the plan of one environment (``seed`` itself when it is set)."""
        if self.seed is not None:
            return self.seed
        salt = self.plan_salt if self.plan_salt is not None else secrets.randbits(32)
        digest = hashlib.sha256(f"{salt}:".encode() + source.encode("utf-8", "surrogatepass")).digest()
        return int.from_bytes(digest[:4], "big") >> 1

    def seed_plan(self, plan_seed: int | None = None) -> list[int]:
        """The contract seeds, then small and 32-bit seeds interleaved, ``plan_seeds`` in all."""
        import random

        rng = random.Random(self.seed if plan_seed is None else plan_seed)
        count = max(self.plan_seeds, len(self.seeds))
        small = [s for s in range(count) if s not in self.seeds]
        large = [rng.randrange(2**31) for _ in range(count)]
        plan = list(dict.fromkeys(self.seeds))
        for a, b in zip(small, large):
            if len(plan) >= count:
                break
            plan.append(b)
            if len(plan) < count:
                plan.append(a)
        return plan


class Stop(Exception):
    """The environment cannot be run further (it timed out, crashed or ran out of memory)."""


class CheckAborted(Exception):
    """The current check cannot go on; the reason was already recorded under another check."""


@dataclass
class DynamicResult:
    failures: list[CheckFailure] = field(default_factory=list)
    warnings: list[CheckFailure] = field(default_factory=list)
    """Findings an honest environment can also trigger: reported, never rejecting (``warn``)."""
    ran: dict[str, float] = field(default_factory=dict)  # check name -> milliseconds
    tier_ms: dict[str, float] = field(default_factory=dict)
    failed_tier: str | None = None
    class_name: str | None = None
    tool_use: bool | None = None
    episodes: int = 0
    """Episodes the checks played (batched or not), for the report."""
    plan_seed: int | None = None
    """The seed the plan's large seeds were drawn with (``CheckConfig.plan_seed_for``): replays the verdict."""
    known_answers: KnownAnswers | None = None
    """The known-answer probes' figures (``known_answers.py``), for the report."""

    def fail(self, check: str, message: str, *, line: int | None = None, detail: str | None = None,
             seed: int | None = None, actions: Sequence[str] | None = None, step: int | None = None) -> None:
        # One finding per check: the first counterexample is what a designer needs to repair.
        if not self.failed(check):
            # Actions are kept exactly (a counterexample must replay), unless they are absurdly large.
            kept = list(actions[:200]) if actions else None
            if kept is not None and sum(len(a) for a in kept) > 200_000:
                kept = None
            self.failures.append(CheckFailure(
                check=check, message=flat(message), line=line if line is None or 1 <= line <= 10**6 else None,
                detail=detail, seed=seed, actions=kept, step=step))

    def warn(self, check: str, message: str, *, seed: int | None = None,
             actions: Sequence[str] | None = None) -> None:
        """A finding that does not reject (one per check, and none for a check that already failed)."""
        if not self.failed(check) and not any(w.check == check for w in self.warnings):
            kept = list(actions[:200]) if actions else None
            if kept is not None and sum(len(a) for a in kept) > 200_000:
                kept = None
            self.warnings.append(CheckFailure(check=check, message=flat(message), severity="warning", seed=seed,
                                              actions=kept))

    def failed(self, check: str) -> bool:
        return any(f.check == check for f in self.failures)


def preview(text: str, limit: int = 160) -> str:
    """Shorten text for a one-line message."""
    text = " ".join(text[: limit * 4].split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def flat(text: str) -> str:
    """Messages are one line; multi-line evidence belongs in ``detail``."""
    return " ".join(text.split())


def short(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def show_action(action: str, limit: int = 40) -> str:
    """An action as Python would write it, so '' and '  ' stay distinguishable."""
    shown = repr(action[:limit])
    return shown + ("..." if len(action) > limit else "")


class CheckRun:
    """The state of one environment's dynamic validation (see the module docstring)."""

    def __init__(self, backend: ExecutionBackend, config: CheckConfig, source: str, class_name: str | None) -> None:
        self.backend, self.config = backend, config
        self.source, self.class_name = source, class_name
        self.result = DynamicResult()
        self.sessions: list[EnvSession] = []
        self.turn_limit = 10
        self.reward_range = (-1.0, 1.0)
        self.plan_seed = config.plan_seed_for(source)
        self.result.plan_seed = self.plan_seed
        self.plan = config.seed_plan(self.plan_seed)
        self.solutions: dict[int, Any] = {}  # seed -> what solution() returned (oracle session)
        self.verified: dict[int, tuple[str, ...]] = {}  # seed -> winning actions, replayed in the player session
        self.first_observations: dict[int, str] = {}  # seed -> first observation in the player session
        self.first_infos: dict[int, dict[str, Any]] = {}  # seed -> the info dict reset() returned there
        self.oracle_records: dict[int, Any] = {}
        self.progress_rewards = False  # whether some winning replay was paid before its last step
        self._chunk = 4
        self._budget_s = max(0.5, 0.25 * self.call_timeout())
        self.oracle: EnvSession
        self.player: EnvSession
        self.twin: EnvSession

    # ------------------------------------------------------------------ sessions
    def call_timeout(self) -> float:
        limits = getattr(self.backend, "limits", None)
        timeout = getattr(limits, "call_timeout_s", 10.0)
        return float(timeout) if isinstance(timeout, (int, float)) and timeout > 0 else 10.0

    def open(self, *, max_turns: int | None = None, clock_offset_s: float = 0.0, clock_tick_s: float | None = None,
             track: bool = True) -> EnvSession:
        """A new session of the environment under validation (closed with the run when ``track``)."""
        options: dict[str, Any] = {"class_name": self.class_name, "init_kwargs": self.config.init_kwargs,
                                   "max_turns": max_turns if max_turns is not None else self.config.max_turns}
        if clock_offset_s:
            options["clock_offset_s"] = clock_offset_s
        if clock_tick_s is not None:
            options["clock_tick_s"] = clock_tick_s
        session = self.backend.open_session(self.source, **options)
        if track:
            self.sessions.append(session)
        return session

    @contextmanager
    def temporary(self) -> Iterator[Any]:
        """``with run.temporary() as opened: a = opened(...)``: sessions closed when the block ends, so that
        a validation holds only its three lasting sessions (oracle, player, twin) in memory."""
        opened: list[EnvSession] = []

        def open_one(**options: Any) -> EnvSession:
            opened.append(self.open(track=False, **options))
            return opened[-1]

        try:
            yield open_one
        finally:
            for session in opened:
                with contextlib.suppress(Exception):  # closing must never cost the report
                    session.close()

    def close(self) -> None:
        for session in self.sessions:
            with contextlib.suppress(Exception):  # closing must never cost the report
                session.close()
        self.sessions = []

    @property
    def batch_budget_s(self) -> float:
        """How long one batched request should take at most: a quarter of the call time limit."""
        return self._budget_s

    @property
    def tool_use(self) -> bool:
        return bool(self.result.tool_use)

    # ------------------------------------------------------------------ the barrier
    @contextmanager
    def check(self, name: str) -> Iterator[None]:
        """Time one check and turn everything that can go wrong into a finding; stop on a dead backend."""
        started = time.perf_counter()
        try:
            yield
        except CheckAborted:
            pass
        except ContractViolation as violation:
            self.result.fail(violation.check, str(violation))
        except EnvCodeError as error:
            advice = (
                " The sandbox has only the allowlisted standard-library modules; environments that "
                "need others must run with --sandbox process."
                if error.exc_type == "ModuleNotFoundError" and getattr(self.backend, "isolated", False)
                else ""
            )
            self.result.fail(name, f"{error.phase}() raised {error.exc_type}: {preview(error.exc_message, 200)}.{advice}",
                             line=error.line, detail=error.traceback)
        except EnvLoadError as error:
            self.result.fail("loads", f"The environment could not be loaded: {error}.")
        except EnvTimeoutError as error:
            self.result.fail("step_budget" if name == "step_budget" else "timeout", f"While checking {name}: {error}.")
            raise Stop from None
        except (EnvMemoryError, EnvCrashError) as error:
            self.result.fail("runtime_limit", f"While checking {name}: {error}.")
            raise Stop from None
        except EnvRuntimeError as error:
            self.result.fail(name, f"While checking {name}: {error}.")
        except (Stop, KeyboardInterrupt):
            raise
        except Exception as error:  # noqa: BLE001 -- the barrier: guest-shaped data must never escape as a crash
            self.result.fail(
                name,
                f"Host-side analysis failed while checking {name}: {type(error).__name__}: {preview(str(error), 120)}. "
                "Something the environment returned is too large or of an unexpected type; return small, plain "
                "values (str observations, float rewards, lists of short strings from solution()).")
        finally:
            self.result.ran[name] = self.result.ran.get(name, 0.0) + (time.perf_counter() - started) * 1000

    # ------------------------------------------------------------------ playing
    def play(self, plans: Sequence[EpisodePlan], *, record: str = "outcome",
             session: EnvSession | None = None) -> list[EpisodeTrace]:
        """Play scripted episodes in ``session`` (the player by default), batched.

        Chunks grow or shrink so that one request takes about a quarter of the call time limit. A chunk
        that fails is replayed one episode at a time up to its end (not re-chunked after its first good
        episode: a hanging episode late in a chunk would then cost one time limit per episode before it);
        a single episode that fails raises as the session would (the caller's ``check`` turns it into a
        finding).
        """
        session = session or self.player
        traces: list[EpisodeTrace] = []
        index = 0
        single_until = 0  # episodes before this index are played one at a time (a chunk with them failed)
        plans = list(plans)
        chunk = self._chunk if record == "outcome" else min(self._chunk, 8)
        while index < len(plans):
            part = plans[index:index + (1 if index < single_until else chunk)]
            started = time.perf_counter()
            try:
                played = session.episodes(part, record=record)
            except ContractViolation as violation:
                if len(part) == 1:  # say where: the seed and the actions of the episode that broke the rule
                    raise ContractViolation(violation.check, f"{violation} (seed {part[0].seed}, actions "
                                            f"{preview(repr(list(part[0].actions[:4])), 120)})") from None
                single_until = index + len(part)
                continue
            except EnvTimeoutError:
                if len(part) == 1:
                    raise EnvTimeoutError(
                        f"an episode ran past the {self.call_timeout():g} s limit (seed {part[0].seed}, actions "
                        f"{preview(repr(list(part[0].actions[:4])), 120)}); remove unbounded loops or make the work "
                        "of a step smaller") from None
                single_until = index + len(part)
                continue
            except (EnvCodeError, EnvCrashError, EnvMemoryError):
                if len(part) == 1:
                    raise
                single_until = index + len(part)
                continue
            elapsed = work_seconds(session.last_instructions, time.perf_counter() - started)
            self._check_rewards(played)
            traces.extend(played)
            index += len(part)
            self.result.episodes += len(part)
            per_episode = max(elapsed / len(part), 1e-5)
            chunk = int(min(64 if record == "outcome" else 8, max(1, self._budget_s / per_episode)))
            if record == "outcome":
                self._chunk = chunk
        return traces

    def scripted(self, session: EnvSession, seed: int, actions: list[str], *, probe: bool = True) -> list[StepResult]:
        """reset(seed) and play ``actions`` until the episode ends, in one round trip when all goes well.

        If the batch raises, the episode is replayed step by step so the failure is pinned to its action.
        """
        try:
            _, steps = session.play(seed, actions)
        except (EnvCodeError, ContractViolation):
            session.reset(seed)
            steps = []
            for action in actions:
                steps.append(self.step(session, action, probe=probe))
                if steps[-1].done:
                    break
            return steps
        self.result.episodes += 1
        for action, step in zip(actions, steps):
            self.check_reward(action, step)
        return steps

    def step(self, session: EnvSession, action: str, *, probe: bool = True) -> StepResult:
        """One step with its reward checked. A probe action that crashes the environment is a
        ``garbage_actions`` failure whichever check sent it; a crashing solution move belongs to the caller.
        """
        try:
            step = session.step(action)
        except EnvCodeError as error:
            if not probe:
                raise
            self.result.fail(
                "garbage_actions",
                f"step({show_action(action)}) raised {error.exc_type}: {preview(error.exc_message, 200)}. "
                "Treat unparseable or wrong actions as an invalid move: explain the format and give reward 0.",
                line=error.line, detail=error.traceback)
            raise CheckAborted from None
        self.check_reward(action, step)
        return step

    def _check_rewards(self, traces: Sequence[EpisodeTrace]) -> None:
        """Hold the rewards of batched episodes to the declared range, as ``check_reward`` holds a single
        step's: a grader that pays more than its maximum for some replies (a bonus per reasoning step, uncapped)
        shows it only in the episodes the probes play. The first episode out of range is the finding."""
        if self.result.failed("reward_range"):
            return
        low, high = self.reward_range
        for trace in traces:
            for index, reward in enumerate(trace.rewards):
                if not math.isfinite(reward) or not low - 1e-9 <= reward <= high + 1e-9:
                    actions = list(trace.plan.actions[:index + 1])
                    self.result.fail(
                        "reward_range",
                        f"Seed {trace.plan.seed}: step({show_action(actions[-1])}) returned reward {reward:g}, outside "
                        f"the declared range [{low:g}, {high:g}]; keep rewards inside it (cap bonuses) or declare "
                        "reward_range = (low, high) within [-1, 1].", seed=trace.plan.seed, actions=actions,
                        step=index + 1)
                    return

    def check_reward(self, action: str, step: Any) -> None:
        low, high = self.reward_range
        reward = step.reward
        if not math.isfinite(reward):
            self.result.fail("reward_range", f"step({show_action(action)}) returned reward {reward}; rewards must be finite.")
        elif not low - 1e-9 <= reward <= high + 1e-9:
            self.result.fail(
                "reward_range",
                f"step({show_action(action)}) returned reward {reward:g}, outside the declared range "
                f"[{low:g}, {high:g}]; keep rewards inside it or declare reward_range = (low, high) within [-1, 1].")
