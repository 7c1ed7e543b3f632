"""Dynamic checks: run the environment through an execution backend and hold it to the contract.

The checker only talks to ``ExecutionBackend``/``EnvSession``; which backend runs the code (in this
process, a child process, the WebAssembly sandbox) is the caller's choice. The checks go from cheap to
expensive and stop early when the environment cannot be run at all.

The central check is the feasibility certificate: replaying ``solution()`` from ``reset(seed)`` must
win on every checked seed. An environment nobody can win teaches nothing and inflates regret.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from spade_envs.checks.difficulty import trivial_win_rates
from spade_envs.checks.hints import find_hint_leak
from spade_envs.contract.actions import solution_to_actions
from spade_envs.contract.episode import DEFAULT_MAX_TURNS, DEFAULT_REWARD_RANGE, is_win
from spade_envs.contract.probes import GARBAGE_ACTIONS
from spade_envs.fuzz.counterexample import FUZZ_PROPERTIES
from spade_envs.fuzz.runner import FuzzConfig, Fuzzer
from spade_envs.runtime.backend import ExecutionBackend
from spade_envs.runtime.errors import (
    ContractViolation,
    EnvCodeError,
    EnvCrashError,
    EnvLoadError,
    EnvMemoryError,
    EnvTimeoutError,
)
from spade_envs.runtime.replies import StepResult
from spade_envs.runtime.session import EnvSession
from spade_envs.spec.models import CheckFailure


@dataclass(frozen=True)
class CheckConfig:
    """What the dynamic checks need to know; all fields have defaults that suit model-written code."""

    seeds: tuple[int, ...] = (0, 1, 2)
    max_turns: int | None = None
    """Passed to the constructor when set; otherwise the class default is used."""
    init_kwargs: dict[str, Any] = field(default_factory=dict)
    reward_range: tuple[float, float] | None = None
    """Overrides the environment's declared ``reward_range``."""
    hint: str | None = None
    """A hint to check for leaks (besides any the environment writes itself with ``hint()``)."""
    trivial_seeds: int = 25
    """Seeds on which the trivial policies play."""
    trivial_threshold: float = 0.05
    """A trivial policy winning this share of seeds or more makes the environment trivially solvable."""


class _Stop(Exception):
    """The environment cannot be run further (it timed out, crashed or ran out of memory)."""


class _CheckAborted(Exception):
    """The current check cannot go on; the reason was already recorded under another check."""


@dataclass
class DynamicResult:
    failures: list[CheckFailure] = field(default_factory=list)
    ran: dict[str, float] = field(default_factory=dict)  # check name -> milliseconds
    tier_ms: dict[str, float] = field(default_factory=dict)
    failed_tier: str | None = None
    class_name: str | None = None
    tool_use: bool | None = None

    def fail(self, check: str, message: str, *, line: int | None = None, detail: str | None = None,
             seed: int | None = None, actions: list[str] | None = None, step: int | None = None) -> None:
        # One finding per check: the first counterexample is what a designer needs to repair.
        if not self.failed(check):
            self.failures.append(CheckFailure(check=check, message=_flat(message), line=line, detail=detail,
                                              seed=seed, actions=actions, step=step))

    def failed(self, check: str) -> bool:
        return any(f.check == check for f in self.failures)


def _preview(text: str, limit: int = 160) -> str:
    """Shorten text for a one-line message."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _flat(text: str) -> str:
    """Messages are one line; multi-line evidence belongs in ``detail``."""
    return " ".join(text.split())


def _show_action(action: str, limit: int = 40) -> str:
    """An action as Python would write it, so '' and '  ' stay distinguishable."""
    shown = repr(action[:limit])
    return shown + ("..." if len(action) > limit else "")


def _same(a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
    """Trajectory steps compared with NaN equal to NaN (a NaN reward is reward_range's business)."""
    return repr(a) == repr(b)


class DynamicChecker:
    """Runs the dynamic checks for one source file against one backend."""

    def __init__(self, backend: ExecutionBackend, config: CheckConfig | None = None) -> None:
        self.backend = backend
        self.config = config or CheckConfig()

    def run(
        self,
        source: str,
        class_name: str | None = None,
        *,
        tiers: tuple[str, ...] = ("contract", "feasibility"),
        fuzz: FuzzConfig | None = None,
    ) -> DynamicResult:
        """Run the given tiers in order, stopping after the first one that records a failure."""
        result = DynamicResult()
        self._source, self._class_name, self._result = source, class_name, result
        self._solution_by_seed: dict[int, tuple[str, Any]] = {}
        sessions: list[EnvSession] = []
        started = time.perf_counter()
        try:
            with self._check("loads"):
                primary = self._open()
                sessions.append(primary)
            if result.failed("loads"):
                result.failed_tier = "contract"
                return result
            result.class_name, result.tool_use = primary.loaded.class_name, primary.loaded.tool_use
            self._turn_limit = primary.loaded.max_turns or self.config.max_turns or DEFAULT_MAX_TURNS
            self._reward_range = self.config.reward_range or primary.loaded.reward_range or DEFAULT_REWARD_RANGE
            sessions.append(self._open())
            for tier in tiers:
                failures_before = len(result.failures)
                try:
                    if tier == "contract":
                        self._contract(*sessions)
                    elif tier == "feasibility":
                        self._feasibility(sessions[0])
                    elif tier == "fuzz":
                        self._fuzz(*sessions, fuzz or FuzzConfig())
                finally:
                    result.tier_ms[tier] = (time.perf_counter() - started) * 1000
                    started = time.perf_counter()
                if len(result.failures) > failures_before:
                    result.failed_tier = tier
                    break
            result.ran.setdefault("timeout", 0.0)
            result.ran.setdefault("runtime_limit", 0.0)
        except _Stop:
            result.failed_tier = result.failed_tier or next((t for t in tiers if t not in result.tier_ms), tiers[-1])
        finally:
            for session in sessions:
                session.close()
        return result

    # ------------------------------------------------------------------ the checks, cheap to expensive
    def _contract(self, env: EnvSession, twin: EnvSession) -> None:
        seeds = list(self.config.seeds)
        with self._check("reset_returns"):
            first = env.reset(seeds[0]).observation
        if self._result.failed("reset_returns"):
            return
        with self._check("reset_deterministic"):
            self._reset_deterministic(env, twin, seeds[0], first)
        if self._result.tool_use:
            with self._check("tool_schemas"):
                self._tool_schemas(env, seeds[0])
        with self._check("solution_defined"):
            self._solution_by_seed = self._solutions(env, seeds)
        if len(seeds) > 1:
            with self._check("seeds_vary"):
                self._seeds_vary(self._solution_by_seed)
        with self._check("garbage_actions"):
            self._garbage_actions(env, seeds[0])
        with self._check("terminates"):
            for seed in seeds:
                self._terminates(env, seed)
        with self._check("trajectory_deterministic"):
            self._trajectory_deterministic(env, twin, seeds[0], self._solution_by_seed.get(seeds[0], ("", None))[1])
        for check in ("step_returns", "reward_range"):
            self._result.ran.setdefault(check, 0.0)

    def _feasibility(self, env: EnvSession) -> None:
        with self._check("feasible"):
            for seed, (_, solution) in self._solution_by_seed.items():
                self._feasible(env, seed, solution)
        with self._check("trivially_solvable"):
            self._trivially_solvable(env)
        with self._check("hint_leak"):
            checked = self._hint_leak(env)
        if not checked:
            self._result.ran.pop("hint_leak", None)  # no hint to check: reported as skipped

    def _trivially_solvable(self, env: EnvSession) -> None:
        seeds = list(range(1000, 1000 + self.config.trivial_seeds))
        moves = [m for _, sol in self._solution_by_seed.values() if sol
                 for m in solution_to_actions(sol, tool_use=bool(self._result.tool_use))]
        rates = trivial_win_rates(env, seeds, self._turn_limit, moves, bool(self._result.tool_use),
                                  stop_at=self.config.trivial_threshold)
        worst, rate = max(rates.items(), key=lambda item: item[1])
        if rate >= self.config.trivial_threshold:
            self._result.fail(
                "trivially_solvable",
                f"The trivial policy {worst} won {rate:.0%} of {len(seeds)} seeds (limit "
                f"{self.config.trivial_threshold:.0%}); make winning depend on the seed's hidden state and on "
                "reasoning, and do not reward repeated or random guesses.",
            )

    def _hint_leak(self, env: EnvSession) -> bool:
        """Check the configured hint against every seed's answer, and the environment's own ``hint()``
        (asked right after ``reset(seed)``, as a rollout would) against that seed's answer."""
        tool_use = bool(self._result.tool_use)
        checked = False
        for seed, (_, solution) in self._solution_by_seed.items():
            env.reset(seed)
            for hint, source in ((self.config.hint, "given"), (env.hint(), "hint()")):
                if not hint:
                    continue
                checked = True
                leak = find_hint_leak(hint, [solution], tool_use=tool_use)
                if leak:
                    self._result.fail("hint_leak", f"The {source} hint {_preview(hint, 80)!r} {leak} for seed {seed}; "
                                      "give the key insight, never the answer.")
                    return True
        return checked

    def _fuzz(self, env: EnvSession, twin: EnvSession, config: FuzzConfig) -> None:
        report = Fuzzer(env, self._open, turn_limit=self._turn_limit, reward_range=self._reward_range,
                        config=config).run()
        for example in report.counterexamples:
            self._result.fail(example.property, example.summary(), detail=example.feedback(), seed=example.seed,
                              actions=example.actions, step=example.step)
        for name in FUZZ_PROPERTIES:  # the properties share one run: its time is the fuzz tier's
            self._result.ran.setdefault(name, 0.0)

    def _reset_deterministic(self, env: EnvSession, twin: EnvSession, seed: int, first: str) -> None:
        other = twin.reset(seed).observation
        if other != first:
            self._result.fail(
                "reset_deterministic",
                f"Two instances reset with seed {seed} gave different observations "
                f"({_preview(first, 60)!r} vs {_preview(other, 60)!r}); draw all randomness from "
                "random.Random(seed) created in reset().",
            )
            return
        self._step(env, GARBAGE_ACTIONS[3])
        again = env.reset(seed).observation
        if again != first:
            self._result.fail(
                "reset_deterministic",
                f"reset(seed={seed}) after a step gave a different observation than the first reset; "
                "reset() must rebuild all episode state from the seed.",
            )

    def _tool_schemas(self, env: EnvSession, seed: int) -> None:
        env.reset(seed)
        tools = env.tools()
        if not tools:
            self._result.fail("tool_schemas", "get_tools() returned no tools; fill self._tools in reset().")
            return
        for tool in tools:
            function = tool.get("function") if isinstance(tool, dict) else None
            name = function.get("name") if isinstance(function, dict) else None
            parameters = function.get("parameters") if isinstance(function, dict) else None
            if not isinstance(name, str) or not name:
                self._result.fail("tool_schemas", "A tool has no name; use self._tools = {'name': {...}}.")
            elif not function.get("description"):
                self._result.fail("tool_schemas", f"Tool '{name}' has no description; say what it does.")
            elif not isinstance(parameters, dict) or parameters.get("type") != "object":
                self._result.fail(
                    "tool_schemas",
                    f"Tool '{name}' needs 'parameters' as a JSON schema object: "
                    "{'type': 'object', 'properties': {...}, 'required': [...]}.",
                )

    def _solutions(self, env: EnvSession, seeds: list[int]) -> dict[int, tuple[str, Any]]:
        solutions: dict[int, tuple[str, Any]] = {}
        for seed in seeds:
            observation = env.reset(seed).observation
            solution = env.solution()
            if solution is None or solution == "" or solution == []:
                self._result.fail(
                    "solution_defined",
                    f"solution() returned {solution!r} for seed {seed}; return the answer (puzzles) "
                    "or the list of winning actions (games).",
                )
                continue
            solutions[seed] = (observation, solution)
        return solutions

    def _seeds_vary(self, solutions: dict[int, tuple[str, Any]]) -> None:
        tasks = {(obs, json.dumps(sol, sort_keys=True, default=str)) for obs, sol in solutions.values()}
        if len(solutions) > 1 and len(tasks) == 1:
            self._result.fail(
                "seeds_vary",
                f"Seeds {sorted(solutions)} all gave the same task and solution; generate the task "
                "from the seed so that different seeds give different tasks.",
            )

    def _feasible(self, env: EnvSession, seed: int, solution: Any) -> None:
        actions = solution_to_actions(solution, tool_use=bool(self._result.tool_use))
        if len(actions) > self._turn_limit:
            self._result.fail(
                "feasible",
                f"solution() for seed {seed} needs {len(actions)} actions but max_turns is "
                f"{self._turn_limit}; shorten the solution or raise max_turns.",
            )
            return
        rewards: list[float] = []
        for index, (action, step) in enumerate(zip(actions, self._scripted(env, seed, actions, probe=False)), start=1):
            rewards.append(step.reward)
            if step.done:
                if is_win(rewards, step.terminated):
                    return
                how = "was truncated" if step.truncated and not step.terminated else f"ended with reward {step.reward:g}"
                self._result.fail(
                    "feasible",
                    f"Replaying solution() for seed {seed}: the episode {how} at action {index} of "
                    f"{len(actions)} ({_show_action(action, 60)}) instead of winning. Last observation: "
                    f"{_preview(step.observation)!r}. Make solution() return actions that win, and give "
                    "reward 1.0 with terminated=True on a win.",
                )
                return
        self._result.fail(
            "feasible",
            f"Replaying all {len(actions)} solution() actions for seed {seed} did not end the episode. "
            "Terminate with reward 1.0 when the task is solved.",
        )

    def _garbage_actions(self, env: EnvSession, seed: int) -> None:
        env.reset(seed)
        for action in GARBAGE_ACTIONS:
            if self._step(env, action).done:
                env.reset(seed)

    def _terminates(self, env: EnvSession, seed: int) -> None:
        for action in ("\\boxed{0}", "", "<tool_call>{}</tool_call>"):
            steps = self._scripted(env, seed, [action] * self._turn_limit)
            if not steps[-1].done:
                self._result.fail(
                    "terminates",
                    f"After {self._turn_limit} steps of {_show_action(action)} (seed {seed}) the episode had not ended; "
                    "count turns and return truncated=True when the count reaches max_turns.",
                )
                return
            self._step(env, action)  # a step after the end must not raise

    def _trajectory_deterministic(self, env: EnvSession, twin: EnvSession, seed: int, solution: Any) -> None:
        """Replay identical action scripts on two instances: solution moves mixed with probes, and wrong moves.

        Wrong moves matter: feedback on a mistake is where unseeded randomness usually hides.
        """
        moves = solution_to_actions(solution, tool_use=bool(self._result.tool_use)) if solution else []
        probes = list(GARBAGE_ACTIONS[2:6])
        mixed = [a for pair in zip(probes + [""] * len(moves), moves + [""] * len(probes)) for a in pair if a]
        wrong = ["\\boxed{0}", "\\boxed{1}", "\\boxed{A}", "\\boxed{yes}", "<answer>0</answer>"] * self._turn_limit
        for actions in (mixed[: self._turn_limit], wrong[: self._turn_limit]):
            first = self._play(env, seed, actions)
            second = self._play(twin, seed, actions)
            for index, (a, b) in enumerate(zip(first, second)):
                if not _same(a, b):
                    self._result.fail(
                        "trajectory_deterministic",
                        f"Replaying the same {len(actions)} actions from seed {seed} on two instances diverged "
                        f"at step {index}: {_preview(str(a), 80)!r} vs {_preview(str(b), 80)!r}. Avoid time, "
                        "id(), object hashes and random generators that reset() does not reseed.",
                    )
                    return

    # ------------------------------------------------------------------ helpers
    def _play(self, env: EnvSession, seed: int, actions: list[str]) -> list[tuple[Any, ...]]:
        first = env.reset(seed).observation
        steps = self._scripted(env, seed, actions)
        return [(first,)] + [(s.observation, s.reward, s.terminated, s.truncated) for s in steps]

    def _scripted(self, env: EnvSession, seed: int, actions: list[str], *, probe: bool = True) -> list[StepResult]:
        """reset(seed) and play ``actions`` until the episode ends, in one round trip when all goes well.

        If the batch raises, the episode is replayed step by step so the failure is pinned to its action.
        """
        try:
            _, steps = env.play(seed, actions)
        except (EnvCodeError, ContractViolation):
            env.reset(seed)
            steps = []
            for action in actions:
                steps.append(self._step(env, action, probe=probe))
                if steps[-1].done:
                    break
            return steps
        for action, step in zip(actions, steps):
            self._check_reward(action, step)
        return steps

    def _step(self, env: EnvSession, action: str, *, probe: bool = True) -> StepResult:
        """One step with its reward checked. A probe action that crashes the environment is a
        ``garbage_actions`` failure whichever check sent it; a crashing solution move belongs to the caller.
        """
        try:
            step = env.step(action)
        except EnvCodeError as error:
            if not probe:
                raise
            self._result.fail(
                "garbage_actions",
                f"step({_show_action(action)}) raised {error.exc_type}: {_preview(error.exc_message, 200)}. "
                "Treat unparseable or wrong actions as an invalid move: explain the format and give reward 0.",
                line=error.line,
                detail=error.traceback,
            )
            raise _CheckAborted from None
        self._check_reward(action, step)
        return step

    def _check_reward(self, action: str, step: StepResult) -> None:
        low, high = self._reward_range
        if not math.isfinite(step.reward):
            self._result.fail(
                "reward_range", f"step({_show_action(action)}) returned reward {step.reward}; rewards must be finite."
            )
        elif not low - 1e-9 <= step.reward <= high + 1e-9:
            self._result.fail(
                "reward_range",
                f"step({_show_action(action)}) returned reward {step.reward:g}, outside the declared range "
                f"[{low:g}, {high:g}]; keep rewards inside it or declare reward_range = (low, high).",
            )

    def _open(self) -> EnvSession:
        return self.backend.open_session(
            self._source,
            class_name=self._class_name,
            max_turns=self.config.max_turns,
            init_kwargs=self.config.init_kwargs,
        )

    @contextmanager
    def _check(self, name: str) -> Iterator[None]:
        """Time one check and turn runtime errors into findings; stop everything on a dead backend."""
        started = time.perf_counter()
        try:
            yield
        except _CheckAborted:
            pass
        except ContractViolation as violation:
            self._result.fail(violation.check, str(violation))
        except EnvCodeError as error:
            advice = (
                " The sandbox has only the allowlisted standard-library modules; environments that "
                "need others must run with --sandbox process."
                if error.exc_type == "ModuleNotFoundError" and self.backend.isolated
                else ""
            )
            self._result.fail(
                name,
                f"{error.phase}() raised {error.exc_type}: {_preview(error.exc_message, 200)}.{advice}",
                line=error.line,
                detail=error.traceback,
            )
        except EnvLoadError as error:
            self._result.fail("loads", f"The environment could not be loaded: {error}.")
        except EnvTimeoutError as error:
            self._result.fail("timeout", f"While checking {name}: {error}.")
            raise _Stop from None
        except (EnvMemoryError, EnvCrashError) as error:
            self._result.fail("runtime_limit", f"While checking {name}: {error}.")
            raise _Stop from None
        finally:
            self._result.ran[name] = self._result.ran.get(name, 0.0) + (time.perf_counter() - started) * 1000

