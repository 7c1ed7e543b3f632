"""Property-based fuzzing of one environment with Hypothesis.

Hypothesis runs on the host and draws, for each example, a seed, an episode length and one action per
turn (from ``strategies.actions``, which looks at the current observation). The environment runs in
whatever backend the caller chose. Each example checks every property in ``FUZZ_PROPERTIES``; the
first violation is shrunk by Hypothesis to a minimal seed and action sequence, which is reported as a
``Counterexample`` ready for a designer repair turn.

Per-step properties (no exceptions, types, reward range, termination, behaviour after the end) are
checked on every example, on one long-lived instance. The properties that compare trajectories
(determinism, reset isolation, instance isolation) are checked by an *audit* that is self-contained,
so that Hypothesis can replay and shrink it: two brand-new sessions (fresh modules) play the example's
actions; the first plays them twice with a reset in between and then lets a second instance in the
same module play them. Audits cost two session starts, so they run on one example in
``audit_every`` (which ones is drawn from the data, so a shrunk replay audits the same way). The
solution is replayed on at most ``feasibility_seeds`` distinct fuzzed seeds.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hypothesis import HealthCheck, Phase, Verbosity, given, seed, settings
from hypothesis import strategies as st
from hypothesis.errors import HypothesisException

from spade_envs.contract.actions import solution_to_actions
from spade_envs.contract.episode import DEFAULT_MAX_TURNS, DEFAULT_REWARD_RANGE, is_win
from spade_envs.fuzz.counterexample import FUZZ_PROPERTIES, Counterexample
from spade_envs.fuzz.strategies import ActionMix
from spade_envs.runtime.errors import (
    ContractViolation,
    EnvCodeError,
    EnvCrashError,
    EnvLoadError,
    EnvMemoryError,
    EnvTimeoutError,
)
from spade_envs.runtime.replies import StepResult
from spade_envs.runtime.session import EnvSession, SiblingInstance


@dataclass(frozen=True)
class FuzzConfig:
    examples: int = 100
    """Hypothesis examples (episodes) to generate; shrinking a failure adds more."""
    seed: int = 0
    """Seed of the fuzzer itself: the same seed and budget give the same verdict."""
    env_seeds: int = 8
    """Environment seeds are drawn from 0..env_seeds-1: the action sequences matter more than the seed,
    and every new seed costs a solution() call (expensive for planners: a BFS or a Mastermind solver)."""
    feasibility_seeds: int = 8
    audit_every: int = 5
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


def _finite_in(reward: float, bounds: tuple[float, float]) -> bool:
    return math.isfinite(reward) and bounds[0] - 1e-9 <= reward <= bounds[1] + 1e-9


def _around_difference(a: str, b: str, width: int = 160) -> tuple[str, str]:
    """The two texts cut to ``width`` characters around where they first differ (long observations
    often share their first hundreds of characters)."""
    first = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    start = max(0, first - width // 4)
    prefix = "..." if start else ""
    return prefix + a[start : start + width], prefix + b[start : start + width]


def _key(step: StepResult) -> str:
    return repr((step.observation, step.reward, step.terminated, step.truncated, sorted(step.info.items(), key=repr)))


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
    ) -> None:
        self.env, self.open_fresh = primary, open_fresh
        self.turn_limit = turn_limit
        self.reward_range = reward_range
        self.config = config or FuzzConfig()
        self.tool_use = primary.loaded.tool_use
        self.report = FuzzReport()
        self._mix: ActionMix | None = None
        self._solutions: dict[int, list[str]] = {}
        self._feasibility_checked: set[int] = set()
        self._halted: Counterexample | None = None

    # ------------------------------------------------------------------ entry point
    def run(self) -> FuzzReport:
        started = time.perf_counter()
        phases = [Phase.generate, Phase.shrink] if self.config.shrink else [Phase.generate]

        @settings(
            max_examples=self.config.examples,
            database=None,
            deadline=None,
            phases=phases,
            verbosity=Verbosity.quiet,
            report_multiple_bugs=False,
            suppress_health_check=list(HealthCheck),
        )
        @given(st.data())
        def property_test(data: st.DataObject) -> None:
            self._example(data)

        try:
            seed(self.config.seed)(property_test)()
        except _Violation as violation:
            self.report.counterexamples.append(violation.counterexample)
        except HypothesisException as error:
            # Hypothesis noticed that re-running an example did not do the same thing. After a hang we
            # stop drawing on purpose. Otherwise the first run's violation is the finding (it is carried
            # inside a FlakyFailure); without one, the flakiness itself is reported.
            carried = [e for e in getattr(error, "exceptions", ()) if isinstance(e, _Violation)]
            if carried and self._halted is None:
                self.report.counterexamples.append(carried[0].counterexample)
            elif self._halted is None and not self.report.counterexamples:
                self.report.counterexamples.append(Counterexample(
                    "fuzz_determinism", None, [], None,
                    "re-running the same generated episode to behave the same",
                    f"Hypothesis reported flaky behaviour ({type(error).__name__})"))
        if self._halted is not None:
            self.report.counterexamples.append(self._halted)
        self.report.seconds = time.perf_counter() - started
        return self.report

    # ------------------------------------------------------------------ one example
    def _example(self, data: st.DataObject) -> None:
        if self._halted is not None:
            return  # a hang or crash was found: do not spend minutes shrinking timeouts
        self.report.examples += 1
        env_seed = data.draw(st.integers(0, self.config.env_seeds - 1), label="seed")
        length = data.draw(st.integers(1, self.turn_limit + 1), label="length")
        # Whether to audit is drawn too, so a shrunk replay of this example audits the same way (a counter
        # would make shrinking flaky); shrinking toward 0 turns the audit on.
        audit = data.draw(st.integers(0, self.config.audit_every - 1), label="audit") == 0
        actions: list[str] = []
        try:
            moves = self._solution_moves(env_seed)
            self._check_feasible(env_seed, moves)
            observation = self._reset(self.env, env_seed, actions)
            for turn in range(1, length + 1):
                action = self._action_mix().draw(data, observation, moves, f"action {turn}")
                actions.append(action)
                step = self._step(self.env, env_seed, actions)
                observation = step.observation
                if step.done:
                    self._check_post_episode(env_seed, actions, action)
                    break
                if turn >= self.turn_limit:
                    self._fail("fuzz_terminates", env_seed, actions, turn,
                               f"the episode to end by step {self.turn_limit} (max_turns)",
                               "terminated=False and truncated=False")
            if audit:
                self._audit(env_seed, actions)
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
            self._fail("fuzz_return_types", env_seed, actions, None, "(str, dict) from reset()", str(violation))
        raise AssertionError("unreachable")

    def _step(self, env: EnvSession | SiblingInstance, env_seed: int, actions: list[str]) -> StepResult:
        turn = len(actions)
        try:
            step = env.step(actions[-1])
        except EnvCodeError as error:
            self._fail("fuzz_no_exceptions", env_seed, actions, turn, "step() to return normally",
                       f"{error.exc_type}: {error.exc_message}", error.traceback)
        except ContractViolation as violation:
            if violation.check == "reward_range":  # sessions refuse non-finite rewards outright
                self._fail("fuzz_reward_range", env_seed, actions, turn, "a finite reward", str(violation))
            self._fail("fuzz_return_types", env_seed, actions, turn,
                       "(str, float, bool, bool, dict) from step()", str(violation))
        self.report.steps += 1
        if not _finite_in(step.reward, self.reward_range):
            low, high = self.reward_range
            self._fail("fuzz_reward_range", env_seed, actions, turn, f"a finite reward in [{low:g}, {high:g}]",
                       f"reward {step.reward!r}")
        return step

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
        if after.reward != 0.0 or not (after.terminated or after.truncated):
            self._fail("fuzz_post_episode", env_seed, actions + [action], len(actions) + 1,
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
        checks = (
            ("fuzz_determinism", independent, "a second, fresh instance to reproduce",
             "(randomness not derived from the seed: time, id(), hash() or an unseeded generator)",
             "play the actions on two fresh instances"),
            ("fuzz_reset_isolation", again, "after reset(seed) the same as the first episode",
             "(state from the first episode leaked through reset)",
             "play the actions (repeating the last one once after the episode ends), call reset(seed) on the "
             "same instance, play them again"),
            ("fuzz_instance_isolation", neighbour, "a second instance in the same module to match the first",
             "(instances share state through class attributes or module globals)",
             "play the actions on one instance, then create a second instance and play them again"),
        )
        for prop, other, expected, why, scenario in checks:
            index = next((i for i, (a, b) in enumerate(zip(original, other)) if a != b), None)
            if index is None and len(original) != len(other):
                index = min(len(original), len(other))
            if index is not None:
                ours = original[index] if index < len(original) else "<episode over>"
                theirs = other[index] if index < len(other) else "<episode over>"
                ours, theirs = _around_difference(ours, theirs)
                self._fail(prop, env_seed, actions, index, f"{expected}: {ours}", f"{theirs} {why}",
                           f"Scenario: {scenario}.")

    def _check_feasible(self, env_seed: int, moves: list[str]) -> None:
        if not moves:
            return  # no solution to replay (third-party environments often have none)
        if env_seed in self._feasibility_checked or len(self._feasibility_checked) >= self.config.feasibility_seeds:
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
    with primary:
        turn_limit = primary.loaded.max_turns or max_turns or DEFAULT_MAX_TURNS
        bounds = reward_range or primary.loaded.reward_range or DEFAULT_REWARD_RANGE
        return Fuzzer(primary, open_fresh, turn_limit=turn_limit, reward_range=bounds, config=config).run()
