"""Every check the validator runs, by stable name.

Names never change once published: designer feedback, reports and dashboards key on them. The
catalogue is also the source of the check documentation, so each entry says what the check catches
and how to fix it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True)
class CheckInfo:
    name: str
    stage: Literal["static", "dynamic"]
    catches: str
    fix: str


CHECKS: tuple[CheckInfo, ...] = (
    # static: read the code, run nothing
    CheckInfo("file_size", "static", "source files too large to be a single environment",
              "keep an environment under the size limit; generate data in reset() instead of listing it"),
    CheckInfo("syntax", "static", "code that does not parse",
              "fix the syntax error at the reported line"),
    CheckInfo("env_class", "static", "zero or several public classes named *Env",
              "define exactly one public class whose name ends in Env; prefix helper classes with _"),
    CheckInfo("required_methods", "static", "a missing reset, step or solution method",
              "define reset(self, seed=None), step(self, action) and solution(self)"),
    CheckInfo("method_signature", "static", "constructor, reset or step signatures that callers cannot use",
              "use __init__(self, max_turns=10, **kwargs), reset(self, seed=None), step(self, action)"),
    CheckInfo("close_method", "static", "no close() method (warning)",
              "add def close(self): pass"),
    CheckInfo("imports", "static", "imports outside the standard-library allowlist",
              "use only the allowed modules (math, random, re, collections, ...)"),
    CheckInfo("forbidden_name", "static", "dynamic code and escape hatches: exec, eval, open, __import__, ...",
              "compute values directly; environments get no file, code or interpreter access"),
    CheckInfo("forbidden_attribute", "static",
              "introspection escapes: __subclasses__, __globals__, __builtins__, frame attributes, ...",
              "do not reach into interpreter internals; use ordinary attributes"),
    CheckInfo("boxed_actions", "static", "a text environment that never parses \\boxed{} (warning)",
              "read the agent's action from the last \\boxed{...} in the action string"),
    # dynamic: run the environment through an execution backend
    CheckInfo("loads", "dynamic", "module code or the constructor raising, or no environment class found",
              "make the module import cleanly and __init__(max_turns=...) succeed"),
    CheckInfo("reset_returns", "dynamic", "reset() not returning (non-empty str, dict)",
              "end reset() with `return observation, {}`"),
    CheckInfo("reset_deterministic", "dynamic", "the same seed giving different first observations",
              "draw all randomness from random.Random(seed) created in reset()"),
    CheckInfo("seeds_vary", "dynamic", "every seed giving the same task",
              "generate the task from the seed so different seeds give different tasks"),
    CheckInfo("step_returns", "dynamic", "step() not returning (str, float, bool, bool, dict)",
              "end step() with `return observation, float(reward), terminated, truncated, {}`"),
    CheckInfo("reward_range", "dynamic", "rewards that are NaN, infinite or outside the declared range",
              "keep rewards within reward_range (default [-1, 1]); declare reward_range = (low, high) if needed"),
    CheckInfo("trajectory_deterministic", "dynamic", "the same seed and actions giving different trajectories",
              "avoid time, id(), hash() of objects and unseeded randomness in step()"),
    CheckInfo("terminates", "dynamic", "episodes that go on past max_turns",
              "count turns and return truncated=True once the count reaches max_turns"),
    CheckInfo("garbage_actions", "dynamic", "step() raising on empty, unboxed, huge or odd-unicode actions",
              "treat unparseable actions as an invalid move: explain the format, give reward 0"),
    CheckInfo("tool_schemas", "dynamic", "tool-use environments whose tools lack a name, description or "
              "JSON-schema parameters, or have no tool_<name> method",
              "set self._tools[name] = {'description': ..., 'parameters': {'type': 'object', ...}} and define tool_<name>"),
    CheckInfo("solution_defined", "dynamic", "solution() raising or returning nothing",
              "return the answer (puzzles) or the list of winning actions (games)"),
    CheckInfo("feasible", "dynamic", "replaying solution() from reset(seed) not winning",
              "make solution() compute winning actions from the hidden state; a win is terminated with reward 1"),
    CheckInfo("timeout", "dynamic", "a call that ran past the time limit",
              "remove unbounded loops; keep each call well under a second"),
    CheckInfo("runtime_limit", "dynamic", "memory exhaustion or a crash of the execution backend",
              "keep data small; do not build huge strings, lists or numbers"),
)

CHECKS_BY_NAME: dict[str, CheckInfo] = {check.name: check for check in CHECKS}


def check_names(stage: str | None = None) -> list[str]:
    return [check.name for check in CHECKS if stage is None or check.stage == stage]
