"""Sanity checks for the zoo corpus of adversarial environments (not a pytest test).

Run with ``.venv/bin/python tests/zoo_sanity.py [name ...]``. For every zoo file registered below it

1. replays ``solution()`` on 100 seeds (0..49 and 50 seeds drawn with random.Random(1).randrange(2**31))
   and expects a win on every seed (``feasible`` defects: on a few seeds only, which are listed);
2. for defects, plays the exploit the file's docstring names and reports on how many seeds it works
   (answer leaks print the copied token, hint leaks print the hint of two seeds);
3. for ``# expect: valid`` files, plays the constant policies \\boxed{0}, \\boxed{1} and <answer>0</answer>
   and checks they win at most the file's chance rate, and that the answer is not in the first
   observation (unless the task is multiple choice by design);
4. for every file, a small contract smoke test: garbage actions do not raise, the episode ends by
   max_turns, a step after the end gives reward 0 (files whose defect is one of these are exempt).

Each file is executed in-process with ``ToolUseBaseEnv`` in its namespace and a tiny ``math_verify``
stand-in in ``sys.modules``. ``ToolUseBaseEnv`` is this project's base class with the release's
conventions added that the new base class supports (``_check_answer``, ``_message_criteria`` with
``_advance_if_done``); one-string release solutions are split into their <tool_call> / <answer>
blocks and sent one block per step.
"""

from __future__ import annotations

import ast
import datetime as _datetime
import json
import re
import signal
import sys
import time as _time
import traceback
import types
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from random import Random
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from spade_envs.contract.tool_use import ToolUseBaseEnv as _ProjectToolUseBaseEnv

ZOO = Path(__file__).resolve().parent / "zoo"
_DRAW = Random(1)
SEEDS = list(range(50)) + [_DRAW.randrange(2**31) for _ in range(50)]
BIG_SEEDS = SEEDS[50:]
GARBAGE = [
    "",
    "   ",
    "I am not sure.",
    "\\boxed{}",
    "\\boxed{",
    "}\\boxed{{}",
    "\\boxed{\\boxed{1}}",
    "\\boxed{1}\\boxed{2}",
    "\\boxed{-1}",
    "\\boxed{1e309}",
    "\\boxed{99999999999999999999999}",
    "\\boxed{" + "x" * 10_000 + "}",
    "\\boxed{测试 🙂 ∑ é}",
    "\\boxed{\x00\x1b[2J\u200b}",
    "<tool_call>{not json</tool_call>",
    '<tool_call>{"name": "nope", "arguments": {}}</tool_call>',
    '<tool_call>{"name": 5, "arguments": [1, 2]}</tool_call>',
    "<answer></answer>",
]


# ---------------------------------------------------------------------------------------------- loading
def _math_verify_module() -> types.ModuleType:
    """A stand-in for math_verify: parse() gives a number (Fraction) or normalised text; verify() compares."""
    module = types.ModuleType("math_verify")

    def parse(text: Any) -> list[Any]:
        value = str(text).strip().strip("$").strip()
        frac = re.fullmatch(r"\\d?frac\{(-?\d+)\}\{(-?\d+)\}", value)
        if frac:
            value = f"{frac.group(1)}/{frac.group(2)}"
        try:
            return [Fraction(value.replace(",", ""))]
        except (ValueError, ZeroDivisionError):
            return [" ".join(value.lower().split())] if value else []

    def verify(gold: Any, answer: Any) -> bool:
        gold = gold if isinstance(gold, list) else [gold]
        answer = answer if isinstance(answer, list) else [answer]
        return bool(gold) and bool(answer) and any(g == a for g in gold for a in answer)

    module.parse, module.verify = parse, verify
    return module


sys.modules.setdefault("math_verify", _math_verify_module())


class ToolUseBaseEnv(_ProjectToolUseBaseEnv):
    """This project's base class plus the release conventions the new base class in main supports."""

    def _release_multi(self) -> bool:
        return getattr(self, "_message_criteria", None) is not None

    def check_answer(self, answer: str) -> bool:
        if getattr(type(self), "_check_answer", None) is not None:
            return bool(self._check_answer(answer))
        return super().check_answer(answer)

    def _judge_answer(self, answer: str):
        if self._release_multi():
            ok = self.check_answer(answer)
            return ("Correct." if ok else "Incorrect."), (1.0 if ok else 0.0), True, {"correct": ok}
        return super()._judge_answer(answer)

    def _advance_instructions(self) -> str:
        return "" if self._release_multi() else super()._advance_instructions()

    def _reveal_first_instruction(self, result):
        return result if self._release_multi() else super()._reveal_first_instruction(result)


@dataclass
class Loaded:
    name: str
    expect: str
    cls: type
    namespace: dict
    tool_use: bool
    doc: str


def load(name: str) -> Loaded:
    path = ZOO / f"{name}.py"
    source = path.read_text(encoding="utf-8")
    expect = re.match(r"#\s*expect:\s*([a-z_]+)", source).group(1)
    namespace: dict[str, Any] = {"__name__": f"zoo_{name}", "ToolUseBaseEnv": ToolUseBaseEnv}
    exec(compile(source, str(path), "exec"), namespace)  # noqa: S102 -- trusted test data
    classes = [
        v
        for k, v in namespace.items()
        if isinstance(v, type)
        and k.endswith("Env")
        and not k.startswith("_")
        and v is not ToolUseBaseEnv
        and v.__module__ == namespace["__name__"]
    ]
    assert len(classes) == 1, f"{name}: {len(classes)} public *Env classes"
    cls = classes[0]
    return Loaded(
        name,
        expect,
        cls,
        namespace,
        issubclass(cls, _ProjectToolUseBaseEnv),
        ast.get_docstring(ast.parse(source)) or "",
    )


# ---------------------------------------------------------------------------------------------- playing
def split_solution(solution: Any, tool_use: bool) -> list[str]:
    """The actions an agent sends for a solution(); one-string tool-use solutions go one block per step."""
    if tool_use and isinstance(solution, str) and "<tool_call>" in solution:
        return re.findall(r"<tool_call>.*?</tool_call>|<answer>.*?</answer>", solution, re.DOTALL)
    items = list(solution) if isinstance(solution, (list, tuple)) else [solution]
    actions = []
    for item in items:
        if isinstance(item, dict) and "name" in item:
            actions.append(tool_call(item["name"], **dict(item.get("arguments") or {})))
        elif isinstance(item, str) and ("\\boxed{" in item or "<tool_call>" in item or "<answer>" in item):
            actions.append(item)
        elif tool_use:
            actions.append(f"<answer>{item}</answer>")
        else:
            actions.append(f"\\boxed{{{item}}}")
    return actions


def tool_call(tool_name: str, /, **arguments: Any) -> str:
    return "<tool_call>" + json.dumps({"name": tool_name, "arguments": arguments}) + "</tool_call>"


def final_answer(solution: Any, tool_use: bool) -> str | None:
    """The answer a solution states (puzzles, tool use), or None for move lists."""
    if tool_use and isinstance(solution, str):
        found = re.findall(r"<answer>(.*?)</answer>", solution, re.DOTALL)
        return found[-1].strip() if found else solution
    if isinstance(solution, (list, tuple)):
        if tool_use and solution and not isinstance(solution[-1], dict):
            return str(solution[-1])
        return None
    return str(solution)


@dataclass
class Episode:
    observations: list[str]
    rewards: list[float] = field(default_factory=list)
    terminated: bool = False
    truncated: bool = False
    infos: list[dict] = field(default_factory=list)

    @property
    def won(self) -> bool:
        return self.terminated and bool(self.rewards) and self.rewards[-1] >= 0.999

    @property
    def total(self) -> float:
        return max(-1.0, min(1.0, sum(self.rewards)))

    @property
    def last(self) -> str:
        return self.observations[-1]


def play(env: Any, seed: int | None, policy: Any, limit: int = 400, reset: bool = True) -> Episode:
    """Reset (unless told not to) and play ``policy``: a list of actions, or a function obs -> action."""
    if reset:
        obs, _ = env.reset(seed)
    else:
        obs = ""
    episode = Episode([obs])
    actions = iter(policy) if isinstance(policy, (list, tuple)) else None
    for _ in range(limit):
        if actions is not None:
            action = next(actions, None)
            if action is None:
                break
        else:
            action = policy(episode.last)
            if action is None:
                break
        obs, reward, terminated, truncated, info = env.step(action)
        episode.observations.append(obs)
        episode.rewards.append(float(reward))
        episode.infos.append(info)
        if terminated or truncated:
            episode.terminated, episode.truncated = bool(terminated), bool(truncated)
            break
    return episode


class Timeout(BaseException):
    """A BaseException, so that an environment's own ``except Exception`` cannot swallow the deadline."""


def timed(seconds: float, fn: Callable[[], Any]) -> tuple[Any, float, bool]:
    """Run fn with a SIGALRM deadline: (result or None, seconds taken, timed out)."""

    def alarm(signum, frame):
        raise Timeout()

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    started = _time.perf_counter()
    try:
        return fn(), _time.perf_counter() - started, False
    except Timeout:
        return None, _time.perf_counter() - started, True
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


# ---------------------------------------------------------------------------------------------- context
class Ctx:
    """What an exploit gets: the loaded file, fresh instances, solutions on a separate instance, play()."""

    def __init__(self, loaded: Loaded) -> None:
        self.loaded = loaded
        self.tool_use = loaded.tool_use
        self.seeds = SEEDS
        self.notes: list[str] = []

    def new(self, **kwargs: Any) -> Any:
        return self.loaded.cls(**kwargs)

    def solution(self, seed: int, **kwargs: Any) -> Any:
        ref = self.new(**kwargs)
        ref.reset(seed)
        return ref.solution()

    def answer(self, seed: int) -> str:
        return final_answer(self.solution(seed), self.tool_use)

    def actions(self, seed: int) -> list[str]:
        return split_solution(self.solution(seed), self.tool_use)

    def rate(
        self, make_policy: Callable[[int], Any], seeds: list[int] | None = None, **kwargs: Any
    ) -> tuple[int, int, list[int]]:
        """Play make_policy(seed) on a fresh instance per seed: (wins, seeds, losing seeds)."""
        seeds = self.seeds if seeds is None else seeds
        wins, losers = 0, []
        for seed in seeds:
            env = self.new(**kwargs)
            episode = play(env, seed, make_policy(seed))
            if episode.won:
                wins += 1
            else:
                losers.append(seed)
        return wins, len(seeds), losers

    def note(self, text: str) -> None:
        self.notes.append(text)


@dataclass
class Verdict:
    ok: bool
    summary: str


def claim_rate(
    ctx: Ctx,
    make_policy: Callable[[int], Any],
    what: str,
    *,
    at_least: float = 0.98,
    seeds: list[int] | None = None,
    **kwargs: Any,
) -> Verdict:
    wins, total, losers = ctx.rate(make_policy, seeds, **kwargs)
    ok = wins >= at_least * total
    shown = f" (lost on {losers[:5]})" if losers else ""
    return Verdict(ok, f"{what}: won {wins}/{total}{shown}")


def boxed(value: Any) -> str:
    return f"\\boxed{{{value}}}"


def answer_tag(value: Any) -> str:
    return f"<answer>{value}</answer>"


def first_obs(ctx: Ctx, seed: int, **kwargs: Any) -> str:
    return ctx.new(**kwargs).reset(seed)[0]


def tools_of(env: Any) -> dict:
    return {t["function"]["name"]: t["function"] for t in env.get_tools()}


# ---------------------------------------------------------------------------------------------- registry
@dataclass
class Spec:
    exploit: Callable[[Ctx], Verdict] | None = None
    chance: float = 0.03  # valid files: the most a constant policy may win
    multiple_choice: bool = False  # valid files: the answer is listed in the observation by design
    skip_contract: tuple[str, ...] = ()  # smoke-test parts the file's defect breaks on purpose
    feasible_fails: tuple[int, int] = (0, 0)  # (min, max) seeds of 100 on which solution() may lose
    constants: tuple[tuple[str, float], ...] = ()  # valid files: more constants and the most they may win


REGISTRY: dict[str, Spec] = {}


def register(name: str, **kwargs: Any) -> Callable[[Callable[[Ctx], Verdict]], Callable[[Ctx], Verdict]]:
    def wrap(fn: Callable[[Ctx], Verdict]) -> Callable[[Ctx], Verdict]:
        REGISTRY[name] = Spec(exploit=fn, **kwargs)
        return fn

    return wrap


def valid(name: str, probe: Callable[[Ctx], Verdict] | None = None, **kwargs: Any) -> None:
    REGISTRY[name] = Spec(exploit=probe, **kwargs)


# ============================================================================================ answer_variants
@register("answer_variants_tolerance")
def _(ctx):
    return claim_rate(ctx, lambda s: [boxed(int(ctx.answer(s)) + 3)], "\\boxed{answer+3}")


@register("answer_variants_substring_match")
def _(ctx):
    return claim_rate(ctx, lambda s: [boxed("1" + ctx.answer(s))], "\\boxed{1<answer>}")


def _other_permutation(text: str) -> str | None:
    if text[::-1] != text:
        return text[::-1]
    for i in range(len(text) - 1):
        if text[i] != text[i + 1]:
            return text[:i] + text[i + 1] + text[i] + text[i + 2 :]
    return None


@register("answer_variants_digits_any_order")
def _(ctx):
    return claim_rate(ctx, lambda s: [boxed(_other_permutation(ctx.answer(s)))], "\\boxed{digits rearranged}")


@register("answer_variants_sign_ignored")
def _(ctx):
    return claim_rate(ctx, lambda s: [boxed(-int(ctx.answer(s)))], "\\boxed{-answer}")


@register("answer_variants_prefix")
def _(ctx):
    return claim_rate(ctx, lambda s: [boxed(ctx.answer(s) + "q")], "\\boxed{<word>q}")


@register("answer_variants_multiple_candidates")
def _(ctx):
    every = boxed(" ".join(str(n) for n in range(100, 1000)))
    v1 = claim_rate(ctx, lambda s: [every], "one action listing 100..999")
    v2 = claim_rate(
        ctx,
        lambda s: [boxed(int(ctx.answer(s)) + 1) + " or maybe " + boxed(ctx.answer(s))],
        "\\boxed{wrong} or maybe \\boxed{answer}",
    )
    return Verdict(v1.ok and v2.ok, f"{v1.summary}; {v2.summary}")


@register("answer_variants_reciprocal")
def _(ctx):
    def flip(seed):
        p, q = ctx.answer(seed).split("/")
        return [boxed(f"{q}/{p}")]

    return claim_rate(ctx, flip, "\\boxed{b/a}")


@register("answer_variants_unboxed_accepted")
def _(ctx):
    return claim_rate(ctx, lambda s: [ctx.answer(s)], "bare '<answer>' without \\boxed")


@register("answer_variants_box_wrapper")
def _(ctx):
    return claim_rate(ctx, lambda s: [f"\\box{{{ctx.answer(s)}}}"], "\\box{answer}")


@register("answer_variants_bracket_wrapper")
def _(ctx):
    return claim_rate(ctx, lambda s: [f"[{ctx.answer(s)}]"], "[answer]")


@register("answer_variants_tool_contains")
def _(ctx):
    def policy(seed):
        customer = re.search(r"placed by (\w+)", first_obs(ctx, seed)).group(1)
        state = {"step": 0}

        def act(obs):
            state["step"] += 1
            if state["step"] == 1:
                return tool_call("list_orders", customer=customer)
            return answer_tag(", ".join(re.findall(r"ORD-\d+", obs)))

        return act

    return claim_rate(ctx, policy, "list_orders then answer every ID")


@register("answer_variants_tool_dollar_tolerance")
def _(ctx):
    return claim_rate(
        ctx, lambda s: [answer_tag(f"{float(ctx.answer(s)) + 0.5:.2f}")], "<answer>total+0.50</answer>"
    )


@register("answer_variants_tool_order_ignored")
def _(ctx):
    return claim_rate(
        ctx, lambda s: [answer_tag(", ".join(reversed(ctx.answer(s).split(", "))))], "IDs in reverse order"
    )


@register("answer_variants_list_order_ignored")
def _(ctx):
    def as_listed(seed):
        obs = first_obs(ctx, seed)
        names = re.findall(r"([A-Z][a-z]+) \d+:\d\d", obs)
        return [boxed(", ".join(names))]

    return claim_rate(ctx, as_listed, "names copied in listed order")


# ============================================================================================ trivially_solvable
@register("trivially_solvable_constant_one")
def _(ctx):
    return claim_rate(ctx, lambda s: [boxed(1)], "constant \\boxed{1}")


@register("trivially_solvable_above_bound")
def _(ctx):
    return claim_rate(ctx, lambda s: [boxed(1000000)], "constant \\boxed{1000000}")


@register("trivially_solvable_unbalanced_yes")
def _(ctx):
    return claim_rate(ctx, lambda s: [boxed("yes")], "constant \\boxed{yes}", at_least=0.85)


@register("trivially_solvable_empty_answer")
def _(ctx):
    v1 = claim_rate(ctx, lambda s: [""], "empty action", at_least=0.6)
    v2 = claim_rate(ctx, lambda s: [boxed("none")], "\\boxed{none}", at_least=0.6)
    return Verdict(v1.ok and v2.ok, f"{v1.summary}; {v2.summary}")


@register("trivially_solvable_big_seed_zero")
def _(ctx):
    big = claim_rate(ctx, lambda s: [boxed(0)], "\\boxed{0} on seeds >= 2**20", seeds=BIG_SEEDS)
    small = ctx.rate(lambda s: [boxed(0)], list(range(50)))
    return Verdict(big.ok and small[0] <= 2, f"{big.summary}; on seeds 0..49 it won {small[0]}/50")


@register("trivially_solvable_tool_answer_zero")
def _(ctx):
    return claim_rate(ctx, lambda s: [answer_tag(0)], "constant <answer>0</answer>")


@register("trivially_solvable_tool_answer_done")
def _(ctx):
    return claim_rate(ctx, lambda s: [answer_tag("done")], "constant <answer>done</answer> on turn 1")


@register("trivially_solvable_honest_small_seeds")
def _(ctx):
    big = claim_rate(ctx, lambda s: [boxed(0)] * 3, "\\boxed{0} on seeds >= 1000", seeds=BIG_SEEDS)
    small = ctx.rate(lambda s: [boxed(0)] * 3, list(range(50)))
    return Verdict(big.ok and small[0] == 0, f"{big.summary}; on seeds 0..49 it won {small[0]}/50")


@register("trivially_solvable_reset_twice")
def _(ctx):
    once = claim_rate(ctx, lambda s: [boxed(0)], "\\boxed{0}, one reset per seed")
    twice = 0
    for seed in SEEDS:
        env = ctx.new()
        env.reset(seed)
        twice += play(env, seed, [boxed(0)] * 3).won
    return Verdict(
        once.ok and twice <= 2, f"{once.summary}; after a repeated reset of the seed it won {twice}/100"
    )


# ============================================================================================ partial_credit
def claim_farm(ctx: Ctx, make_policy: Callable[[int], Any], what: str) -> Verdict:
    """The policy collects a clipped return of 1.0 without ever winning, on every seed."""
    farmed, wins = 0, 0
    for seed in SEEDS:
        episode = play(ctx.new(), seed, make_policy(seed))
        wins += episode.won
        farmed += (not episode.won) and episode.total >= 0.999
    return Verdict(
        farmed >= 98 and wins == 0, f"{what}: return 1.0 without a win on {farmed}/100 seeds ({wins} wins)"
    )


@register("partial_credit_legal_move_bonus")
def _(ctx):
    return claim_farm(ctx, lambda s: [boxed("east"), boxed("west")] * 2, "east/west x2")


@register("partial_credit_corpus_probe_reward")
def _(ctx):
    return claim_farm(ctx, lambda s: [boxed("measure R1")] * 10, "measure R1 x10")


@register("partial_credit_tool_call_bonus")
def _(ctx):
    return claim_farm(ctx, lambda s: [tool_call("list_inventory")] * 5, "list_inventory x5")


# ============================================================================================ answer_leak
def claim_copy(ctx: Ctx, find: Callable[[int], str], wrap: Callable[[str], str], what: str) -> Verdict:
    """Copy the token ``find(seed)`` reads from what the agent sees; show the token of two seeds."""
    tokens = {}

    def policy(seed):
        tokens[seed] = find(seed)
        return [wrap(tokens[seed])]

    verdict = claim_rate(ctx, policy, what)
    shown = ", ".join(f"seed {s}: {tokens[s]!r} (answer {ctx.answer(s)!r})" for s in SEEDS[:2])
    return Verdict(verdict.ok, f"{verdict.summary}; copied {shown}")


def obs_match(ctx: Ctx, pattern: str) -> Callable[[int], str]:
    return lambda seed: re.search(pattern, first_obs(ctx, seed)).group(1)


def tool_text(ctx: Ctx, seed: int) -> str:
    env = ctx.new()
    env.reset(seed)
    return json.dumps(env.get_tools())


@register("answer_leak_format_example")
def _(ctx):
    return claim_copy(
        ctx, obs_match(ctx, r"Answer like \\boxed\{(-?\d+)\}"), boxed, "copy the format example"
    )


@register("answer_leak_debug_suffix")
def _(ctx):
    return claim_copy(ctx, obs_match(ctx, r"target=(\d+)"), boxed, "copy the [debug] target")


@register("answer_leak_reference_path")
def _(ctx):
    return claim_copy(ctx, obs_match(ctx, r"/data/answers/(\d+)\.txt"), boxed, "copy the reference file name")


@register("answer_leak_wrong_guess_feedback")
def _(ctx):
    copied = {}

    def policy(seed):
        def act(obs):
            found = re.search(r"it was (-?\d+)", obs)
            if found:
                copied[seed] = found.group(1)
                return boxed(found.group(1))
            return boxed(0)

        return act

    verdict = claim_rate(ctx, policy, "\\boxed{0}, then copy 'it was N'")
    return Verdict(
        verdict.ok, f"{verdict.summary}; copied seed 0: {copied.get(0)!r}, seed 1: {copied.get(1)!r}"
    )


@register("answer_leak_fixed_position")
def _(ctx):
    return claim_copy(ctx, obs_match(ctx, r"Options: (\d+)"), boxed, "copy the first option")


@register("answer_leak_tool_description")
def _(ctx):
    return claim_copy(
        ctx,
        lambda s: re.search(r"e\.g\. (BK-\w{4})", tool_text(ctx, s)).group(1),
        answer_tag,
        "copy the get_booking example",
    )


@register("answer_leak_tool_reset_text")
def _(ctx):
    return claim_copy(
        ctx, obs_match(ctx, r"resolution: ([A-D]-\d\d-[A-C])"), answer_tag, "copy the case header"
    )


@register("answer_leak_no_arg_tool_description")
def _(ctx):
    return claim_copy(
        ctx,
        lambda s: re.search(r"lowest fuel: ([A-Z]{2}-\d{4})", tool_text(ctx, s)).group(1),
        answer_tag,
        "copy the list_vans description",
    )


# ============================================================================================ tool_calls_skipped
def claim_skip(ctx: Ctx, compute: Callable[[str], str], what: str) -> Verdict:
    shown = {}

    def policy(seed):
        shown[seed] = compute(first_obs(ctx, seed))
        return [answer_tag(shown[seed])]

    verdict = claim_rate(ctx, policy, what)
    return Verdict(verdict.ok, f"{verdict.summary}; seed 0 answer from the task text: {shown.get(0)!r}")


@register("tool_calls_skipped_transfer_balance")
def _(ctx):
    def compute(obs):
        balance = int(re.search(r"holds (\d+)", obs).group(1))
        amount = int(re.search(r"Transfer (\d+)", obs).group(1))
        return str(balance - amount)

    return claim_skip(ctx, compute, "answer balance-amount on turn 1")


@register("tool_calls_skipped_inventory_restock")
def _(ctx):
    def compute(obs):
        stock = int(re.search(r"holds (\d+)", obs).group(1))
        delivery = int(re.search(r"delivery of (\d+)", obs).group(1))
        order = int(re.search(r"order of (\d+)", obs).group(1))
        return str(stock + delivery - order)

    return claim_skip(ctx, compute, "answer stock+delivery-order on turn 1")


@register("tool_calls_skipped_file_rename")
def _(ctx):
    def compute(obs):
        found = re.search(r"In (/home/\w+), rename \S+ to (\S+),", obs)
        return f"{found.group(1)}/archive/{found.group(2)}"

    return claim_skip(ctx, compute, "answer the path spelled out by the task on turn 1")


# ============================================================================================ answer_oracle_tool
@register("answer_oracle_tool_check_code")
def _(ctx):
    def policy(seed):
        state = {"codes": None, "i": 0, "found": None}

        def act(obs):
            if state["codes"] is None:
                if "Codes issued" not in obs:
                    return tool_call("read_log")
                state["codes"] = re.findall(r"\d{4}", obs.split("Codes issued:")[1])
            if re.search(r"\bcorrect\b", obs):
                return answer_tag(state["codes"][state["i"] - 1])
            state["i"] += 1
            return tool_call("check_code", code=state["codes"][state["i"] - 1])

        return act

    return claim_rate(ctx, policy, "read_log, then check_code on each code")


def _bisect_policy(
    send_probe: Callable[[int], str],
    read: Callable[[str], str | None],
    final: Callable[[int], str],
    low: int = 0,
    high: int = 65535,
):
    state = {"low": low, "high": high, "probe": None}

    def act(obs):
        if state["probe"] is not None:
            verdict = read(obs)
            if verdict == "exact":
                return final(state["probe"])
            if verdict == "higher":
                state["low"] = state["probe"] + 1
            elif verdict == "lower":
                state["high"] = state["probe"] - 1
        state["probe"] = (state["low"] + state["high"]) // 2
        return send_probe(state["probe"])

    return act


@register("answer_oracle_tool_warmer_colder")
def _(ctx):
    def read(obs):
        if "exact" in obs:
            return "exact"
        if "too high" in obs:
            return "lower"
        if "too low" in obs:
            return "higher"
        return None

    return claim_rate(
        ctx,
        lambda s: _bisect_policy(lambda n: tool_call("compare_total", total=n), read, answer_tag),
        "binary search with compare_total",
    )


@register("answer_oracle_tool_text_compare_command")
def _(ctx):
    def read(obs):
        if "is the answer" in obs:
            return "exact"
        if "is higher" in obs:
            return "higher"
        if "is lower" in obs:
            return "lower"
        return None

    return claim_rate(
        ctx,
        lambda s: _bisect_policy(lambda n: boxed(f"compare {n}"), read, boxed, 1),
        "binary search with \\boxed{compare n}",
    )


# ============================================================================================ hint_leak
def claim_hint(ctx: Ctx, decode: Callable[[str, str], Any], what: str) -> Verdict:
    """decode(hint, first observation) -> the actions a hinted agent sends; show two seeds' hints."""
    hints = {}

    def policy(seed):
        env = ctx.new()
        obs, _ = env.reset(seed)
        hints[seed] = env.hint()
        return decode(hints[seed], obs)

    verdict = claim_rate(ctx, policy, what)
    shown = " | ".join(
        f"seed {s}: {hints[s]!r} (answer {ctx.answer(s) or ctx.actions(s)[-1]!r})" for s in SEEDS[:2]
    )
    return Verdict(verdict.ok, f"{verdict.summary}; hints: {shown}")


@register("hint_leak_intermediate_states")
def _(ctx):
    def decode(hint, obs):
        value = int(re.search(r"Start at (-?\d+)", obs).group(1))
        target = int(re.search(r"exactly on (-?\d+)", obs).group(1))
        add = int(re.search(r"add (\d+)", obs).group(1))
        sub = int(re.search(r"subtract (\d+)", obs).group(1))
        ops = {
            f"add {add}": lambda v: v + add,
            "double": lambda v: 2 * v,
            f"subtract {sub}": lambda v: v - sub,
        }
        steps = [int(x) for x in re.findall(r"-?\d+", hint.split("through")[1])] + [target]
        moves = []
        for nxt in steps:
            name = next(n for n, op in ops.items() if op(value) == nxt)
            moves.append(boxed(name))
            value = nxt
        return moves

    return claim_hint(ctx, decode, "moves rebuilt from the hint's intermediate numbers")


@register("hint_leak_numerator_denominator")
def _(ctx):
    def decode(hint, obs):
        p = re.search(r"numerator (\d+)", hint).group(1)
        q = re.search(r"denominator (\d+)", hint).group(1)
        return [boxed(f"{p}/{q}")]

    return claim_hint(ctx, decode, "numerator/denominator from the hint")


@register("hint_leak_unreduced_fraction")
def _(ctx):
    def decode(hint, obs):
        value = Fraction(re.search(r"(\d+/\d+)", hint).group(1))
        return [boxed(f"{value.numerator}/{value.denominator}")]

    return claim_hint(ctx, decode, "the hint's fraction, reduced")


@register("hint_leak_rounded_decimal")
def _(ctx):
    def decode(hint, obs):
        value = Fraction(re.search(r"about (\d\.\d{3})", hint).group(1)).limit_denominator(29)
        return [boxed(f"{value.numerator}/{value.denominator}")]

    return claim_hint(ctx, decode, "nearest simple fraction to the hint's decimal")


_WORDS = {
    w: i
    for i, w in enumerate(
        [
            "zero",
            "one",
            "two",
            "three",
            "four",
            "five",
            "six",
            "seven",
            "eight",
            "nine",
            "ten",
            "eleven",
            "twelve",
            "thirteen",
            "fourteen",
            "fifteen",
            "sixteen",
            "seventeen",
            "eighteen",
            "nineteen",
        ]
    )
}
_WORDS.update(
    {
        w: 10 * i
        for i, w in enumerate(
            ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
        )
        if w
    }
)


def words_to_number(text: str) -> int:
    total = current = 0
    for word in re.findall(r"[a-z]+", text.lower()):
        if word in _WORDS:
            current += _WORDS[word]
        elif word == "hundred":
            current *= 100
        elif word == "thousand":
            total += current * 1000
            current = 0
    return total + current


@register("hint_leak_number_words")
def _(ctx):
    return claim_hint(
        ctx,
        lambda hint, obs: [boxed(words_to_number(hint.split("comes to")[1]))],
        "number words in the hint turned back into digits",
    )


@register("hint_leak_reversed_digits")
def _(ctx):
    return claim_hint(
        ctx,
        lambda hint, obs: [boxed(re.search(r"total is (\d+)", hint).group(1)[::-1])],
        "the hint's digits reversed",
    )


@register("hint_leak_tool_calls")
def _(ctx):
    def decode(hint, obs):
        names = re.findall(r"[a-z]+", hint.split("for", 1)[1].split("and add")[0].replace(" and ", ", "))
        state = {"i": 0, "total": 0}

        def act(o):
            found = re.search(r"balance=(\d+)", o)
            if found and state["i"] > 0:
                state["total"] += int(found.group(1))
            if state["i"] < len(names):
                state["i"] += 1
                return tool_call("get_account", name=names[state["i"] - 1])
            return answer_tag(state["total"])

        return act

    return claim_hint(ctx, decode, "exactly the calls the hint names, then the sum")


@register("hint_leak_move_sequence_most")
def _(ctx):
    letter = {"N": "north", "S": "south", "E": "east", "W": "west"}

    def decode(hint, obs):
        moves = [letter[x] for x in re.findall(r"\b([NSEW])\b", hint.split("route:")[1].split("...")[0])]
        goal = tuple(int(x) for x in re.search(r"to \((\d+), (\d+)\)", obs).groups())
        pos = [tuple(int(x) for x in re.search(r"from \((\d+), (\d+)\)", obs).groups())]
        deltas = {"north": (-1, 0), "south": (1, 0), "east": (0, 1), "west": (0, -1)}
        for m in moves:
            pos[0] = (pos[0][0] + deltas[m][0], pos[0][1] + deltas[m][1])
        last = next(m for m, d in deltas.items() if (pos[0][0] + d[0], pos[0][1] + d[1]) == goal)
        return [boxed(m) for m in moves + [last]]

    return claim_hint(ctx, decode, "the hint's compass letters plus the one move to the drop-off")


# ============================================================================================ feasible
def claim_rare_infeasible(
    ctx: Ctx, right_action: Callable[[Any], list[str]], expect: Callable[[int], bool]
) -> Verdict:
    """solution() loses exactly on the seeds ``expect`` names; the right answer still wins there."""
    losers = check_solutions(ctx)[1]
    predicted = [s for s in SEEDS if expect(s)]
    winnable = 0
    for seed in losers:
        env = ctx.new()
        env.reset(seed)
        winnable += play(env, seed, right_action(env)).won
    ok = losers == predicted and winnable == len(losers) and 1 <= len(losers) <= 6
    return Verdict(
        ok,
        f"solution() loses on seeds {losers} (predicted {predicted}); the right answer wins on "
        f"{winnable}/{len(losers)} of them",
    )


@register("feasible_rare_seed_modulo", feasible_fails=(1, 6))
def _(ctx):
    return claim_rare_infeasible(ctx, lambda env: [boxed(env._answer)], lambda s: s % 64 == 7)


@register("feasible_big_seed_extended_mode", feasible_fails=(1, 6))
def _(ctx):
    def surcharged(seed):
        env = ctx.new()
        env.reset(seed)
        return env._surcharge > 0

    return claim_rare_infeasible(ctx, lambda env: [boxed(env._answer)], surcharged)


@register("feasible_edge_value_target", feasible_fails=(1, 6))
def _(ctx):
    def edge(seed):
        env = ctx.new()
        env.reset(seed)
        return env._n >= 625

    return claim_rare_infeasible(ctx, lambda env: [boxed(env._answer)], edge)


@register("feasible_tool_tie_break", feasible_fails=(1, 6))
def _(ctx):
    def tie(seed):
        env = ctx.new()
        env.reset(seed)
        return env.solution()[-1] != env._expected_answer

    return claim_rare_infeasible(ctx, lambda env: [answer_tag(env._expected_answer)], tie)


# ============================================================================================ distinct_tasks
def claim_few_tasks(ctx: Ctx, period: int) -> Verdict:
    distinct = len({(first_obs(ctx, seed), json.dumps(ctx.solution(seed), default=str)) for seed in SEEDS})
    verdict = claim_rate(ctx, lambda s: ctx.actions(s % period), f"replaying the solution of seed % {period}")
    return Verdict(
        verdict.ok and distinct == period,
        f"{verdict.summary}; {distinct} distinct tasks (first observation + solution) in 100 seeds",
    )


@register("distinct_tasks_seed_mod_three")
def _(ctx):
    return claim_few_tasks(ctx, 3)


@register("distinct_tasks_tool_mod_four")
def _(ctx):
    return claim_few_tasks(ctx, 4)


# ============================================================================================ observable_task
def claim_unobservable(ctx: Ctx, probes: list[list[str]]) -> Verdict:
    """The same actions give the same observations on every seed, while the answers differ."""
    same, lucky = True, 0
    for actions in probes:
        seen = set()
        for seed in SEEDS:
            episode = play(ctx.new(), seed, actions)
            if episode.won:  # a lucky hit is the only thing that can look different
                lucky += 1
                continue
            seen.add(tuple(episode.observations))
        same &= len(seen) == 1
    answers = {json.dumps(ctx.solution(seed), default=str) for seed in SEEDS}
    return Verdict(
        same and len(answers) > 50,
        f"identical observations on all 100 seeds under {len(probes)} action "
        f"scripts (lucky wins left out: {lucky}): {same}; {len(answers)} distinct solutions",
    )


@register("observable_task_hidden_value_one_shot")
def _(ctx):
    return claim_unobservable(ctx, [[boxed(0)], [boxed(500)], ["hello"]])


@register("observable_task_multi_turn_no_feedback")
def _(ctx):
    return claim_unobservable(ctx, [[boxed("aaaaa"), boxed("zzzzz"), boxed("hello")], [""] * 8])


@register("observable_task_promised_feedback_missing")
def _(ctx):
    verdict = claim_unobservable(
        ctx, [[boxed(250), boxed(125), boxed(375)], [boxed(n) for n in range(1, 11)]]
    )

    def bisect(seed):
        state = {"low": 1, "high": 500, "probe": None}

        def act(obs):
            if state["probe"] is not None:
                if "higher" in obs.lower().split("guesses")[0] and "Not it" not in obs:
                    state["low"] = state["probe"] + 1
                elif "lower" in obs.lower() and "Not it" not in obs:
                    state["high"] = state["probe"] - 1
                else:  # no clue: keep searching the lower half, as a clue-following agent might
                    state["high"] = state["probe"] - 1
            state["probe"] = max(1, (state["low"] + state["high"]) // 2)
            return boxed(state["probe"])

        return act

    wins, total, _ = ctx.rate(bisect)
    return Verdict(
        verdict.ok and wins <= 5, f"{verdict.summary}; a clue-following binary search won {wins}/{total}"
    )


@register("observable_task_tool_hidden_pin")
def _(ctx):
    calls = [tool_call("get_profile"), tool_call("get_settings")]
    return claim_unobservable(ctx, [calls + [answer_tag("1234")], calls[::-1] + calls])


# ============================================================================================ answer_format
def claim_format(ctx: Ctx, instructed: Callable[[str], str], what: str) -> Verdict:
    lost = 100 - ctx.rate(lambda s: [instructed(ctx.answer(s))])[0]
    shown = instructed(ctx.answer(0))
    return Verdict(
        lost == 100,
        f"the instructed form ({what}, e.g. {shown!r} on seed 0, solution {ctx.answer(0)!r}) "
        f"lost on {lost}/100 seeds",
    )


@register("answer_format_fraction_requested_decimal_checked")
def _(ctx):
    def as_fraction(decimal):
        f = Fraction(decimal)
        return boxed(f"{f.numerator}/{f.denominator}")

    return claim_format(ctx, as_fraction, "a/b")


@register("answer_format_comma_requested_space_checked")
def _(ctx):
    return claim_format(ctx, lambda a: boxed(", ".join(a.split())), "comma-separated")


@register("answer_format_tool_date_format")
def _(ctx):
    def iso(dmy):
        d, m, y = dmy.split("/")
        return answer_tag(f"{y}-{m}-{d}")

    return claim_format(ctx, iso, "YYYY-MM-DD")


# ============================================================================================ instructions_start_unmet
def claim_first_met(ctx: Ctx, skip_script: Callable[[Any], list[str]]) -> Verdict:
    met, wins = 0, 0
    for seed in SEEDS:
        env = ctx.new()
        env.reset(seed)
        if getattr(env, "_message_criteria", None) is not None:
            met += bool(env._message_criteria[0](env._state))
        else:
            met += bool(env._user_messages[0]["check"](env._state))
        wins += play(env, seed, skip_script(env)).won
    return Verdict(
        met == 100 and wins >= 98,
        f"first criterion true at reset on {met}/100 seeds; the script that "
        f"never does instruction 1 won {wins}/100",
    )


@register("instructions_start_unmet_release_criteria")
def _(ctx):
    return claim_first_met(
        ctx,
        lambda env: [
            tool_call("switch_light", zone=env._zone, state="off"),
            tool_call("lock", door=env._door),
            tool_call("status"),
            answer_tag("done"),
        ],
    )


@register("instructions_start_unmet_dict_check")
def _(ctx):
    return claim_first_met(
        ctx,
        lambda env: [
            tool_call("update_address", order_id=env._order, address=env._address),
            tool_call("add_note", order_id=env._order, note=env._note),
            answer_tag("done"),
        ],
    )


@register("instructions_start_unmet_read_check")
def _(ctx):
    return claim_first_met(
        ctx,
        lambda env: [
            tool_call("add_data_pack", line=env._line, gb=env._pack),
            tool_call("change_plan", line=env._line, plan=env._plan),
            tool_call("change_plan", line=env._line, plan=env._plan),
            answer_tag("done"),
        ],
    )


# ============================================================================================ oracle_consistent
@register("oracle_consistent_solution_flag")
def _(ctx):
    fresh = claim_rate(ctx, lambda s: [boxed(0)], "\\boxed{0} on a fresh instance (no solution() call)")
    audited = 0
    for seed in SEEDS:
        env = ctx.new()
        env.reset(seed)
        env.solution()
        audited += play(env, seed, [boxed(0)] * 3).won
    return Verdict(fresh.ok and audited == 0, f"{fresh.summary}; after solution() it won {audited}/100")


@register("oracle_consistent_hint_easier")
def _(ctx):
    hinted = 0
    for seed in SEEDS:
        env = ctx.new()
        env.reset(seed)
        env.hint()
        hinted += play(env, seed, [boxed(0)], reset=False).won
    plain = ctx.rate(lambda s: [boxed(0)] * 3)[0]
    return Verdict(
        hinted >= 98 and plain == 0,
        f"reset + hint() + \\boxed{{0}} won {hinted}/100; without hint() \\boxed{{0}} won {plain}/100",
    )


@register("oracle_consistent_tool_solution_flag")
def _(ctx):
    fresh = claim_rate(ctx, lambda s: [answer_tag(0)], "<answer>0</answer> on a fresh instance")
    audited = 0
    for seed in SEEDS:
        env = ctx.new()
        env.reset(seed)
        env.solution()
        audited += play(env, seed, [answer_tag(0)]).won
    return Verdict(fresh.ok and audited <= 1, f"{fresh.summary}; after solution() it won {audited}/100")


# ============================================================================================ reward_range
def claim_big_reward(ctx: Ctx, at_least: float) -> Verdict:
    biggest = 0.0
    for seed in SEEDS:
        episode = play(ctx.new(), seed, ctx.actions(seed))
        biggest = max(biggest, max(episode.rewards))
    declared = getattr(ctx.loaded.cls, "reward_range", None)
    return Verdict(
        biggest >= at_least,
        f"declared reward_range {declared}; replaying solution() gives rewards up to {biggest:g}",
    )


@register("reward_range_infinite_declared", skip_contract=("reward",))
def _(ctx):
    return claim_big_reward(ctx, 1e299)


@register("reward_range_declared_zero_to_ten", skip_contract=("reward",))
def _(ctx):
    return claim_big_reward(ctx, 10)


# ============================================================================================ max_turns_honoured
def turns_until_end(env: Any, seed: int, action: str) -> int:
    return len(play(env, seed, [action] * 100).rewards)


@register("max_turns_honoured_hard_coded")
def _(ctx):
    short = {turns_until_end(ctx.new(max_turns=3), s, boxed(0)) for s in SEEDS}
    long = {turns_until_end(ctx.new(max_turns=30), s, boxed(0)) for s in SEEDS}
    return Verdict(
        short == {10} and long == {10}, f"max_turns=3 ended after {short} turns, max_turns=30 after {long}"
    )


@register("max_turns_honoured_reveals_answer")
def _(ctx):
    leak = claim_rate(
        ctx,
        lambda s: [boxed(re.search(r"the total is (\d+)", first_obs(ctx, s, max_turns=20)).group(1))],
        "copy the practice line at max_turns=20",
        max_turns=20,
    )
    hidden = sum(str(ctx.answer(s)) in first_obs(ctx, s) for s in SEEDS)
    return Verdict(
        leak.ok and hidden == 0, f"{leak.summary}; at the default max_turns the answer shows on {hidden}/100"
    )


@register("max_turns_honoured_tool_use")
def _(ctx):
    short = {turns_until_end(ctx.new(max_turns=4), s, tool_call("list_rooms")) for s in SEEDS}
    long = {turns_until_end(ctx.new(max_turns=40), s, tool_call("list_rooms")) for s in SEEDS}
    fits = claim_rate(ctx, lambda s: ctx.actions(s), "the 9-action solution at max_turns=4", max_turns=4)
    return Verdict(
        short == {12} and long == {12} and fits.ok,
        f"max_turns=4 ended after {short} turns, max_turns=40 after {long}; {fits.summary}",
    )


# ============================================================================================ instance_isolation
def claim_interleaved(ctx: Ctx, own_actions: Callable[[Any], list[str]]) -> Verdict:
    """a.reset(s1), remember a's own solution, b.reset(s2), replay a's solution on a (no reset)."""
    alone, interleaved = 0, 0
    for s1, s2 in zip(SEEDS, SEEDS[1:] + SEEDS[:1]):
        a = ctx.new()
        a.reset(s1)
        actions = own_actions(a)
        b = ctx.new()
        b.reset(s2)
        interleaved += play(a, None, actions, reset=False).won
        single = ctx.new()
        single.reset(s1)
        alone += play(single, None, own_actions(single), reset=False).won
    return Verdict(
        alone >= 98 and interleaved <= 10,
        f"a's own solution wins alone on {alone}/100 seeds, after b.reset(other seed) on {interleaved}/100",
    )


@register("instance_isolation_class_list")
def _(ctx):
    return claim_interleaved(ctx, lambda env: split_solution(env.solution(), False))


@register("instance_isolation_module_counter")
def _(ctx):
    return claim_interleaved(ctx, lambda env: split_solution(env.solution(), True))


# ============================================================================================ wall_clock
class _FakeTime:
    def __init__(self, now: float) -> None:
        self.now = now

    def time(self) -> float:
        return self.now

    def monotonic(self) -> float:
        return _time.monotonic()


def _fake_datetime(today: _datetime.date) -> types.ModuleType:
    module = types.ModuleType("datetime")

    class FakeDate(_datetime.date):
        @classmethod
        def today(cls):
            return cls(today.year, today.month, today.day)

    module.date, module.timedelta, module.datetime = FakeDate, _datetime.timedelta, _datetime.datetime
    return module


def claim_clock(ctx: Ctx, name: str, first: Any, second: Any) -> Verdict:
    namespace = ctx.loaded.namespace
    original = namespace[name]
    changed = 0
    try:
        for seed in SEEDS:
            namespace[name] = first
            a = (first_obs(ctx, seed), ctx.solution(seed))
            namespace[name] = second
            b = (first_obs(ctx, seed), ctx.solution(seed))
            changed += a[1] != b[1] and a[0] != b[0]
    finally:
        namespace[name] = original
    return Verdict(
        changed >= 98, f"patched clock on two days: observation and solution changed on {changed}/100 seeds"
    )


@register("wall_clock_time_picks_task")
def _(ctx):
    return claim_clock(ctx, "time", _FakeTime(1_700_000_000.0), _FakeTime(1_700_000_000.0 + 86400))


@register("wall_clock_datetime_in_observation")
def _(ctx):
    return claim_clock(
        ctx,
        "datetime",
        _fake_datetime(_datetime.date(2025, 1, 1)),
        _fake_datetime(_datetime.date(2025, 1, 2)),
    )


@register("wall_clock_fast_steps_honest")
def _(ctx):
    def slow(seed):
        def act(obs):
            _time.sleep(0.002)
            return boxed(0)

        return act

    slow_wins = claim_rate(ctx, slow, "\\boxed{0} sent 2 ms after the previous call")
    fast = ctx.rate(lambda s: [boxed(0)] * 3)[0]
    return Verdict(slow_wins.ok and fast <= 5, f"{slow_wins.summary}; sent at once it won {fast}/100")


# ============================================================================================ step_budget
def claim_slow_step(ctx: Ctx, big: str, small: str) -> Verdict:
    env = ctx.new()
    env.reset(0)
    _, fast_s, _ = timed(5.0, lambda: env.step(small))
    env.reset(0)
    _, slow_s, timed_out = timed(3.0, lambda: env.step(big))
    return Verdict(
        timed_out and fast_s < 0.2,
        f"{small!r} took {fast_s * 1000:.1f} ms; {big[:60]!r} was still "
        f"running after {slow_s:.1f} s (stopped)",
    )


@register("step_budget_trial_division")
def _(ctx):
    return claim_slow_step(ctx, boxed(2147483647), boxed(97))


@register("step_budget_string_length")
def _(ctx):
    return claim_slow_step(ctx, boxed(2147483647), boxed(100))


@register("step_budget_tool_loop")
def _(ctx):
    return claim_slow_step(ctx, tool_call("simulate", months=2147483647), tool_call("simulate", months=24))


# ============================================================================================ game-form defects
@register("trivially_solvable_game_constant_move")
def _(ctx):
    return claim_rate(ctx, lambda s: [boxed("wait")] * 20, "constant \\boxed{wait}")


@register("instance_isolation_game_shared_board")
def _(ctx):
    return claim_interleaved(ctx, lambda env: split_solution(env.solution(), False))


@register("wall_clock_game_real_time_fuse")
def _(ctx):
    namespace, original = ctx.loaded.namespace, ctx.loaded.namespace["time"]
    slow = 0
    try:
        for seed in SEEDS:
            actions = ctx.actions(seed)
            env = ctx.new()
            namespace["time"] = _FakeTime(1_700_000_000.0)
            env.reset(seed)
            namespace["time"] = _FakeTime(1_700_000_031.0)  # the agent thought for 31 seconds
            slow += play(env, seed, actions, reset=False).won
    finally:
        namespace["time"] = original
    fast = ctx.rate(lambda s: ctx.actions(s))[0]
    return Verdict(
        slow == 0 and fast == 100, f"solution() replayed at once won {fast}/100; 31 s after reset {slow}/100"
    )


@register("answer_leak_game_debug_map")
def _(ctx):
    def find_x(seed):
        rows = first_obs(ctx, seed).split("01234567\n")[1].splitlines()
        for line in rows:
            if "X" in line:
                return f"{line.split()[0]} {line.split()[1].index('X')}"
        return "0 0"

    return claim_copy(ctx, find_x, lambda rc: boxed(f"dig {rc}"), "dig where the map shows X")


# ============================================================================================ probes of valid files
def _probe_equivalent_forms(ctx):
    ok_forms = bad_forms = 0
    for seed in SEEDS:
        value = Fraction(ctx.answer(seed))
        p, q = value.numerator, value.denominator
        forms = [f"{2 * p}/{2 * q}", f"\\frac{{{p}}}{{{q}}}"]
        if all(f in (2, 5) for f in _prime_factors(q)):
            forms.append(str(p / q))
        wrong = [f"{q}/{p}", f"-{p}/{q}", f"{p + 1}/{q}", f"{p}/{q + 1}"]
        ok_forms += all(play(ctx.new(), seed, [boxed(f)]).won for f in forms)
        bad_forms += any(play(ctx.new(), seed, [boxed(f)]).won for f in wrong)
    return Verdict(
        ok_forms == 100 and bad_forms == 0,
        f"equal forms (2p/2q, \\frac, finite decimal) won on {ok_forms}/100 "
        f"seeds; reciprocal/negation/near misses won on {bad_forms}/100",
    )


def _prime_factors(n: int) -> set[int]:
    factors, d = set(), 2
    while d * d <= n:
        while n % d == 0:
            factors.add(d)
            n //= d
        d += 1
    return factors | ({n} if n > 1 else set())


def _probe_honest_hint(ctx):
    leaks, hints = 0, set()
    for seed in SEEDS:
        env = ctx.new()
        env.reset(seed)
        hint = env.hint()
        hints.add(hint)
        leaks += bool(re.search(r"(?<!\w)\d", hint)) or str(ctx.answer(seed)) in hint
    return Verdict(
        leaks == 0, f"{len(hints)} distinct hint text(s), none with a number or the answer: {min(hints)!r}"
    )


def _probe_interleaved(ctx):
    return claim_interleaved_ok(ctx)


def claim_interleaved_ok(ctx):
    wins = 0
    for s1, s2 in zip(SEEDS, SEEDS[1:] + SEEDS[:1]):
        a = ctx.new()
        a.reset(s1)
        actions = split_solution(a.solution(), ctx.tool_use)
        b = ctx.new()
        b.reset(s2)
        b.step(actions[0] if actions else "")
        wins += play(a, None, actions, reset=False).won
    return Verdict(
        wins == 100, f"a's solution still wins after b.reset(other seed) and a step of b on {wins}/100 seeds"
    )


def _probe_bounded_step(ctx):
    env = ctx.new()
    env.reset(0)
    _, took, timed_out = timed(3.0, lambda: env.step(boxed(2147483647)))
    return Verdict(not timed_out and took < 0.05, f"\\boxed{{2147483647}} answered in {took * 1000:.2f} ms")


def _probe_turn_budget(ctx):
    ends = {mt: {turns_until_end(ctx.new(max_turns=mt), s, boxed(0)) for s in SEEDS[:20]} for mt in (2, 3, 7)}
    stated = all(f"You have {mt} attempts" in first_obs(ctx, 0, max_turns=mt) for mt in (2, 3, 7))
    same_task = len({first_obs(ctx, 0, max_turns=mt).split("You have")[0] for mt in (2, 3, 7)}) == 1
    return Verdict(
        ends == {2: {2}, 3: {3}, 7: {7}} and stated and same_task,
        f"episodes end after {ends}; the budget is stated: {stated}; the task is the same for every budget: {same_task}",
    )


def _probe_fixed_dates(ctx):
    namespace = ctx.loaded.namespace
    original = namespace["time"]
    try:
        before = [(first_obs(ctx, s), ctx.solution(s)) for s in SEEDS[:20]]
        namespace["time"] = types.SimpleNamespace(
            strftime=_time.strftime,
            time=lambda: 4_000_000_000.0,
            monotonic=_time.monotonic,
            localtime=_time.localtime,
        )
        after = [(first_obs(ctx, s), ctx.solution(s)) for s in SEEDS[:20]]
    finally:
        namespace["time"] = original
    return Verdict(
        before == after, f"with the clock moved to 2096 the first 20 tasks are unchanged: {before == after}"
    )


def _probe_skip_tools(ctx):
    lucky = ctx.rate(lambda s: [answer_tag(ctx.answer(s))])[0]
    return Verdict(lucky == 0, f"the right number without the transfer won {lucky}/100")


def _probe_order_matters(ctx):
    reversed_wins = ctx.rate(lambda s: [answer_tag(", ".join(reversed(ctx.answer(s).split(", "))))])[0]
    return Verdict(reversed_wins == 0, f"the right IDs in reverse order won {reversed_wins}/100")


def _probe_example_never_answer(ctx):
    wins = ctx.rate(lambda s: [boxed(250)])[0]
    return Verdict(wins == 0, f"copying the format example \\boxed{{250}} won {wins}/100")


def _probe_partial_bounded(ctx, farm):
    best = 0.0
    for seed in SEEDS:
        episode = play(ctx.new(), seed, farm(seed))
        if not episode.won:
            best = max(best, sum(episode.rewards))
    return Verdict(best < 0.5, f"the most a farming script collected without winning: {best:.2f}")


# ============================================================================================ valid
valid("valid_multiple_choice_letter", constants=(("\\boxed{A}", 0.35), ("\\boxed{B}", 0.35)))
valid("valid_multiple_choice_numbers", multiple_choice=True)
valid(
    "valid_balanced_yes_no", multiple_choice=True, constants=(("\\boxed{yes}", 0.62), ("\\boxed{no}", 0.62))
)
valid("valid_small_task_space", chance=0.05)
valid(
    "valid_partial_credit_progress",
    probe=lambda ctx: _probe_partial_bounded(
        ctx, lambda s: [boxed(m) for m in ["north", "south", "east", "west"] * 10]
    ),
)
valid("valid_sliding_puzzle_long")
valid("valid_hanoi_five_disks")
valid("valid_guess_number_higher_lower")
valid("valid_mastermind_codes")


valid("valid_tool_release_one_string")
valid("valid_tool_release_multi_criteria")
valid("valid_tool_release_multi_read_flag")
valid("valid_tool_release_check_answer_override", probe=lambda ctx: _probe_order_matters(ctx))
valid("valid_tool_our_multi_instruction")
valid("valid_tool_retrieval_id")
valid("valid_tool_transfer_verified", probe=lambda ctx: _probe_skip_tools(ctx))


valid(
    "valid_corpus_bisection_probe",
    probe=lambda ctx: _probe_partial_bounded(
        ctx,
        lambda s: [
            boxed(f"evaluate {x}") for x in (512, 256, 768, 1, 1022, 100, 900, 3, 1020, 50, 60, 70, 80)
        ],
    ),
)
valid(
    "valid_corpus_building_search",
    probe=lambda ctx: _probe_partial_bounded(
        ctx,
        lambda s: [
            boxed(f"go {r}")
            for r in [
                "archive",
                "atrium",
                "canteen",
                "cellar",
                "gallery",
                "library",
                "loft",
                "mailroom",
                "studio",
                "vault",
                "lobby",
            ]
            * 2
        ],
    ),
)
valid("valid_release_single_answer_math_verify")
valid("valid_release_multi_turn_math_verify", probe=lambda ctx: _probe_interleaved(ctx))
valid("valid_release_single_answer_plain")
valid("valid_honest_hint", probe=lambda ctx: _probe_honest_hint(ctx))
valid("valid_fixed_date_formatting", probe=lambda ctx: _probe_fixed_dates(ctx))
valid("valid_turn_budget_in_observation", probe=lambda ctx: _probe_turn_budget(ctx))
valid("valid_equivalent_fraction_forms", probe=_probe_equivalent_forms)
valid("valid_prime_among_listed", multiple_choice=True)
valid("valid_format_example_not_answer", probe=lambda ctx: _probe_example_never_answer(ctx))
valid("valid_class_constants_tables", probe=lambda ctx: _probe_interleaved(ctx))
valid("valid_step_cost_bounded", probe=lambda ctx: _probe_bounded_step(ctx))


# ============================================================================================ the runner
def smoke_contract(ctx: Ctx, skip: tuple[str, ...]) -> list[str]:
    """Problems with the parts of the contract every zoo file must keep apart from its defect."""
    problems = []
    for seed in (0, 3, BIG_SEEDS[0]):
        env = ctx.new()
        a, _ = env.reset(seed)
        b, _ = ctx.new().reset(seed)
        if "determinism" not in skip and a != b:
            problems.append(f"seed {seed}: two instances gave different first observations")
        if not isinstance(a, str) or not a.strip():
            problems.append(f"seed {seed}: empty observation")
        if "garbage" not in skip:
            for action in GARBAGE:
                try:
                    _, reward, term, trunc, _ = env.step(action)
                except Exception as error:  # noqa: BLE001
                    problems.append(
                        f"seed {seed}: step({action[:20]!r}) raised {type(error).__name__}: {error}"
                    )
                    break
                if "reward" not in skip and not -1 <= reward <= 1:
                    problems.append(f"seed {seed}: reward {reward} out of [-1, 1]")
                if term or trunc:
                    env.reset(seed)
        if "terminates" not in skip:
            for action in ("\\boxed{0}", "", "<answer>0</answer>"):
                limit = getattr(ctx.new(), "max_turns", 10)
                episode = play(ctx.new(), seed, [action] * (limit + 5))
                if not (episode.terminated or episode.truncated) or len(episode.rewards) > limit:
                    problems.append(f"seed {seed}: {action!r} x {limit} did not end the episode by max_turns")
                    break
        if "post_episode" not in skip:
            for ender in ("\\boxed{0}", "<answer>0</answer>", ""):
                env = ctx.new()
                episode = play(env, seed, [ender] * 200)
                if not (episode.terminated or episode.truncated):
                    continue
                ref = ctx.new()
                ref.reset(seed)
                for after in ["\\boxed{1}", "<answer>0</answer>"] + split_solution(
                    ref.solution(), ctx.tool_use
                )[:2]:
                    _, reward, term, trunc, _ = env.step(after)
                    if reward != 0.0 or not (term or trunc):
                        problems.append(
                            f"seed {seed}: step({after[:30]!r}) after the end gave reward {reward}, "
                            f"flags {term, trunc}"
                        )
                        break
    return problems


def check_solutions(ctx: Ctx) -> tuple[int, list[int], str]:
    losers, detail = [], ""
    for seed in SEEDS:
        env = ctx.new()
        env.reset(seed)
        solution = env.solution()
        actions = split_solution(solution, ctx.tool_use)
        limit = getattr(env, "max_turns", 10)
        episode = play(env, seed, actions)
        if not episode.won:
            losers.append(seed)
            if not detail:
                detail = (
                    f"seed {seed}: {len(actions)} actions (max_turns {limit}), rewards {episode.rewards[-3:]}, "
                    f"last obs {episode.last[:120]!r}"
                )
    return len(SEEDS) - len(losers), losers, detail


def check_valid(ctx: Ctx, spec: Spec) -> list[str]:
    problems, lines = [], []
    limit = getattr(ctx.new(), "max_turns", 10)
    checks = [(a, spec.chance) for a in ("\\boxed{0}", "\\boxed{1}", "<answer>0</answer>")] + list(
        spec.constants
    )
    if ctx.tool_use:
        checks.append(("<answer>done</answer>", spec.chance))
        for seed in SEEDS:
            env = ctx.new()
            env.reset(seed)
            criteria = getattr(env, "_message_criteria", None)
            if criteria is None:
                criteria = [m["check"] for m in getattr(env, "_user_messages", []) if isinstance(m, dict)]
            if any(criterion(env._state) for criterion in criteria):
                problems.append(f"seed {seed}: an instruction's criterion already holds at reset")
                break
    for action, chance in checks:
        wins, total, _ = ctx.rate(lambda s, a=action: [a] * limit)
        lines.append(f"{action} {wins}/{total}")
        if wins > chance * total + 1:
            problems.append(f"constant {action} won {wins}/{total} (chance {chance:.0%})")
    leaks = []
    for seed in SEEDS:
        answer = ctx.answer(seed)
        if answer is None or len(str(answer)) < 2:
            continue
        obs = first_obs(ctx, seed)
        if re.search(rf"(?<![\w.]){re.escape(str(answer))}(?![\w])", obs, re.IGNORECASE):
            leaks.append(seed)
    if leaks and not spec.multiple_choice:
        problems.append(f"the answer appears in the first observation on seeds {leaks[:5]}")
    lines.append(
        f"answer in first observation on {len(leaks)} seeds"
        + (" (multiple choice)" if spec.multiple_choice else "")
    )
    ctx.note("constants: " + ", ".join(lines))
    return problems


def run(names: list[str]) -> int:
    files = sorted(p.stem for p in ZOO.glob("*.py"))
    unregistered = [n for n in names if n not in REGISTRY]
    if unregistered:
        print(f"not registered: {unregistered}")
        return 2
    missing = [n for n in names if n not in files]
    if missing:
        print(f"registered but missing from tests/zoo: {missing}")
        return 2
    failed = 0
    counts: Counter[str] = Counter()
    for name in names:
        spec = REGISTRY[name]
        problems: list[str] = []
        try:
            loaded = load(name)
            ctx = Ctx(loaded)
            counts[loaded.expect] += 1
            wins, losers, detail = check_solutions(ctx)
            low, high = spec.feasible_fails
            if not low <= len(losers) <= high:
                problems.append(
                    f"solution() lost on {len(losers)} of {len(SEEDS)} seeds {losers[:8]}; {detail}"
                )
            sol_line = f"solution {wins}/{len(SEEDS)}" + (f", loses on seeds {losers}" if losers else "")
            problems += smoke_contract(ctx, spec.skip_contract)
            if loaded.expect == "valid":
                problems += check_valid(ctx, spec)
                exploit_line = ""
                if spec.exploit is not None:  # for valid files: a probe of the reason it is correct
                    verdict = spec.exploit(ctx)
                    exploit_line = verdict.summary
                    if not verdict.ok:
                        problems.append(f"the correctness probe failed: {verdict.summary}")
            else:
                if "Exploit" not in loaded.doc and "exploit" not in loaded.doc.lower():
                    problems.append("the docstring names no exploit")
                verdict = spec.exploit(ctx)
                exploit_line = verdict.summary
                if not verdict.ok:
                    problems.append(f"exploit does not reproduce: {verdict.summary}")
        except Exception:  # noqa: BLE001
            problems.append("crashed: " + traceback.format_exc().strip().splitlines()[-1])
            traceback.print_exc()
            sol_line, exploit_line, ctx = "", "", None
        status = "FAIL" if problems else "ok"
        failed += bool(problems)
        print(f"[{status}] {name}: {sol_line}" + (f" | {exploit_line}" if exploit_line else ""))
        for note in ctx.notes if ctx else []:
            print(f"       {note}")
        for problem in problems:
            print(f"       !! {problem}")
    print(
        f"\n{len(names) - failed}/{len(names)} files pass the sanity checks; by expected check: {dict(sorted(counts.items()))}"
    )
    return 1 if failed else 0


if __name__ == "__main__":
    chosen = sys.argv[1:] or sorted(REGISTRY)
    sys.exit(run(chosen))
