"""Property-based fuzzing of one environment: generated episodes in batches, Hypothesis to shrink.

Each example draws a seed, an episode length and one action per turn from what the environment shows
(``contract/fuzz_actions.py``), and is checked against every property in ``FUZZ_PROPERTIES``. The
first violation is shrunk to a minimal seed and action sequence, reported as a ``Counterexample``
ready for a designer repair turn. A run has two phases:

1. **Screen.** The examples are played in batches by episode programs inside the sandbox
   (``runtime/programs.py``): one request plays dozens of examples, each drawing its actions from a
   seeded generator as it goes. The host replays every program over the replies it got (so it knows
   which actions were played without taking the sandbox's word for it) and checks the per-step
   properties (no exceptions, types, reward range, termination, behaviour after the end) on the
   traces. A batch that fails as a whole (an exception, a limit) is played again one example at a
   time, step by step, which pins the example and the step.
2. **Shrink.** The first failing example is handed to Hypothesis with the choices it made: Hypothesis
   replays it step by step (the same code, drawing from Hypothesis' data) and shrinks it. Hypothesis
   never pays its per-example engine for the bulk of random episodes, and counterexamples stay as
   minimal as when it drew every example itself. The same fuzz seed and budget give the same verdict.

Per-step properties are checked on one long-lived instance (the primary session). The properties that
compare trajectories (determinism, reset isolation, instance isolation) are checked by *audits*, on one
example in ``audit_every`` (which ones is drawn from the data, so a shrunk replay audits the same way).
In the screen, the primary plays an audited example again after a reset, and one fresh session per 16
audited examples plays each of them on its first instance and on a new instance of its module: for an
environment that keeps the contract these are all the same trajectory. Hypothesis then shrinks with the
self-contained audit (two brand-new sessions per example: one plays, plays again after a reset and lets
a second instance play; the other plays once), so a counterexample replays from scratch and names the
property it breaks. The solution is replayed on at most ``feasibility_seeds`` distinct fuzzed seeds it
has not already been verified on, and one example in twenty asks for it again after its episode and a
``reset(seed)``, to catch a ``solution()`` that reads state ``reset()`` does not rebuild.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from spade_envs.contract.actions import solution_to_actions
from spade_envs.contract.episode import DEFAULT_MAX_TURNS, DEFAULT_REWARD_RANGE, is_win
from spade_envs.contract.fuzz_actions import ActionMix, Chooser, SeededChooser, draw_header, example_seed
from spade_envs.fuzz.counterexample import FUZZ_PROPERTIES, Counterexample
from spade_envs.runtime.errors import (
    ContractViolation,
    EnvCodeError,
    EnvCrashError,
    EnvLoadError,
    EnvMemoryError,
    EnvTimeoutError,
)
from spade_envs.runtime.limits import work_seconds
from spade_envs.runtime.programs import FuzzSetup
from spade_envs.runtime.replies import StepResult
from spade_envs.runtime.session import EnvSession, SiblingInstance
from spade_envs.runtime.traces import EpisodePlan, EpisodeTrace, FuzzTrace

AUDITS_PER_SESSION = 16
"""Audited examples one fresh session serves in the screen (each leaves a sibling instance behind)."""
MAX_CHUNK = 64
"""Most examples (or episodes) in one request; the time budget usually decides first."""


@dataclass(frozen=True)
class FuzzConfig:
    examples: int = 100
    """Examples (episodes) to generate; shrinking a failure adds more."""
    seed: int = 0
    """Seed of the fuzzer itself: the same seed and budget give the same verdict."""
    env_seeds: int = 8
    """How many environment seeds the examples draw from: the first ``env_seeds`` of the checker's seed plan
    (small and 32-bit seeds, whose solutions are already known), or 0..env_seeds-1 when fuzzing alone.
    The action sequences matter more than the seed, and every new seed may cost a solution() call."""
    seed_range: tuple[int, int] | None = None
    """Draw environment seeds from [low, high) instead (e.g. (0, 2**31) for the range rollouts use)."""
    feasibility_seeds: int = 8
    audit_every: int = 8
    """Audit determinism, reset isolation and instance isolation on one example in this many."""
    shrink: bool = True


@dataclass
class FuzzReport:
    counterexamples: list[Counterexample] = field(default_factory=list)
    examples: int = 0
    steps: int = 0
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return not self.counterexamples


class _Violation(Exception):
    """A property failed; carries the evidence. One subclass per property keeps shrinking on target."""

    counterexample: Counterexample

    def __init__(self, counterexample: Counterexample) -> None:
        super().__init__(counterexample.summary())
        self.counterexample = counterexample


_VIOLATION_TYPES: dict[str, type[_Violation]] = {
    name: type(f"{name}_violation", (_Violation,), {}) for name in FUZZ_PROPERTIES
}


@dataclass(frozen=True)
class _Found:
    """A failing example of the screen: its choices (for Hypothesis) and what the screen saw."""

    index: int
    choices: list[int | str]
    evidence: Counterexample
    """Reported as it is when Hypothesis cannot make the example fail again (it failed only after the
    history the screen had given the instance)."""


@dataclass(frozen=True)
class _Audited:
    """An example drawn for an audit, with what the primary session answered to it (twice)."""

    index: int
    seed: int
    actions: list[str]
    choices: list[int | str]
    original: list[str]
    again: list[str]


def _finite_in(reward: float, bounds: tuple[float, float]) -> bool:
    return math.isfinite(reward) and bounds[0] - 1e-9 <= reward <= bounds[1] + 1e-9


def _around_difference(a: str, b: str, width: int = 160) -> tuple[str, str]:
    """The two texts cut to ``width`` characters around where they first differ (long observations
    often share their first hundreds of characters)."""
    first = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    start = max(0, first - width // 4)
    prefix = "..." if start else ""
    return prefix + a[start : start + width], prefix + b[start : start + width]


def _short(actions: list[str], limit: int = 4) -> str:
    shown = [a if len(a) <= 40 else a[:37] + "..." for a in actions[:limit]]
    return repr(shown)[:-1] + (f", ... ({len(actions) - limit} more)]" if len(actions) > limit else "]")


def _key(step: StepResult) -> str:
    return repr((step.observation, step.reward, step.terminated, step.truncated, sorted(step.info.items(), key=repr)))


def _trajectory(trace: EpisodeTrace) -> list[str]:
    first = trace.first.observation if trace.first is not None else ""
    return [repr(first)] + [_key(step) for step in trace.steps]


_AUDIT_CHECKS = (
    ("fuzz_determinism", "a second, fresh instance to reproduce",
     "(randomness not derived from the seed: time, id(), hash() or an unseeded generator)",
     "play the actions on two fresh instances"),
    ("fuzz_reset_isolation", "after reset(seed) the same as the first episode",
     "(state from the first episode leaked through reset)",
     ("play the actions (repeating the last one once after the episode ends), call reset(seed) on the "
      "same instance, play them again")),
    ("fuzz_instance_isolation", "a second instance in the same module to match the first",
     "(instances share state through class attributes or module globals)",
     "play the actions on one instance, then create a second instance and play them again"),
)


class Fuzzer:
    """Fuzzes one loaded environment; ``run`` returns at most one (shrunk) counterexample."""

    def __init__(
        self,
        primary: EnvSession,
        open_fresh: Callable[[], EnvSession],
        *,
        turn_limit: int,
        reward_range: tuple[float, float],
        config: FuzzConfig | None = None,
        known_solutions: dict[int, list[str]] | None = None,
        verified: set[int] | None = None,
        seed_pool: list[int] | None = None,
        batch_budget_s: float = 2.5,
    ) -> None:
        """``batch_budget_s`` is how long one request of the screen should take at most (a fraction of the
        per-call time limit, which a whole batch must stay well inside)."""
        self.env, self.open_fresh = primary, open_fresh
        self.turn_limit = turn_limit
        self.reward_range = reward_range
        self.config = config or FuzzConfig()
        self.tool_use = primary.loaded.tool_use
        self.report = FuzzReport()
        self._mix: ActionMix | None = None
        self._tools: list[Any] | None = None
        self._solutions: dict[int, list[str]] = dict(known_solutions or {})
        self._feasibility_checked: set[int] = set(verified or ())  # already replayed by the feasibility tier
        self._verified_count = len(self._feasibility_checked)
        pool = list(dict.fromkeys(seed_pool or []))[: self.config.env_seeds]
        self._seed_pool = pool or list(range(self.config.env_seeds))
        self._halted: Counterexample | None = None
        self._budget_s = max(0.05, batch_budget_s)
        self._chunk = 4

    # ------------------------------------------------------------------ entry point
    def run(self) -> FuzzReport:
        started = time.perf_counter()
        found = self._screen()
        if found is not None and self._halted is None:
            shrunk = self._shrink(found)
            if shrunk is not None:
                self.report.counterexamples.append(shrunk)
        if self._halted is not None:
            self.report.counterexamples.append(self._shorter_hang(self._halted))
        self.report.seconds = time.perf_counter() - started
        return self.report

    def _shorter_hang(self, halted: Counterexample) -> Counterexample:
        """A hang is not shrunk (every try would cost a time limit), but the step that hung alone, right
        after reset(seed), is tried once: most hangs need no more than that."""
        if halted.seed is None or len(halted.actions) < 2:
            return halted
        last = halted.actions[-1]
        try:
            self.env.reset(halted.seed)
            self.env.step(last)
        except (EnvTimeoutError, EnvMemoryError, EnvCrashError) as error:
            return Counterexample("fuzz_no_hang", halted.seed, [last], 1, halted.expected, str(error))
        except (EnvCodeError, ContractViolation):
            pass
        return halted

    # ------------------------------------------------------------------ phase 1: the screen
    def _chooser(self, index: int) -> SeededChooser:
        return SeededChooser(example_seed(self.config.seed, index), mode="simplest" if index == 0 else None)

    def _header(self, chooser: Chooser) -> Any:
        return draw_header(chooser, pool=self._seed_pool, turn_limit=self.turn_limit,
                           audit_every=self.config.audit_every, seed_range=self.config.seed_range)

    def _screen(self) -> _Found | None:
        """Play every example; the failing one with the lowest index, or None."""
        count = self.config.examples
        found = self._prepare(count)
        if found is not None or self._halted is not None:
            return found
        setup = FuzzSetup(self._seed_pool, self.turn_limit, self.config.audit_every, self.config.seed_range,
                          dict(self._solutions), self._tools)
        audited: list[_Audited] = []
        index = 0
        while index < count and found is None and self._halted is None:
            part = list(range(index, min(count, index + self._chunk)))
            started = time.perf_counter()
            try:
                traces = self.env.fuzz(setup, [(example_seed(self.config.seed, i), i == 0) for i in part])
            except (EnvCodeError, ContractViolation, EnvCrashError, EnvTimeoutError, EnvMemoryError):
                found = self._replay_one_by_one(part)  # pins the example and the step; may halt
                index += len(part)
                self._chunk = max(1, self._chunk // 2)
                continue
            spent = work_seconds(self.env.last_instructions, time.perf_counter() - started)
            self._chunk = int(min(MAX_CHUNK, max(1, self._budget_s / max(1e-5, spent / len(part)))))
            for i, trace in zip(part, traces):
                found = self._judge(i, trace)
                if found is not None or self._halted is not None:
                    break
                header = trace.example.header
                if header is not None and header.audit and trace.faithful and trace.again is not None:
                    original = [repr(trace.first.observation if trace.first else "")] + [
                        _key(step) for step in trace.steps]
                    audited.append(_Audited(i, header.seed, trace.actions, list(trace.example.choices), original,
                                            _trajectory(trace.again)))
            index += len(part)
        if self._halted is not None:
            return None
        limit = found.index if found is not None else count
        for start in range(0, len(audited), AUDITS_PER_SESSION):
            group = [item for item in audited[start:start + AUDITS_PER_SESSION] if item.index < limit]
            if not group:
                break
            failed = self._audit_group(group)
            if self._halted is not None:
                return None
            if failed is not None:
                return failed
        return found

    def _prepare(self, count: int) -> _Found | None:
        """Before the batches: every seed's solution moves, the tools, and the solutions' replays."""
        for index in range(count):
            chooser = self._chooser(index)
            env_seed = self._header(chooser).seed
            try:
                if index == 0 and self.tool_use:
                    self._reset(self.env, env_seed, [])
                    self._tools = self.env.tools()
                moves = self._solution_moves(env_seed)
                self._check_feasible(env_seed, moves)
            except _Violation as violation:
                return _Found(index, chooser.choices, violation.counterexample)
            except (EnvTimeoutError, EnvMemoryError, EnvCrashError) as error:
                self._halted = Counterexample("fuzz_no_hang", env_seed, [], None,
                                              "every call to finish within the limits", str(error))
                return None
        self._mix = ActionMix(self._tools)
        return None

    def _replay_one_by_one(self, indices: Sequence[int]) -> _Found | None:
        """Play examples step by step, as Hypothesis would; the first that fails (or None)."""
        for index in indices:
            found = self._replay(index)
            if found is not None or self._halted is not None:
                return found
        return None

    def _replay(self, index: int) -> _Found | None:
        chooser = self._chooser(index)
        try:
            self._example(chooser)
        except _Violation as violation:
            return _Found(index, chooser.choices, violation.counterexample)
        return None

    def _judge(self, index: int, trace: FuzzTrace) -> _Found | None:
        """Check one screened example; an unfaithful trace is played again step by step instead."""
        if not trace.faithful or trace.example.header is None:
            return self._replay(index)
        self.report.examples += 1
        self.report.steps += len(trace.steps) + (trace.after_end is not None)
        try:
            self._check_trace(trace)
        except _Violation as violation:
            return _Found(index, list(trace.example.choices), violation.counterexample)
        except (EnvTimeoutError, EnvMemoryError, EnvCrashError) as error:
            self._halted = Counterexample("fuzz_no_hang", trace.example.header.seed, trace.actions,
                                          len(trace.actions) or None, "every call to finish within the limits",
                                          str(error))
        return None

    def _check_trace(self, trace: FuzzTrace) -> None:
        """The per-step properties on a screened trace, in the order the step-by-step example checks them."""
        header = trace.example.header
        assert header is not None
        env_seed, actions = header.seed, trace.actions
        if trace.first is None:
            self._reset_violation(env_seed, [], trace.violation)
        for turn, step in enumerate(trace.steps, start=1):
            if not _finite_in(step.reward, self.reward_range):
                self._step_reward_violation(env_seed, actions[:turn], step)
        if len(trace.steps) < len(actions):
            self._step_violation(env_seed, actions[: len(trace.steps) + 1], trace.violation)
        last = trace.steps[-1] if trace.steps else None
        if last is not None and last.done:
            after_end = actions + [actions[-1]]
            if trace.after_end is None:
                self._fail("fuzz_return_types", env_seed, after_end, len(after_end),
                           "(str, float, bool, bool, dict) from step()", str(trace.violation))
            self._post_episode_violation(env_seed, after_end, trace.after_end)
        elif len(actions) >= self.turn_limit:
            self._not_terminated(env_seed, actions)
        if header.audit and actions and trace.again is None:  # the replay after reset broke the contract
            self._fail("fuzz_return_types", env_seed, actions, None, "the contract's types when the actions are "
                       "played again after reset(seed)", str(trace.violation))
        if trace.rechecked:
            if trace.recheck_first is None:
                self._reset_violation(env_seed, actions, trace.violation)
            self._judge_solution(env_seed, actions, self._solutions.get(env_seed, []), trace.solution)

    # ------------------------------------------------------------------ the audits of the screen
    def _audit_group(self, group: list[_Audited]) -> _Found | None:
        """Audit up to ``AUDITS_PER_SESSION`` examples against one fresh session.

        The primary session played each example and, after a reset, played it again. The fresh session's
        first instance plays the examples in turn (its first episode is the first of a fresh module), and
        for each example a new instance of its module plays it once more. For an environment that keeps
        the contract all of these are the same trajectory: whatever differs is a finding. Which property
        it breaks is for Hypothesis to tell, with the self-contained audit on brand-new sessions; an
        example it cannot make fail that way is reported as the screen saw it.
        """
        try:
            with self.open_fresh() as fresh:
                elsewhere = self._play_chunked(fresh, [EpisodePlan(item.seed, tuple(item.actions)) for item in group])
                neighbours = []
                for item in group:
                    sibling = fresh.spawn_sibling()
                    neighbours += self._play_chunked(sibling, [EpisodePlan(item.seed, tuple(item.actions))])
        except (EnvCodeError, ContractViolation, EnvTimeoutError, EnvMemoryError, EnvCrashError):
            return self._audit_one_by_one(group)  # the self-contained audit pins the example and the step
        self.report.steps += sum(len(t.steps) for t in [*elsewhere, *neighbours])
        for position, (item, other, neighbour) in enumerate(zip(group, elsewhere, neighbours)):
            try:
                for trace in (other, neighbour):
                    for turn, step in enumerate(trace.steps, start=1):
                        if not _finite_in(step.reward, self.reward_range):
                            self._step_reward_violation(item.seed, item.actions[:turn], step)
                before = f"one that had played {position} other episode(s) first" if position else "a fresh one"
                self._compare("fuzz_determinism", item.seed, item.actions, item.original, _trajectory(other),
                              _AUDIT_CHECKS[0][1], _AUDIT_CHECKS[0][2],
                              f"play the actions on an instance that had played other episodes, and on {before}")
                self._compare("fuzz_reset_isolation", item.seed, item.actions, item.original, item.again,
                              *_AUDIT_CHECKS[1][1:3], "play the actions (repeating the last one once after the "
                              "episode ends), call reset(seed) on the same instance, play them again")
                self._compare("fuzz_instance_isolation", item.seed, item.actions, item.original,
                              _trajectory(neighbour), *_AUDIT_CHECKS[2][1:3], "play the actions on one instance, "
                              "then create another instance in a module where other episodes were played, and "
                              "play them again")
            except _Violation as violation:
                return _Found(item.index, item.choices, violation.counterexample)
        return None

    def _play_chunked(self, target: EnvSession | SiblingInstance, plans: list[EpisodePlan]) -> list[EpisodeTrace]:
        traces: list[EpisodeTrace] = []
        while len(traces) < len(plans):
            part = plans[len(traces):len(traces) + self._chunk]
            started = time.perf_counter()
            traces += target.episodes(part, record="full")
            spent = work_seconds(target.last_instructions, time.perf_counter() - started)
            per_episode = max(1e-5, spent / len(part))
            self._chunk = int(min(MAX_CHUNK, max(1, self._budget_s / per_episode)))
        return traces

    def _audit_one_by_one(self, group: list[_Audited]) -> _Found | None:
        for item in group:
            try:
                self._audit(item.seed, item.actions)
            except _Violation as violation:
                return _Found(item.index, item.choices, violation.counterexample)
            except (EnvTimeoutError, EnvMemoryError, EnvCrashError) as error:
                self._halted = Counterexample("fuzz_no_hang", item.seed, list(item.actions), None,
                                              "every call to finish within the limits", str(error))
                return None
        return None

    # ------------------------------------------------------------------ phase 2: Hypothesis shrinks
    def _shrink(self, found: _Found) -> Counterexample | None:
        """Hand the failing example to Hypothesis: it replays the choices step by step, then shrinks them."""
        if not self.config.shrink:
            return found.evidence
        # Hypothesis is imported here, not with the module: most validations find nothing to shrink,
        # and a validation worker starts faster without it.
        from hypothesis import HealthCheck, Phase, Verbosity, given, seed, settings
        from hypothesis import strategies as st
        from hypothesis.errors import HypothesisException

        from spade_envs.fuzz.strategies import DataChooser, ReplayDatabase

        def property_test(data: st.DataObject) -> None:
            self._example(DataChooser(data.draw))

        test = given(st.data())(property_test)
        test = settings(
            database=ReplayDatabase(found.choices),
            phases=[Phase.reuse, Phase.shrink],
            max_examples=max(1, self.config.examples),
            deadline=None,
            verbosity=Verbosity.quiet,
            report_multiple_bugs=False,
            suppress_health_check=list(HealthCheck),
        )(seed(self.config.seed)(test))
        try:
            test()
        except _Violation as violation:
            return violation.counterexample
        except HypothesisException as error:
            # Hypothesis noticed that re-running an example did not do the same thing. After a hang we
            # stop drawing on purpose. Otherwise the first run's violation is the finding (it is carried
            # inside a FlakyFailure); without one, the flakiness itself is reported.
            carried = [e for e in getattr(error, "exceptions", ()) if isinstance(e, _Violation)]
            if self._halted is not None:
                return None
            if carried:
                return carried[0].counterexample
            return Counterexample("fuzz_determinism", None, [], None,
                                  "re-running the same generated episode to behave the same",
                                  f"Hypothesis reported flaky behaviour ({type(error).__name__})")
        return None if self._halted is not None else found.evidence

    # ------------------------------------------------------------------ one example, step by step
    def _example(self, chooser: Chooser) -> None:
        """One example played with a request per step: what Hypothesis shrinks, and the screen's fallback.
        It makes the same choices, in the same order, as the episode program (``runtime/programs.py``)."""
        if self._halted is not None:
            return  # a hang or crash was found: do not spend minutes shrinking timeouts
        self.report.examples += 1
        header = self._header(chooser)
        env_seed = header.seed
        actions: list[str] = []
        try:
            moves = self._solution_moves(env_seed)
            self._check_feasible(env_seed, moves)
            observation = self._reset(self.env, env_seed, actions)
            mix = self._action_mix()
            for turn in range(1, header.length + 1):
                action = mix.draw(chooser, observation, moves)
                actions.append(action)
                step = self._step(self.env, env_seed, actions)
                observation = step.observation
                if step.done:
                    self._check_post_episode(env_seed, actions, action)
                    break
                if turn >= self.turn_limit:
                    self._not_terminated(env_seed, actions)
            if header.audit:
                self._audit(env_seed, actions)
            elif header.recheck and actions:
                self._check_solution_after_play(env_seed, actions, moves)
        except (EnvTimeoutError, EnvMemoryError, EnvCrashError) as error:
            self._halted = Counterexample("fuzz_no_hang", env_seed, list(actions), len(actions) or None,
                                          "every call to finish within the limits", str(error))

    # ------------------------------------------------------------------ the properties
    def _reset(self, env: EnvSession | SiblingInstance, env_seed: int, actions: list[str]) -> str:
        try:
            return env.reset(env_seed).observation
        except EnvCodeError as error:
            self._fail("fuzz_no_exceptions", env_seed, actions, None, "reset() to return normally",
                       f"{error.exc_type}: {error.exc_message}", error.traceback)
        except ContractViolation as violation:
            self._reset_violation(env_seed, actions, violation)
        raise AssertionError("unreachable")

    def _reset_violation(self, env_seed: int, actions: list[str], violation: ContractViolation | None) -> None:
        self._fail("fuzz_return_types", env_seed, actions, None, "(str, dict) from reset()", str(violation))

    def _step(self, env: EnvSession | SiblingInstance, env_seed: int, actions: list[str]) -> StepResult:
        turn = len(actions)
        try:
            step = env.step(actions[-1])
        except EnvCodeError as error:
            self._fail("fuzz_no_exceptions", env_seed, actions, turn, "step() to return normally",
                       f"{error.exc_type}: {error.exc_message}", error.traceback)
        except ContractViolation as violation:
            self._step_violation(env_seed, actions, violation)
        self.report.steps += 1
        if not _finite_in(step.reward, self.reward_range):
            self._step_reward_violation(env_seed, actions, step)
        return step

    def _step_violation(self, env_seed: int, actions: list[str], violation: ContractViolation | None) -> None:
        turn = len(actions)
        if violation is not None and violation.check == "reward_range":  # sessions refuse non-finite rewards
            self._fail("fuzz_reward_range", env_seed, actions, turn, "a finite reward", str(violation))
        self._fail("fuzz_return_types", env_seed, actions, turn, "(str, float, bool, bool, dict) from step()",
                   str(violation))

    def _not_terminated(self, env_seed: int, actions: list[str]) -> None:
        self._fail("fuzz_terminates", env_seed, actions, len(actions),
                   f"the episode to end by step {self.turn_limit} (max_turns)", "terminated=False and truncated=False")

    def _check_post_episode(self, env_seed: int, actions: list[str], action: str) -> None:
        try:
            after = self.env.step(action)
        except EnvCodeError as error:
            self._fail("fuzz_post_episode", env_seed, actions + [action], len(actions) + 1,
                       "a step after the end to return (obs, 0.0, ...) without raising",
                       f"{error.exc_type}: {error.exc_message}", error.traceback)
        except ContractViolation as violation:
            self._fail("fuzz_return_types", env_seed, actions + [action], len(actions) + 1,
                       "(str, float, bool, bool, dict) from step()", str(violation))
        self.report.steps += 1
        self._post_episode_violation(env_seed, actions + [action], after)

    def _post_episode_violation(self, env_seed: int, actions: list[str], after: StepResult) -> None:
        if after.reward != 0.0 or not (after.terminated or after.truncated):
            self._fail("fuzz_post_episode", env_seed, actions, len(actions),
                       "reward 0.0 and terminated or truncated still True after the episode ended",
                       f"reward {after.reward!r}, terminated={after.terminated}, truncated={after.truncated}")

    def _audit(self, env_seed: int, actions: list[str]) -> None:
        """Self-contained trajectory checks on fresh modules (see the module docstring)."""
        with self.open_fresh() as first:
            original, ended = self._play_episode(first, env_seed, actions)
            if ended:  # a step after the end may leave state behind: repeat the last action once
                played = actions[: len(original) - 1]
                self._step(first, env_seed, played + [played[-1]])
            again = self._play(first, env_seed, actions)
            neighbour = self._play(first.spawn_sibling(), env_seed, actions)
        with self.open_fresh() as second:
            independent = self._play(second, env_seed, actions)
        for (prop, expected, why, scenario), other in zip(_AUDIT_CHECKS, (independent, again, neighbour)):
            self._compare(prop, env_seed, actions, original, other, expected, why, scenario)

    def _compare(self, prop: str, env_seed: int, actions: list[str], original: list[str], other: list[str],
                 expected: str, why: str, scenario: str) -> None:
        index = next((i for i, (a, b) in enumerate(zip(original, other)) if a != b), None)
        if index is None and len(original) != len(other):
            index = min(len(original), len(other))
        if index is not None:
            ours = original[index] if index < len(original) else "<episode over>"
            theirs = other[index] if index < len(other) else "<episode over>"
            ours, theirs = _around_difference(ours, theirs)
            self._fail(prop, env_seed, actions, index, f"{expected}: {ours}", f"{theirs} {why}",
                       f"Scenario: {scenario}.")

    def _check_solution_after_play(self, env_seed: int, actions: list[str], moves: list[str]) -> None:
        """solution() asked after an episode was played and reset(seed) must still be a winning one.

        The feasibility tier replays solutions of freshly reset instances; what it cannot see is a
        solution() that reads state an earlier episode left behind (a counter reset() forgets).
        """
        self._reset(self.env, env_seed, actions)
        try:
            solution = self.env.solution()
        except EnvCodeError as error:
            self._fail("fuzz_feasible", env_seed, actions, None, "solution() after reset(seed) to return normally",
                       f"{error.exc_type}: {error.exc_message}", error.traceback)
        self._judge_solution(env_seed, actions, moves, solution)

    def _judge_solution(self, env_seed: int, actions: list[str], moves: list[str], solution: Any) -> None:
        again = solution_to_actions(solution, tool_use=self.tool_use) if solution else []
        if again == moves:
            return
        steps = self._scripted_steps(self.env, env_seed, again) if again else []
        rewards = [step.reward for step in steps]
        if steps and steps[-1].done and is_win(rewards, steps[-1].terminated):
            return
        self._fail("fuzz_feasible", env_seed, actions, None,
                   "solution(), asked again after these actions and reset(seed), to still win",
                   f"a different solution {_short(again)} that does not win (rewards {rewards})",
                   "Scenario: play the actions, call reset(seed), then solution(), and replay what it returns.")

    def _check_feasible(self, env_seed: int, moves: list[str]) -> None:
        if not moves:
            return  # no solution to replay (third-party environments often have none)
        if env_seed in self._feasibility_checked or len(self._feasibility_checked) >= \
                self.config.feasibility_seeds + self._verified_count:
            return
        self._feasibility_checked.add(env_seed)
        trajectory_steps = self._scripted_steps(self.env, env_seed, moves)
        rewards = [step.reward for step in trajectory_steps]
        if trajectory_steps and trajectory_steps[-1].done and is_win(rewards, trajectory_steps[-1].terminated):
            return
        self._feasibility_checked.discard(env_seed)  # let the shrinker retry this seed
        self._fail("fuzz_feasible", env_seed, moves, len(rewards) or None,
                   "replaying solution() to win (terminated with reward 1.0)",
                   f"rewards {rewards} without a win")

    # ------------------------------------------------------------------ helpers
    def _solution_moves(self, env_seed: int) -> list[str]:
        if env_seed not in self._solutions:
            self._reset(self.env, env_seed, [])
            try:
                solution = self.env.solution()
            except EnvCodeError as error:
                self._fail("fuzz_no_exceptions", env_seed, [], None, "solution() to return normally",
                           f"{error.exc_type}: {error.exc_message}", error.traceback)
            self._solutions[env_seed] = solution_to_actions(solution, tool_use=self.tool_use) if solution else []
        return self._solutions[env_seed]

    def _action_mix(self) -> ActionMix:
        if self._mix is None:
            self._mix = ActionMix(self.env.tools() if self.tool_use else None)
        return self._mix

    def _play(self, env: EnvSession | SiblingInstance, env_seed: int, actions: list[str]) -> list[str]:
        """The trajectory of a scripted episode, in one round trip when nothing goes wrong."""
        return self._play_episode(env, env_seed, actions)[0]

    def _play_episode(
        self, env: EnvSession | SiblingInstance, env_seed: int, actions: list[str]
    ) -> tuple[list[str], bool]:
        """(trajectory, whether the episode ended)."""
        try:
            first, steps = env.play(env_seed, actions)
        except (EnvCodeError, ContractViolation):
            steps = None  # replay step by step below to pin the failure to its step
        if steps is not None and all(_finite_in(s.reward, self.reward_range) for s in steps):
            self.report.steps += len(steps)
            return [repr(first.observation)] + [_key(step) for step in steps], bool(steps) and steps[-1].done
        trajectory, ended = [repr(self._reset(env, env_seed, actions))], False
        for index in range(1, len(actions) + 1):
            step = self._step(env, env_seed, actions[:index])
            trajectory.append(_key(step))
            if step.done:
                ended = True
                break
        return trajectory, ended

    def _scripted_steps(self, env: EnvSession, env_seed: int, actions: list[str]) -> list[StepResult]:
        try:
            _, steps = env.play(env_seed, actions)
        except (EnvCodeError, ContractViolation):
            self._reset(env, env_seed, [])
            steps = []
            for index in range(1, len(actions) + 1):  # raises the precise violation
                steps.append(self._step(env, env_seed, actions[:index]))
                if steps[-1].done:
                    break
        for index, step in enumerate(steps, start=1):
            if not _finite_in(step.reward, self.reward_range):
                self._step_reward_violation(env_seed, actions[:index], step)
        self.report.steps += len(steps)
        return steps

    def _step_reward_violation(self, env_seed: int, actions: list[str], step: StepResult) -> None:
        low, high = self.reward_range
        self._fail("fuzz_reward_range", env_seed, actions, len(actions), f"a finite reward in [{low:g}, {high:g}]",
                   f"reward {step.reward!r}")

    def _fail(self, prop: str, env_seed: int, actions: list[str], step: int | None, expected: str, got: str,
              detail: str | None = None) -> None:
        got = got.rstrip(".")
        raise _VIOLATION_TYPES[prop](Counterexample(prop, env_seed, list(actions), step, expected, got, detail))


def fuzz_environment(
    backend: Any,
    source: str,
    *,
    class_name: str | None = None,
    max_turns: int | None = None,
    init_kwargs: dict[str, Any] | None = None,
    reward_range: tuple[float, float] | None = None,
    config: FuzzConfig | None = None,
) -> FuzzReport:
    """Fuzz ``source`` on ``backend``. Raises ValueError if the environment does not even load."""

    def open_fresh() -> EnvSession:
        return backend.open_session(source, class_name=class_name, max_turns=max_turns, init_kwargs=init_kwargs)

    try:
        primary = open_fresh()
    except (EnvCodeError, EnvLoadError, EnvTimeoutError, EnvMemoryError, EnvCrashError) as error:
        raise ValueError(f"the environment does not load: {error}") from None
    limits = getattr(backend, "limits", None)
    timeout = getattr(limits, "call_timeout_s", 10.0) or 10.0
    with primary:
        turn_limit = primary.loaded.max_turns or max_turns or DEFAULT_MAX_TURNS
        bounds = reward_range or primary.loaded.reward_range or DEFAULT_REWARD_RANGE
        return Fuzzer(primary, open_fresh, turn_limit=turn_limit, reward_range=bounds, config=config,
                      batch_budget_s=0.25 * timeout).run()


__all__ = ["FuzzConfig", "FuzzReport", "Fuzzer", "fuzz_environment"]
