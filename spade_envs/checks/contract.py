"""The contract tier: the environment runs and keeps the contract's rules.

Each function is one check (or a small group) over a ``CheckRun``. Player-side checks use only the
calls rollouts make; the oracle session answers ``solution()`` and hosts sibling instances.
"""

from __future__ import annotations

import json
import math
import time
from typing import Any

from spade_envs.checks.context import MAX_TURNS_LIMIT, CheckRun, Stop, preview, show_action
from spade_envs.checks.leaks import action_content, answer_key, text_candidates
from spade_envs.contract.actions import solution_to_actions
from spade_envs.contract.probes import GARBAGE_ACTIONS
from spade_envs.runtime.errors import EnvTimeoutError
from spade_envs.runtime.limits import work_seconds
from spade_envs.runtime.session import EnvSession

BIG_INPUTS: tuple[str, ...] = (
    "\\boxed{2147483647}",
    "\\boxed{4294967295}",
    "\\boxed{-2147483648}",
    "\\boxed{1000000000000000000}",
    "\\boxed{" + "9" * 300 + "}",
    "\\boxed{" + "ab " * 5_000 + "}",
    "\\boxed{1e308}",
    "\\boxed{" + "(" * 300 + "}",
    " ".join(str(n) for n in range(2_000)),
)
"""Inputs whose cost a naive step grows with: huge numbers (trial division, range()), long strings."""


def contract_tier(run: CheckRun) -> None:
    config, result = run.config, run.result
    seeds = list(config.seeds)
    player = run.player
    for check in ("step_returns", "reward_range"):  # checked on every step the tiers make
        result.ran.setdefault(check, 0.0)
    with run.check("reset_returns"):
        first = player.reset(seeds[0]).observation
    if result.failed("reset_returns"):
        return
    with run.check("reset_deterministic"):
        _reset_deterministic(run, seeds[0], first)
    if run.tool_use:
        with run.check("tool_schemas"):
            _tool_schemas(run, seeds[0])
    if config.reference_solution:
        with run.check("solution_defined"):
            _solutions(run, seeds)
    if len(seeds) > 1:
        with run.check("seeds_vary"):
            _seeds_vary(run)
    with run.check("garbage_actions"):
        _garbage_actions(run, seeds[0])
    with run.check("step_budget"):
        _step_budget(run, seeds[0])
    with run.check("terminates"):
        for seed in seeds:
            _terminates(run, player, seed, run.turn_limit)
    with run.check("max_turns_honoured"):
        _max_turns_honoured(run, seeds)
    # Determinism, told apart by cause: two fresh sessions that disagree use randomness the seed does not
    # control; a used session that disagrees with a fresh one keeps state across resets; a fresh session
    # whose clock is moved and runs fast that disagrees reads the clock. Each comparison only means
    # something once the ones before it agree.
    completed: list[str] = []  # a comparison that could not finish (a step raised) says nothing
    with run.temporary() as opened:
        with run.check("trajectory_deterministic"):
            fresh, control = opened(), opened()
            _compare_trajectories(run, fresh, control, seeds[0], "trajectory_deterministic")
            completed.append("trajectory_deterministic")
        if completed != ["trajectory_deterministic"] or result.failed("trajectory_deterministic"):
            return
        with run.check("reset_deterministic"):
            _compare_trajectories(run, run.player, fresh, seeds[0], "reset_deterministic")
            completed.append("reset_deterministic")
        if len(completed) < 2 or result.failed("reset_deterministic"):
            return
        with run.check("wall_clock"):
            # The control has played episodes before, which reset_deterministic has just shown not to matter.
            clock_twin = opened(clock_offset_s=config.clock_offset_s, clock_tick_s=config.clock_tick_s)
            _compare_trajectories(run, control, clock_twin, seeds[0], "wall_clock")
            completed.append("wall_clock")
    if len(completed) < 3 or result.failed("wall_clock"):
        return
    with run.check("instance_isolation"):
        _instance_isolation(run, seeds)


def check_declarations(run: CheckRun) -> None:
    """What the class declares: a turn budget the host can hold to, and a reward range inside [-1, 1]."""
    loaded = run.oracle.loaded
    declared = loaded.max_turns
    if declared is not None and not 1 <= declared <= MAX_TURNS_LIMIT:
        run.result.fail("loads", f"max_turns must be between 1 and {MAX_TURNS_LIMIT}; the environment has "
                                 f"{preview(str(declared), 40)}. Give __init__ a small positive default.")
    bounds = loaded.reward_range
    if bounds is not None and run.config.reward_range is None:
        low, high = bounds
        if not (math.isfinite(low) and math.isfinite(high)) or low > high or low < -1.0 or high > 1.0:
            run.result.fail(
                "reward_range",
                f"reward_range is declared as ({preview(repr(low), 30)}, {preview(repr(high), 30)}); it must be "
                "finite, ordered and inside [-1, 1] (returns are clipped there, so larger rewards distort "
                "training). Declare e.g. reward_range = (0.0, 1.0).")


def _reset_deterministic(run: CheckRun, seed: int, first: str) -> None:
    other = run.twin.reset(seed).observation
    if other != first:
        run.result.fail(
            "reset_deterministic",
            f"Two fresh instances reset with seed {seed} gave different observations "
            f"({preview(first, 60)!r} vs {preview(other, 60)!r}): the task uses randomness that does not come "
            "from the seed. Draw all randomness from random.Random(seed) created in reset().")
        return
    run.step(run.player, GARBAGE_ACTIONS[3])
    again = run.player.reset(seed).observation
    if again != first:
        run.result.fail(
            "reset_deterministic",
            f"reset(seed={seed}) after one step gave a different observation than the first reset(seed={seed}), "
            f"while two fresh instances agree: state is carried over the reset ({preview(again, 60)!r} vs "
            f"{preview(first, 60)!r}). Rebuild every episode attribute from the seed in reset().")
        return
    # The hidden task too: the same seed twice in one instance must give the same solution.
    run.oracle.reset(seed)
    before = _canonical(run.oracle.solution())
    run.oracle.reset(seed)
    after = _canonical(run.oracle.solution())
    if before != after:
        run.result.fail(
            "reset_deterministic",
            f"reset(seed={seed}) twice in one instance gave different hidden tasks (solution() {preview(before, 50)} "
            f"then {preview(after, 50)}): reset() does not rebuild the task from its seed (a generator created once "
            "in __init__, or state kept from the last episode). Create rng = random.Random(seed) in reset() and "
            "draw the whole task from it.")


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=str)[:100_000]


def _tool_schemas(run: CheckRun, seed: int) -> None:
    run.player.reset(seed)
    tools = run.player.tools()
    if not tools:
        run.result.fail("tool_schemas", "get_tools() returned no tools; fill self._tools in reset().")
        return
    for tool in tools[:100]:
        function = tool.get("function") if isinstance(tool, dict) else None
        name = function.get("name") if isinstance(function, dict) else None
        parameters = function.get("parameters") if isinstance(function, dict) else None
        if not isinstance(name, str) or not name:
            run.result.fail("tool_schemas", "A tool has no name; use self._tools = {'name': {...}}.")
        elif not function.get("description"):
            run.result.fail("tool_schemas", f"Tool {preview(name, 40)!r} has no description; say what it does.")
        elif not isinstance(parameters, dict) or parameters.get("type") != "object":
            run.result.fail(
                "tool_schemas",
                f"Tool {preview(name, 40)!r} needs 'parameters' as a JSON schema object: "
                "{'type': 'object', 'properties': {...}, 'required': [...]}.")
        elif not isinstance(parameters.get("properties", {}), dict) or not all(
                isinstance(r, str) for r in (parameters.get("required") or [])) or not isinstance(
                parameters.get("required") or [], list):
            run.result.fail(
                "tool_schemas",
                f"Tool {preview(name, 40)!r} has a malformed schema: 'properties' must map names to schemas and "
                "'required' must be a list of property names.")


def _solutions(run: CheckRun, seeds: list[int]) -> None:
    for seed in seeds:
        run.oracle.reset(seed)
        solution = run.oracle.solution()
        if solution is None or solution == "" or solution == []:
            run.result.fail(
                "solution_defined",
                f"solution() returned {preview(repr(solution), 30)} for seed {seed}; return the answer (puzzles) "
                "or the list of winning actions (games).", seed=seed)
            continue
        run.solutions[seed] = solution


def _seeds_vary(run: CheckRun) -> None:
    tasks = set()
    for seed, solution in run.solutions.items():
        observation = run.player.reset(seed).observation
        tasks.add((observation, json.dumps(solution, sort_keys=True, default=str)[:100_000]))
    if len(run.solutions) > 1 and len(tasks) == 1:
        run.result.fail(
            "seeds_vary",
            f"Seeds {sorted(run.solutions)} all gave the same task and solution; generate the task "
            "from the seed so that different seeds give different tasks.")


def _garbage_actions(run: CheckRun, seed: int) -> None:
    run.player.reset(seed)
    for action in GARBAGE_ACTIONS:
        if run.step(run.player, action).done:
            run.player.reset(seed)


def _step_budget(run: CheckRun, seed: int) -> None:
    """A step must cost about the same whatever the action: time each of the inputs a naive step is slow on."""
    budget = run.config.step_budget_s or max(0.5, run.call_timeout() / 5)
    inputs = list(BIG_INPUTS)
    if run.tool_use:
        inputs = [_big_tool_call(tool) for tool in (run.player.tools() or [])[:10]] + inputs[:4]
    run.player.reset(seed)
    for action in [a for a in inputs if a]:
        started = time.perf_counter()
        try:
            step = run.step(run.player, action)
        except EnvTimeoutError:
            run.result.fail(
                "step_budget",
                f"step({show_action(action)}) ran past the {run.call_timeout():g} s limit. Make the work of a step "
                "independent of the size of the numbers or text in the action: check the format first and bound "
                "every loop.", seed=seed, actions=[action])
            raise Stop from None
        elapsed = work_seconds(run.player.last_instructions, time.perf_counter() - started)
        if elapsed > budget:
            run.result.fail(
                "step_budget",
                f"step({show_action(action)}) took {elapsed:.1f} s of work; one step may take {budget:g} s at most (the hard "
                f"limit is {run.call_timeout():g} s). Make the work of a step independent of the size of the numbers "
                "or text in the action: check the format first and bound every loop.", seed=seed, actions=[action])
            return
        if step.done:
            run.player.reset(seed)


def _big_tool_call(tool: Any) -> str:
    function = tool.get("function") if isinstance(tool, dict) else None
    if not isinstance(function, dict) or not isinstance(function.get("name"), str):
        return ""
    parameters = function.get("parameters") if isinstance(function.get("parameters"), dict) else {}
    properties = parameters.get("properties") if isinstance(parameters.get("properties"), dict) else {}
    arguments = {}
    for name, schema in list(properties.items())[:8]:
        kind = schema.get("type") if isinstance(schema, dict) else None
        arguments[str(name)] = 2147483647 if kind in ("integer", "number") else "x" * 5_000
    return "<tool_call>" + json.dumps({"name": function["name"], "arguments": arguments}) + "</tool_call>"


def _terminates(run: CheckRun, session: EnvSession, seed: int, turn_limit: int) -> None:
    for action in ("\\boxed{0}", "", "<tool_call>{}</tool_call>"):
        steps = run.scripted(session, seed, [action] * turn_limit)
        if not steps[-1].done:
            run.result.fail(
                "terminates",
                f"After {turn_limit} steps of {show_action(action)} (seed {seed}) the episode had not ended; "
                "count turns and return truncated=True when the count reaches max_turns.", seed=seed)
            return
        run.step(session, action)  # a step after the end must not raise


def _max_turns_honoured(run: CheckRun, seeds: list[int]) -> None:
    """Construct with other turn budgets: episodes must end by them, and the task must not change with them.

    A smaller budget catches a constructor that ignores its argument (the episode runs on to the default);
    a larger one catches a hard-coded truncation at the default. One-shot tasks, which end on the first
    answer whatever the budget, are left alone.
    """
    current = run.turn_limit
    budgets = ([current // 2] if current >= 4 else []) + [
        run.config.second_max_turns if run.config.second_max_turns != current else 12]
    for other in budgets:
        if other == current:
            continue
        with run.temporary() as opened:
            _one_budget(run, seeds, current, other, opened(max_turns=other))
        if run.result.failed("max_turns_honoured"):
            return


def _one_budget(run: CheckRun, seeds: list[int], current: int, other: int, session: EnvSession) -> None:
    """One other turn budget: the episode ends by it, and the first observations do not show the answer."""
    loaded = session.loaded.max_turns
    if loaded is not None and loaded != other:
        run.result.fail(
            "max_turns_honoured",
            f"The constructor was given max_turns={other} but the environment set max_turns={loaded}; store the "
            "argument: self.max_turns = max_turns.")
        return
    steps = run.scripted(session, seeds[0], ["\\boxed{0}"] * (max(other, current) + 1))
    ended_at = len(steps) if steps and steps[-1].done else None
    if ended_at is None or ended_at > other:
        run.result.fail("max_turns_honoured",
                        f"Constructed with max_turns={other}, the episode was still running after {other} steps "
                        f"(it ended {'after ' + str(ended_at) if ended_at else 'never'}); count turns against "
                        "self.max_turns, the value given to __init__, not a fixed number.", seed=seeds[0])
        return
    last = steps[-1]
    if last.truncated and not last.terminated and ended_at == current != other and ended_at > 1:
        run.result.fail("max_turns_honoured",
                        f"Constructed with max_turns={other}, the episode was truncated after {current} steps, the "
                        "default budget; truncate when the turn count reaches self.max_turns.", seed=seeds[0])
        return
    for seed in seeds:
        solution = run.solutions.get(seed)
        actions = solution_to_actions(solution, tool_use=run.tool_use) if solution else []
        if not actions:
            continue
        answer = answer_key(action_content(actions[-1]))
        base = {c.key for c in text_candidates(run.player.reset(seed).observation)}
        changed = session.reset(seed).observation
        if len(answer) >= 2 and answer not in base and answer in {c.key for c in text_candidates(changed)}:
            run.result.fail(
                "max_turns_honoured",
                f"With max_turns={other} instead of {current}, seed {seed}'s first observation shows the answer "
                f"({preview(changed, 80)!r}); the turn budget may change how many turns the agent has, never "
                "what the task reveals.", seed=seed)
            return


_WHY = {
    "trajectory_deterministic": (
        "on two fresh instances",
        ("The environment uses randomness the seed does not control: draw everything from random.Random(seed) "
         "created in reset(), and avoid id(), object hashes and module-level random functions."),
    ),
    "reset_deterministic": (
        "on an instance that had played other episodes and on a fresh one",
        ("State survives reset(): rebuild every episode attribute in reset(), and keep nothing that changes on "
         "the class or in module globals."),
    ),
    "wall_clock": (
        "on two instances, one with its clock moved by days and running fast",
        "The environment reads the clock (time, datetime); derive everything from the seed and the actions.",
    ),
}
"""Where two trajectories were played, and what their difference means, for each of the comparisons."""


def _compare_trajectories(run: CheckRun, first_session: EnvSession, second_session: EnvSession, seed: int,
                          check: str) -> None:
    """Replay identical action scripts on two sessions: solution moves mixed with probes, and wrong moves.

    Wrong moves matter: feedback on a mistake is where unseeded randomness usually hides. What a
    difference means depends on the two sessions (``_WHY``).
    """
    solution = run.solutions.get(seed)
    moves = solution_to_actions(solution, tool_use=run.tool_use) if solution else []
    probes = list(GARBAGE_ACTIONS[2:6])
    mixed = [a for pair in zip(probes + [""] * len(moves), moves + [""] * len(probes)) for a in pair if a]
    wrong = ["\\boxed{0}", "\\boxed{1}", "\\boxed{A}", "\\boxed{yes}", "<answer>0</answer>"] * run.turn_limit
    scripts = [mixed[: run.turn_limit], wrong[: run.turn_limit], moves[: run.turn_limit]]
    where, why = _WHY[check]
    for actions in scripts:
        if not actions:
            continue
        first = _play(run, first_session, seed, actions)
        second = _play(run, second_session, seed, actions)
        for index, (a, b) in enumerate(zip(first, second)):
            if repr(a) != repr(b):
                run.result.fail(
                    check,
                    f"Replaying the same {len(actions)} actions from seed {seed} {where} diverged at step {index}: "
                    f"{preview(str(a), 70)!r} vs {preview(str(b), 70)!r}. {why}",
                    seed=seed, actions=actions, step=index or None)
                return


def _play(run: CheckRun, session: EnvSession, seed: int, actions: list[str]) -> list[tuple[Any, ...]]:
    first = session.reset(seed).observation
    steps = run.scripted(session, seed, actions)
    return [(first,)] + [(s.observation, s.reward, s.terminated, s.truncated) for s in steps]


def _instance_isolation(run: CheckRun, seeds: list[int]) -> None:
    """Two live instances of the class in one module, with different seeds, stepped in turn.

    Each must behave as if it were alone: what the other one does (its steps, a reset in the middle of
    this one's episode) must not change its observations or its solution. Class attributes and module
    globals are what break this.
    """
    if len(run.solutions) < 2:
        return
    (seed_a, solution_a), (seed_b, solution_b) = list(run.solutions.items())[:2]
    moves_a = solution_to_actions(solution_a, tool_use=run.tool_use)[: run.turn_limit]
    moves_b = solution_to_actions(solution_b, tool_use=run.tool_use)[: run.turn_limit]
    alone = _play(run, run.player, seed_a, moves_a)
    sibling = run.oracle.spawn_sibling()
    first_a = run.oracle.reset(seed_a).observation
    sibling.reset(seed_b)
    together: list[tuple[Any, ...]] = [(first_a,)]
    sibling_done, sibling_moves = False, iter(moves_b)
    for index, action in enumerate(moves_a):
        if index and index == len(moves_a) // 2:
            sibling.reset(seed_b)  # the other instance starts over in the middle of this one's episode
            sibling_done, sibling_moves = False, iter(moves_b)
        step = run.oracle.step(action)
        together.append((step.observation, step.reward, step.terminated, step.truncated))
        move = next(sibling_moves, None)
        if move is not None and not sibling_done:
            sibling_done = sibling.step(move).done
        if step.done:
            break
    for index, (a, b) in enumerate(zip(alone, together)):
        if repr(a) != repr(b):
            run.result.fail(
                "instance_isolation",
                f"Two live instances (seeds {seed_a} and {seed_b}) stepped in turn: the first one's step {index} "
                f"became {preview(str(b), 70)!r} instead of {preview(str(a), 70)!r}. Instances share state through "
                "class attributes or module globals; keep all state on self, created in __init__ and reset().",
                seed=seed_a, actions=moves_a, step=index or None)
            return
    run.oracle.reset(seed_a)
    sibling.reset(seed_b)
    again = run.oracle.solution()
    if _canonical(again) != _canonical(solution_a):
        run.result.fail(
            "instance_isolation",
            f"After another instance was reset with seed {seed_b}, solution() for seed {seed_a} changed; keep the "
            "task on self, not on the class or in module globals.", seed=seed_a)


__all__ = ["BIG_INPUTS", "check_declarations", "contract_tier"]
