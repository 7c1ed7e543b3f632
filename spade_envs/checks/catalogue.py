"""Every check the validator runs, by stable name.

Names never change once published: designer feedback, reports and dashboards key on them. The
catalogue is also the source of the check documentation, so each entry says what the check catches
and how to fix it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Tier = Literal["static", "contract", "feasibility", "fuzz"]
TIERS: tuple[Tier, ...] = ("static", "contract", "feasibility", "fuzz")
"""Validation runs the tiers in this order and stops at the first one that fails."""


@dataclass(frozen=True)
class CheckInfo:
    name: str
    stage: Tier
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
    # contract: run the environment through an execution backend and hold it to the contract
    CheckInfo("loads", "contract", "module code or the constructor raising, or no environment class found",
              "make the module import cleanly and __init__(max_turns=...) succeed"),
    CheckInfo("reset_returns", "contract", "reset() not returning (non-empty str, dict)",
              "end reset() with `return observation, {}`"),
    CheckInfo("reset_deterministic", "contract", "the same seed giving different first observations",
              "draw all randomness from random.Random(seed) created in reset()"),
    CheckInfo("seeds_vary", "contract", "every seed giving the same task",
              "generate the task from the seed so different seeds give different tasks"),
    CheckInfo("step_returns", "contract", "step() not returning (str, float, bool, bool, dict)",
              "end step() with `return observation, float(reward), terminated, truncated, {}`"),
    CheckInfo("reward_range", "contract", "rewards that are NaN, infinite or outside the declared range, and "
              "declared ranges that are not finite or not inside [-1, 1]",
              "keep rewards within reward_range (default [-1, 1]); declare reward_range = (low, high) inside [-1, 1]"),
    CheckInfo("trajectory_deterministic", "contract", "the same seed and actions giving different trajectories",
              "avoid time, id(), hash() of objects and unseeded randomness in step()"),
    CheckInfo("terminates", "contract", "episodes that go on past max_turns",
              "count turns and return truncated=True once the count reaches max_turns"),
    CheckInfo("max_turns_honoured", "contract",
              "a constructor that ignores its max_turns argument, or a turn budget that changes what the task reveals",
              "store self.max_turns = max_turns, truncate when the turn count reaches it, and build the same task "
              "whatever the budget"),
    CheckInfo("wall_clock", "contract", "behaviour that depends on the clock (time, datetime)",
              "derive everything from the seed and the actions; never read the time"),
    CheckInfo("instance_isolation", "contract",
              "two live instances with different seeds, stepped in turn, changing each other's episodes or solutions",
              "keep all state on self, created in __init__ and reset(); no class attributes or globals that change"),
    CheckInfo("step_budget", "contract", "a step whose cost grows with the numbers or text in the action",
              "check the action's format first and bound every loop, whatever number the agent sends"),
    CheckInfo("garbage_actions", "contract", "step() raising on empty, unboxed, huge or odd-unicode actions",
              "treat unparseable actions as an invalid move: explain the format, give reward 0"),
    CheckInfo("tool_schemas", "contract", "tool-use environments whose tools lack a name, description or "
              "JSON-schema parameters, or have no tool_<name> method",
              "set self._tools[name] = {'description': ..., 'parameters': {'type': 'object', ...}} and define tool_<name>"),
    CheckInfo("solution_defined", "contract", "solution() raising or returning nothing",
              "return the answer (puzzles) or the list of winning actions (games)"),
    # feasibility: winnable by its own solution, not by trivial play, and no leaking hint
    CheckInfo("feasible", "feasibility", "replaying solution() from reset(seed) not winning",
              "make solution() compute winning actions from the hidden state; a win is terminated with reward 1"),
    CheckInfo("distinct_tasks", "feasibility", "only a handful of distinct tasks over the seeds checked",
              "generate the task from the whole seed with random.Random(seed), not from a few values of it"),
    CheckInfo("oracle_consistent", "feasibility",
              "an environment that behaves differently once solution() or hint() has been called",
              "make solution() and hint() read the state only; behave the same whoever plays"),
    CheckInfo("validation_aware", "feasibility",
              "an environment that behaves differently when play looks like validation: terse replies against a "
              "model's replies with reasoning, repeated seeds or a long-lived instance against a fresh one",
              "read the move from the last \\boxed{} (or <answer>) whatever comes before it; derive everything "
              "from the seed and the moves, never from how or how often the environment is called"),
    CheckInfo("instructions_start_unmet", "feasibility",
              "a multi-instruction task in which an instruction already holds right after reset()",
              "make every instruction's check False on the reset state and True only after the asked-for calls"),
    CheckInfo("tool_calls_skipped", "feasibility",
              "a tool-use task whose final answer wins without the state changes its solution makes",
              "check the state the task asks for (transfers, bookings, files) before accepting the answer"),
    CheckInfo("trivially_solvable", "feasibility",
              "a constant, empty or random-token policy winning clearly more often than the task's chance rate "
              "(one over its number of distinct answers)",
              "make the answer depend on the seed, balance the answers, and reject guesses with feedback"),
    CheckInfo("answer_variants", "feasibility",
              "a wrong answer accepted: within a tolerance, as a substring, reordered, sign-flipped, reciprocal, "
              "among several candidates, or without the required wrapper",
              "parse the answer from the last \\boxed{} (or <answer>) and compare it exactly with the solution"),
    CheckInfo("wrong_answer_paid", "feasibility",
              "a reply without the right answer (empty, wrong but well formatted, a special value, a note to the "
              "grader) earning reward without winning, so that an agent collects return without the skill over "
              "turns or episodes (a warning below 0.1 per episode)",
              "pay nothing for a wrong, empty or malformed answer; give partial credit only for the parts of an "
              "answer that are right"),
    CheckInfo("good_answer_refused", "feasibility",
              "the right answer refused when written another harmless way (spaces in the box, reasoning before it, "
              "a closing sentence after it, an equivalent number form) on most seeds tried (a warning)",
              "read the answer from the last \\boxed{} whatever is around it, ignore spacing, and accept every "
              "form of the same value"),
    CheckInfo("answer_leak", "feasibility",
              "an answer the agent can copy from what it is shown (task text, tool descriptions, feedback), proven "
              "by a copying policy that wins",
              "never show the answer, or a form it can be read back from, before the agent has worked it out"),
    CheckInfo("out_of_range_moves", "feasibility",
              "a game won by its own solution with a number set to a value no solution uses (0, -1, one past "
              "the largest): the game counts moves toward the goal that its rules should refuse",
              "check every value of a move against the allowed range and refuse the move otherwise"),
    CheckInfo("late_win", "feasibility",
              "a game won after its turn budget was spent: a winning move paid past the last turn, or a move "
              "that restarts the task and its turn counter",
              "end the episode (truncated) when the budget is spent and pay nothing after; never reset the turn "
              "count within an episode"),
    CheckInfo("partial_credit", "feasibility",
              "partial rewards that add up to a win's return without a win (the sum_clipped return)",
              "reward progress once per sub-goal and keep the partial rewards' total below the win reward"),
    CheckInfo("answer_oracle_tool", "feasibility",
              "a tool that tells whether a candidate answer is right, so that answers can be enumerated",
              "remove the tool or make its replies say nothing about whether a guess is right"),
    CheckInfo("observable_task", "feasibility",
              "seeds that look the same to the agent (same observations for every move tried) but need different "
              "answers",
              "show what the answer depends on, or give the feedback the rules promise after each move"),
    CheckInfo("answer_format", "feasibility",
              "the right answer, written in the form the task asks for (a fraction, comma-separated, ...), losing",
              "accept every form the task asks for, and make solution() use it"),
    CheckInfo("hint_leak", "feasibility",
              "a hint that gives the answer away in any form (the answer, its parts, a rounded or spelled form, "
              "most of the winning moves or tool calls), found by text and by hint-reading policies that win",
              "give the key insight in the hint, never the answer itself"),
    # the model judge (only with a judge configured: a heuristic, see spade_envs/checks/judge)
    CheckInfo("judge_checker_matches_text", "feasibility",
              "the model judge finding that the checker accepts something other than what the task text asks",
              "make the checker accept exactly what the text asks for (same quantity, indexing, order and unit)"),
    CheckInfo("judge_solvable_from_view", "feasibility",
              "the model judge finding that the task cannot be solved from what the agent is shown",
              "show the agent everything the answer depends on, and make solution() win on every seed"),
    CheckInfo("judge_hint_or_reply_gives_answer", "feasibility",
              "the model judge finding that the hint, an observation or a reply gives the answer away",
              "never show the answer, in any form, before the agent has worked it out"),
    CheckInfo("timeout", "contract", "a call that ran past the time limit",
              "remove unbounded loops; keep each call well under a second"),
    CheckInfo("runtime_limit", "contract", "memory exhaustion or a crash of the execution backend",
              "keep data small; do not build huge strings, lists or numbers"),
    # fuzz: Hypothesis-generated episodes (see spade_envs.fuzz)
    CheckInfo("fuzz_no_exceptions", "fuzz", "step() or reset() raising on a generated action sequence",
              "handle every input in step(); the counterexample shows the sequence that raised"),
    CheckInfo("fuzz_return_types", "fuzz", "a wrongly typed return on a generated sequence",
              "return (str, float, bool, bool, dict) from every branch of step()"),
    CheckInfo("fuzz_reward_range", "fuzz", "a non-finite or out-of-range reward on a rare move",
              "clip or fix the reward computation on the branch the counterexample reaches"),
    CheckInfo("fuzz_determinism", "fuzz", "a trajectory that a second instance does not reproduce",
              "derive all randomness from the seed given to reset()"),
    CheckInfo("fuzz_terminates", "fuzz", "an episode still running at max_turns on a generated sequence",
              "count every step, valid or not, and truncate at max_turns"),
    CheckInfo("fuzz_reset_isolation", "fuzz", "state surviving reset() (a replay after reset differs)",
              "re-initialise every episode attribute in reset()"),
    CheckInfo("fuzz_instance_isolation", "fuzz", "two instances sharing state through class attributes or globals",
              "keep all state on self, created in __init__/reset"),
    CheckInfo("fuzz_post_episode", "fuzz", "reward or a restarted episode after the episode ended",
              "after termination return reward 0.0 and keep terminated/truncated set until reset()"),
    CheckInfo("fuzz_feasible", "fuzz", "a solution() that stops winning after an episode was played and "
              "reset(seed) was called (it reads state reset() does not rebuild)",
              "compute solution() from the state reset(seed) builds, and rebuild all of it in reset()"),
    CheckInfo("fuzz_no_hang", "fuzz", "a generated sequence that times out, exhausts memory or crashes",
              "bound loops and data sizes on every branch"),
)

CHECKS_BY_NAME: dict[str, CheckInfo] = {check.name: check for check in CHECKS}


def check_names(stage: str | None = None) -> list[str]:
    return [check.name for check in CHECKS if stage is None or check.stage == stage]
