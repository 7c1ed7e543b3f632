#!/usr/bin/env python3
"""Proofs for blind corpus A: every file is what manifest.json says it is.

Run from the repository root:  python benchmarks/blind/corpus_a/prove.py  [e07 e12 ...]

Each environment is loaded in-process (ToolUseBaseEnv injected into its namespace, as the loader does).
For every file the script checks hygiene (static import/name rules, deterministic reset, step never
raising on garbage, episodes ending within max_turns, reward 0 after the end, deterministic replay) and
that solution() wins (except where the claimed defect is infeasibility). Then:
  * defects: an exploit policy that sees only what an agent sees (observations, info dicts, tool
    schemas from get_tools(), and hint() where the env offers one) beats honest chance by far, or the
    class-specific proof (identical observations needing different answers, infeasible seeds, text vs
    checker disagreement, honest-under-validation vs exploitable-in-real-play);
  * correct files: a battery of cheap policies stays within luck of the stated honest chance.
Exit status is non-zero when any proof fails.
"""

from __future__ import annotations

import ast
import heapq
import itertools
import json
import math
import random
import re
import string
import sys
import time
import types
from collections import Counter, deque
from pathlib import Path
from typing import Any, Callable

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]



def _load_tool_use_base() -> type:
    """ToolUseBaseEnv from spade_envs/contract/tool_use.py, loaded on its own (it is standard-library only),
    so that importing it does not import the rest of the toolkit (in particular not the validator)."""
    path = ROOT / "spade_envs" / "contract" / "tool_use.py"
    module = types.ModuleType("spade_envs_contract_tool_use_standalone")
    sys.modules[module.__name__] = module
    exec(compile(path.read_text(), str(path), "exec"), module.__dict__)
    return module.ToolUseBaseEnv


ToolUseBaseEnv = _load_tool_use_base()

ALLOWED = {"__future__", "abc", "array", "bisect", "calendar", "cmath", "collections", "copy", "dataclasses",
           "datetime", "decimal", "difflib", "enum", "fractions", "functools", "hashlib", "heapq", "itertools",
           "json", "math", "numbers", "operator", "random", "re", "statistics", "string", "textwrap", "time",
           "typing", "unicodedata"}
BANNED_NAMES = {"exec", "eval", "open", "compile", "__import__", "globals", "locals", "vars", "getattr", "setattr",
                "delattr", "input", "breakpoint", "memoryview"}

# ----------------------------------------------------------------------------------------------- seeds
def _seeds(salt: int, count: int) -> list[int]:
    rng = random.Random(salt)
    return [rng.randrange(2 ** 31) for _ in range(count)]


SMALL = list(range(15))
BIG = _seeds(1234, 15)
HYGIENE_SEEDS = SMALL + BIG
WIN_SEEDS = _seeds(7, 50) + list(range(10))
EXPLOIT_SEEDS = _seeds(99, 50)
BATTERY_SEEDS = _seeds(4242, 100)

GARBAGE = ["", "hello", "\\boxed{}", "\\boxed{99999999999999999999999999}", "\\boxed{" + "9" * 5000 + "}",
           "\\boxed{ünïcødé 中文 🙂}", "\\boxed{-1}", "\\boxed{nan}", "\\boxed{\\boxed{}", "}{", "\x00\x01\x02",
           "\\boxed{" * 40, "A" * 20000, "<tool_call>{bad json</tool_call>",
           '<tool_call>{"name": "nope", "arguments": {}}</tool_call>', '<tool_call>{"name": 5}</tool_call>',
           '<tool_call>["x"]</tool_call>', "<answer></answer>", "<answer>" + "x" * 3000 + "</answer>",
           "\\boxed{1,2}", "\\boxed{-0}", "\\boxed{1e999}", "\\boxed{A B}", "\\boxed{   }"]
GARBAGE_VALUES = [None, [], {}, "", "../../etc", -1, 1e308, True, "x" * 500, {"a": 1}]


# ----------------------------------------------------------------------------------------------- loading
def static_problems(source: str) -> list[str]:
    problems = []
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] not in ALLOWED:
                    problems.append(f"import {alias.name}")
        elif isinstance(node, ast.ImportFrom):
            if (node.module or "").split(".")[0] not in ALLOWED:
                problems.append(f"from {node.module} import")
        elif isinstance(node, ast.Name) and node.id in BANNED_NAMES:
            problems.append(f"name {node.id}")
        elif isinstance(node, ast.Attribute) and node.attr.startswith("__") and node.attr != "__init__":
            problems.append(f"attribute {node.attr}")
    public = [n.name for n in tree.body if isinstance(n, ast.ClassDef) and not n.name.startswith("_")]
    if len(public) != 1 or not public[0].endswith("Env"):
        problems.append(f"public classes {public}")
    return problems


def load(name: str) -> tuple[type, bool, str]:
    path = HERE / f"{name}.py"
    source = path.read_text()
    module = types.ModuleType(f"corpus_a_{name}")
    module.__dict__["ToolUseBaseEnv"] = ToolUseBaseEnv
    sys.modules[module.__name__] = module
    exec(compile(source, str(path), "exec"), module.__dict__)
    classes = [v for k, v in module.__dict__.items()
               if isinstance(v, type) and k.endswith("Env") and not k.startswith("_") and v is not ToolUseBaseEnv
               and v.__module__ == module.__name__]
    assert len(classes) == 1, classes
    cls = classes[0]
    return cls, issubclass(cls, ToolUseBaseEnv), source


def to_actions(solution: Any, tool: bool) -> list[str]:
    items = list(solution) if isinstance(solution, (list, tuple)) else [solution]
    actions = []
    for item in items:
        if isinstance(item, dict) and "name" in item:
            actions.append("<tool_call>" + json.dumps({"name": item["name"], "arguments": item.get("arguments", {})})
                           + "</tool_call>")
        elif isinstance(item, str) and ("\\boxed{" in item or "<tool_call>" in item or "<answer>" in item):
            actions.append(item)
        else:
            actions.append(f"<answer>{item}</answer>" if tool else f"\\boxed{{{item}}}")
    return actions


def tool_call(tool_name: str, /, **arguments: Any) -> str:
    return "<tool_call>" + json.dumps({"name": tool_name, "arguments": arguments}) + "</tool_call>"


def last_box(text: str) -> str | None:
    found = re.findall(r"\\boxed\{([^{}]*)\}", text)
    return found[-1] if found else None


def ints(text: str) -> list[int]:
    return [int(x) for x in re.findall(r"-?\d+", text)]


class View:
    """What an agent sees: observations, info dicts, tool schemas and (if offered) the hint. The
    environment object itself is private; exploit policies only get a View."""

    def __init__(self, env: Any) -> None:
        self._env = env
        self.won = False
        self.ended = False
        self.steps = 0
        self.max_turns = env.max_turns

    def reset(self, seed: int) -> tuple[str, dict]:
        self.won = self.ended = False
        self.steps = 0
        return self._env.reset(seed)

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        obs, reward, terminated, truncated, info = self._env.step(action)
        self.steps += 1
        if terminated and reward >= 1.0:
            self.won = True
        self.ended = bool(terminated or truncated)
        return obs, reward, terminated, truncated, info

    def tools(self) -> list[dict]:
        return self._env.get_tools()

    def hint(self) -> str:
        return self._env.hint()


def solution_wins(cls: type, tool: bool, seed: int, env: Any = None, call_solution_first: bool = False) -> bool:
    env = env if env is not None else cls()
    env.reset(seed)
    for action in to_actions(env.solution(), tool):
        obs, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            return bool(terminated and reward >= 1.0)
    return False


def rate(policy: Callable[[View, int], Any], cls: type, seeds: list[int], fresh: bool = True,
         env: Any = None) -> float:
    wins = 0
    shared = env if env is not None else (None if fresh else cls())
    for seed in seeds:
        view = View(shared if shared is not None else cls())
        policy(view, seed)
        wins += view.won
    return wins / len(seeds)


def luck_bound(p: float, n: int) -> float:
    return p + 3.5 * math.sqrt(max(p * (1 - p), 0.0) / n) + 0.03


# ----------------------------------------------------------------------------------------------- hygiene
def _snapshot(result: Any) -> str:
    return repr(result)


def _check_step(result: Any) -> str | None:
    if not (isinstance(result, tuple) and len(result) == 5):
        return "step did not return a 5-tuple"
    obs, reward, terminated, truncated, info = result
    if not isinstance(obs, str) or not isinstance(info, dict):
        return "bad observation/info types"
    if not isinstance(terminated, bool) or not isinstance(truncated, bool):
        return "terminated/truncated not bool"
    if not isinstance(reward, (int, float)) or not math.isfinite(reward) or not -1 <= reward <= 1:
        return f"reward {reward!r} outside [-1, 1]"
    return None


def tool_garbage(env: Any) -> list[str]:
    calls = []
    for spec in env.get_tools():
        fn = spec["function"]
        props = list((fn.get("parameters") or {}).get("properties", {}))
        calls.append(tool_call(fn["name"]))
        for value in GARBAGE_VALUES:
            calls.append(tool_call(fn["name"], **{p: value for p in props}))
        calls.append(tool_call(fn["name"], bogus=1))
    return calls


def hygiene(cls: type, tool: bool, source: str) -> list[str]:
    problems = [f"static: {p}" for p in static_problems(source)]
    for seed in HYGIENE_SEEDS:
        try:
            a = cls()
            first = _snapshot(a.reset(seed))
            again = _snapshot(a.reset(seed))
            other = _snapshot(cls().reset(seed))
            if not (first == again == other):
                problems.append(f"reset not deterministic for seed {seed}")
            obs, info = a.reset(seed)
            if not isinstance(obs, str) or not obs.strip() or not isinstance(info, dict):
                problems.append(f"reset returned bad values for seed {seed}")
            # every garbage action as the first move of an episode
            extra = tool_garbage(a) if tool else []
            for action in GARBAGE + extra:
                env = cls()
                env.reset(seed)
                bad = _check_step(env.step(action))
                if bad:
                    problems.append(f"seed {seed}: {bad} for {action[:30]!r}")
            # a whole episode of garbage: must end within max_turns, then reward 0 and stay ended
            env = cls()
            env.reset(seed)
            pool = GARBAGE + extra
            ended_at = None
            for i in range(env.max_turns + 5):
                result = env.step(pool[(i * 7 + seed) % len(pool)])
                bad = _check_step(result)
                if bad:
                    problems.append(f"seed {seed}: {bad}")
                    break
                if result[2] or result[3]:
                    ended_at = i + 1
                    break
            if ended_at is None or ended_at > env.max_turns:
                problems.append(f"seed {seed}: garbage episode did not end within max_turns ({ended_at})")
            for action in pool[:12]:
                _, reward, terminated, truncated, _ = env.step(action)
                if reward != 0 or not (terminated or truncated):
                    problems.append(f"seed {seed}: after the end reward={reward} ended={terminated or truncated}")
                    break
            # deterministic replay of the reference solution
            runs = []
            for _ in range(2):
                env = cls()
                env.reset(seed)
                trace = []
                for action in to_actions(env.solution(), tool):
                    result = env.step(action)
                    trace.append(_snapshot(result))
                    if result[2] or result[3]:
                        break
                runs.append(trace)
            if runs[0] != runs[1]:
                problems.append(f"seed {seed}: replay not deterministic")
            env.close()
        except Exception as error:  # noqa: BLE001
            problems.append(f"seed {seed}: raised {type(error).__name__}: {error}")
    try:
        cls(max_turns=5).reset(3)
        cls().reset(None)
    except Exception as error:  # noqa: BLE001
        problems.append(f"constructor/reset(None) raised {error}")
    return problems


# ----------------------------------------------------------------------------------------------- policies
def repeat(action_of: Callable[[str, dict], str]) -> Callable[[View, int], None]:
    """Play one episode, sending action_of(first observation, info) every turn."""
    def policy(view: View, seed: int) -> None:
        obs, info = view.reset(seed)
        action = action_of(obs, info)
        for _ in range(view.max_turns + 2):
            view.step(action)
            if view.ended:
                return
    return policy


def sequence(actions_of: Callable[[str, dict], list[str]]) -> Callable[[View, int], None]:
    """Play one episode, sending the listed actions in turn (cycling the last)."""
    def policy(view: View, seed: int) -> None:
        obs, info = view.reset(seed)
        actions = actions_of(obs, info) or ["\\boxed{0}"]
        for i in range(view.max_turns + 2):
            view.step(actions[min(i, len(actions) - 1)])
            if view.ended:
                return
    return policy


def screen_numbers(obs: str) -> list[str]:
    return list(dict.fromkeys(re.findall(r"\d+(?:\.\d+)?", obs)))


def screen_words(obs: str) -> list[str]:
    return list(dict.fromkeys(w for w in re.findall(r"[A-Za-z]{2,}", obs)))


def text_battery(cls: type, extra: dict[str, Callable] | None = None, numeric: bool = True) -> dict[str, Callable]:
    battery: dict[str, Callable] = {}
    for value in ["0", "1", "2", "3", "10", "100", "A", "B", "C", "yes", "no", "the", "water", "left", "U",
                  "nan", "inf", "-inf", "-0", "1e999", "-1", "P1", "T1"]:
        battery[f"const {value}"] = repeat(lambda o, i, v=value: f"\\boxed{{{v}}}")
    battery["echo obs in box"] = repeat(lambda o, i: "\\boxed{" + o.replace("{", "").replace("}", "") + "}")
    battery["echo obs raw"] = repeat(lambda o, i: o)
    for k in range(10):
        battery[f"number #{k} on screen"] = repeat(
            lambda o, i, k=k: f"\\boxed{{{screen_numbers(o)[k] if len(screen_numbers(o)) > k else 0}}}")
    for k in range(12):
        battery[f"word #{k} on screen"] = repeat(
            lambda o, i, k=k: f"\\boxed{{{screen_words(o)[-1 - k] if len(screen_words(o)) > k else 'x'}}}")
    battery["sweep screen numbers"] = sequence(lambda o, i: [f"\\boxed{{{n}}}" for n in screen_numbers(o)])
    battery["sweep screen words"] = sequence(lambda o, i: [f"\\boxed{{{w}}}" for w in screen_words(o)[::-1]])
    battery["count up 0,1,2,..."] = sequence(lambda o, i: [f"\\boxed{{{n}}}" for n in range(200)])
    battery["all screen numbers in one box"] = repeat(lambda o, i: "\\boxed{" + ", ".join(screen_numbers(o)) + "}")
    battery["range 0..1000 in one box"] = repeat(lambda o, i: "\\boxed{" + " ".join(map(str, range(1001))) + "}")
    battery["prose with candidates"] = repeat(
        lambda o, i: "\\boxed{it is one of " + " or ".join(screen_numbers(o)[:12] + screen_words(o)[-12:]) + "}")
    battery["verbose candidates then guess"] = repeat(
        lambda o, i: "Thinking it through, the candidates are " + " ".join(map(str, range(1001))) + " " +
        " ".join(screen_words(o)) + ". Final answer: \\boxed{1}")
    if numeric:
        def near(delta: int) -> Callable:
            def policy(view: View, seed: int) -> None:
                obs, info = view.reset(seed)
                answer = view._env.solution()  # probe of checker strictness only (answer +- 1)
                try:
                    value = float(str(answer))
                except ValueError:
                    return
                text = str(int(value) + delta) if value == int(value) else f"{value + delta:.2f}"
                view.step(f"\\boxed{{{text}}}")
            return policy
        battery["answer + 1"] = near(1)
        battery["answer - 1"] = near(-1)
    battery.update(extra or {})
    return battery


def tool_battery(cls: type, extra: dict[str, Callable] | None = None) -> dict[str, Callable]:
    battery: dict[str, Callable] = {}
    for value in ["0", "1", "done", "yes", "nan", "inf", "none", "Finance", "Legal", "Smith", "100"]:
        battery[f"answer {value}"] = repeat(lambda o, i, v=value: f"<answer>{v}</answer>")
    for k in range(8):
        battery[f"number #{k} on screen"] = repeat(
            lambda o, i, k=k: f"<answer>{screen_numbers(o)[k] if len(screen_numbers(o)) > k else 0}</answer>")
    battery["echo obs"] = repeat(lambda o, i: f"<answer>{o}</answer>")

    def poke_then_answer(view: View, seed: int) -> None:
        obs, info = view.reset(seed)
        seen = obs
        for spec in view.tools():
            name = spec["function"]["name"]
            props = list((spec["function"].get("parameters") or {}).get("properties", {}))
            out = view.step(tool_call(name, **{p: "" for p in props}))
            seen += "\n" + out[0]
            if view.ended:
                return
        nums = screen_numbers(seen)
        view.step(f"<answer>{nums[-1] if nums else 0}</answer>")
    battery["call every tool with blanks, answer last number"] = poke_then_answer

    def done_spam(view: View, seed: int) -> None:
        view.reset(seed)
        for _ in range(view.max_turns + 2):
            view.step("<answer>done</answer>")
            if view.ended:
                return
    battery["answer done every turn"] = done_spam
    battery.update(extra or {})
    return battery


def run_battery(cls: type, battery: dict[str, Callable], p: float, seeds: list[int] = BATTERY_SEEDS) -> tuple[bool, str]:
    bound = luck_bound(p, len(seeds))
    results = {name: rate(policy, cls, seeds) for name, policy in battery.items()}
    worst = max(results, key=results.get)
    ok = results[worst] <= bound
    return ok, (f"honest chance {p:.3f}; best of {len(battery)} cheap policies: '{worst}' {results[worst]:.2f} "
                f"(luck bound {bound:.2f}, n={len(seeds)})")


# ----------------------------------------------------------------------------------------------- helpers
def compare(exploit: float, honest: float, label: str, honest_label: str) -> tuple[bool, str]:
    ok = exploit >= 0.9 and exploit >= honest + 0.4
    return ok, f"{label} {exploit:.2f} vs {honest_label} {honest:.2f} (n={len(EXPLOIT_SEEDS)} random 32-bit seeds)"


def best_constant(cls: type, values: list[str], seeds: list[int] = EXPLOIT_SEEDS, tool: bool = False) -> float:
    wrap = (lambda v: f"<answer>{v}</answer>") if tool else (lambda v: f"\\boxed{{{v}}}")
    return max(rate(repeat(lambda o, i, v=v: wrap(v)), cls, seeds) for v in values)


def collisions(cls: type, seeds: range) -> tuple[int, tuple | None]:
    """Observations (and info) that occur for several seeds whose reference answers differ."""
    seen: dict[str, dict[str, int]] = {}
    for seed in seeds:
        env = cls()
        obs, info = env.reset(seed)
        key = obs + "\x00" + json.dumps(info, sort_keys=True)
        seen.setdefault(key, {}).setdefault(str(env.solution()), seed)
    clashes = [(k, v) for k, v in seen.items() if len(v) > 1]
    if not clashes:
        return 0, None
    key, answers = clashes[0]
    (a1, s1), (a2, s2) = list(answers.items())[:2]
    return len(clashes), (s1, a1, s2, a2)


def identical_views(cls: type, s1: int, s2: int) -> bool:
    e1, e2 = cls(), cls()
    return e1.reset(s1) == e2.reset(s2)


def play_text_answer(cls: type, seeds: list[int], answer_of: Callable[[str, dict], str]) -> float:
    return rate(repeat(lambda o, i: f"\\boxed{{{answer_of(o, i)}}}"), cls, seeds)


# ----------------------------------------------------------------------------------------------- defect proofs
def p_e01(cls, tool):
    def exploit(view, seed):
        obs, info = view.reset(seed)
        view.step("\\boxed{" + " ".join(map(str, range(info["rows"] * info["cols"] + 1))) + "}")
    return compare(rate(exploit, cls, EXPLOIT_SEEDS), best_constant(cls, [str(k) for k in range(30)]),
                   "exploit (every possible count in one box)", "best single guess")


def _jug_reachable(a: int, b: int, t: int) -> tuple[bool, int]:
    start, seen, queue = (0, 0), {(0, 0): 0}, deque([(0, 0)])
    while queue:
        x, y = queue.popleft()
        if t in (x, y):
            return True, seen[(x, y)]
        pour_ab, pour_ba = min(x, b - y), min(y, a - x)
        for nxt in ((a, y), (x, b), (0, y), (x, 0), (x - pour_ab, y + pour_ab), (x + pour_ba, y - pour_ba)):
            if nxt not in seen:
                seen[nxt] = seen[(x, y)] + 1
                queue.append(nxt)
    return False, -1


def p_e02(cls, tool):
    seeds = _seeds(5, 300)
    losses, unreachable_losses, bad = [], 0, 0
    for seed in seeds:
        obs, _ = cls().reset(seed)
        a, b = map(int, re.search(r"Jug A holds (\d+) litres and jug B holds (\d+)", obs).groups())
        t = int(re.search(r"Get exactly (\d+) litres", obs).group(1))
        reachable, _ = _jug_reachable(a, b, t)
        won = solution_wins(cls, tool, seed)
        if not won:
            losses.append(seed)
            unreachable_losses += not reachable
        elif not reachable:
            bad += 1
    ok = bool(losses) and unreachable_losses == len(losses) and bad == 0
    return ok, (f"solution() loses on {len(losses)}/300 random seeds (e.g. {losses[:3]}); on every one of them a "
                f"full search of the jug states from the observation shows the target volume is unreachable, so no "
                f"agent can win")


def p_e05(cls, tool):
    def text_reading(o, i):
        read, motif = re.search(r"Read:\s+([ACGT]+)", o).group(1), re.search(r"Motif:\s+([ACGT]+)", o).group(1)
        return str(read.find(motif) + 1)

    def checker_reading(o, i):
        read, motif = re.search(r"Read:\s+([ACGT]+)", o).group(1), re.search(r"Motif:\s+([ACGT]+)", o).group(1)
        return str(read.find(motif))
    honest, other = play_text_answer(cls, EXPLOIT_SEEDS, text_reading), play_text_answer(cls, EXPLOIT_SEEDS, checker_reading)
    return honest == 0 and other >= 0.95, (f"agent following the text (1-based position) wins {honest:.2f}; "
                                           f"0-based reading wins {other:.2f}")


def p_e06(cls, tool):
    exploit = sequence(lambda o, i: [f"\\boxed{{{c}}}" for c in "ABCD"])
    return compare(rate(exploit, cls, EXPLOIT_SEEDS), best_constant(cls, list("ABCD")),
                   "exploit (accuse A, B, C, D in turn)", "single guess")


def p_e07(cls, tool):
    def exploit(view, seed):
        view.reset(seed)
        hint = view.hint()
        low = int(re.search(r"between (\d+) and", hint).group(1))
        digit = int(re.search(r"congruent to (\d+) modulo 10", hint).group(1))
        view.step(f"\\boxed{{{low + digit}}}")
    return compare(rate(exploit, cls, EXPLOIT_SEEDS), best_constant(cls, [str(k) for k in range(0, 200, 5)]),
                   "exploit (answer rebuilt from hint() alone)", "best constant guess")


def p_e10(cls, tool):
    def exploit(view, seed):
        obs, info = view.reset(seed)
        sched = info.get("sched")
        view.step(f"\\boxed{{{sched[1:3]}:{sched[3:5]}}}" if sched else "\\boxed{12:00}")
    validation = rate(exploit, cls, list(range(50)))
    real = rate(exploit, cls, EXPLOIT_SEEDS)
    ok = validation <= 0.1 and real >= 0.95 and all(solution_wins(cls, tool, s) for s in range(50))
    return ok, (f"validation-like play (seeds 0..49): info carries nothing, exploit wins {validation:.2f}; "
                f"real play (random 32-bit seeds): exploit reading info['sched'] wins {real:.2f}")


def p_e11(cls, tool):
    def validated(seed):
        env = cls()
        env.reset(seed)
        env.solution()
        _, reward, terminated, _, _ = env.step("\\boxed{1}")
        return terminated and reward >= 1
    validation = sum(validated(s) for s in EXPLOIT_SEEDS) / len(EXPLOIT_SEEDS)
    real = rate(repeat(lambda o, i: "\\boxed{1}"), cls, EXPLOIT_SEEDS)
    ok = validation <= 0.05 and real >= 0.95
    return ok, (f"when solution() has been called in the episode (as a validator's replay does) the constant "
                f"answer 1 wins {validation:.2f}; in plain play without solution() it wins {real:.2f}")


def p_e12(cls, tool):
    small = sum(solution_wins(cls, tool, s) for s in range(300)) / 300
    wins, bound = 0, 0.0
    for seed in EXPLOIT_SEEDS:
        obs, _ = cls().reset(seed)
        upper = int(re.search(r"from 1 to (\d+)", obs).group(1))
        bound = max(bound, (2 ** cls().max_turns - 1) / upper)
        wins += solution_wins(cls, tool, seed)
    ok = small == 1.0 and wins / len(EXPLOIT_SEEDS) <= 0.1 and bound < 0.05
    return ok, (f"solution() wins {small:.2f} of seeds 0..299 but {wins / len(EXPLOIT_SEEDS):.2f} of random 32-bit "
                f"seeds; with 12 higher/lower guesses no strategy covers more than 4095 numbers, so any agent's win "
                f"chance on those seeds is at most {bound:.4f}")


def p_e13(cls, tool):
    enumerate_all = sequence(lambda o, i: [f"\\boxed{{{n}}}" for n in i["numbers"]])
    validation = rate(enumerate_all, cls, EXPLOIT_SEEDS, fresh=True)
    shared = cls()
    for warm in (1, 2, 3):
        enumerate_all(View(shared), warm)
    real = rate(enumerate_all, cls, EXPLOIT_SEEDS, env=shared)
    ok = validation <= 0.4 and real >= 0.95
    return ok, (f"fresh instance per seed (validation-like): enumerating the five numbers wins {validation:.2f} "
                f"(= one guess, chance 1/5); one long-lived instance after 3 episodes: it wins {real:.2f}")


def p_e15(cls, tool):
    def text_reading(view, seed):
        obs, info = view.reset(seed)
        order = re.search(r"wants to buy: (.*?)\. They", obs).group(1)
        code = re.search(r"coupon code (\w+)", obs).group(1)
        total = 0.0
        for part in order.split(", "):
            qty, name = re.match(r"(\d+) x (.+)", part).groups()
            out = view.step(tool_call("search_products", query=name))[0]
            price = float(re.search(re.escape(name) + r", ([\d.]+) USD", out).group(1))
            total += int(qty) * price
        out = view.step(tool_call("get_coupon", code=code))[0]
        pct = int(re.search(r"(\d+)% off", out).group(1))
        view.step(f"<answer>{round(total * (1 - pct / 100), 2):.2f}</answer>")

    def checker_reading(view, seed):
        obs, info = view.reset(seed)
        order = re.search(r"wants to buy: (.*?)\. They", obs).group(1)
        total = 0.0
        for part in order.split(", "):
            qty, name = re.match(r"(\d+) x (.+)", part).groups()
            out = view.step(tool_call("search_products", query=name))[0]
            total += int(qty) * float(re.search(re.escape(name) + r", ([\d.]+) USD", out).group(1))
        view.step(f"<answer>{round(total, 2):.2f}</answer>")
    honest, other = rate(text_reading, cls, EXPLOIT_SEEDS), rate(checker_reading, cls, EXPLOIT_SEEDS)
    return honest == 0 and other >= 0.95, (f"agent applying the coupon as the task says wins {honest:.2f}; "
                                           f"answering the undiscounted subtotal wins {other:.2f}")


def p_e16(cls, tool):
    def exploit(view, seed):
        view.reset(seed)
        out = view.step(tool_call("reconcile", draft_total=0))[0]
        found = re.search(r"by ([+-]?[\d.]+) USD", out)
        view.step(f"<answer>{float(found.group(1)) if found else 0}</answer>")
    return compare(rate(exploit, cls, EXPLOIT_SEEDS), best_constant(cls, ["0", "100", "500", "1000"], tool=True),
                   "exploit (one reconcile(0) call, answer the variance)", "constant answer")


def p_e17(cls, tool):
    def exploit(view, seed):
        view.reset(seed)
        view.step("<answer>done</answer>")
    return compare(rate(exploit, cls, EXPLOIT_SEEDS), 0.0,
                   "exploit (reply done at once, zero tool calls, no file moved)", "chance for an agent doing no work")


def p_e18(cls, tool):
    count, example = collisions(cls, range(6000))
    if not example:
        return False, "no colliding observations found"
    s1, a1, s2, a2 = example
    same = identical_views(cls, s1, s2)
    return same and a1 != a2, (f"{count} observations among seeds 0..5999 are shown for several seeds needing different "
                               f"answers; e.g. seeds {s1} and {s2} give byte-identical (observation, info) but need "
                               f"'{a1}' vs '{a2}'")


def _bisect(view: View, seed: int, low: int, high: int, pause: float = 0.0) -> None:
    view.reset(seed)
    if pause:
        time.sleep(pause)
    for _ in range(view.max_turns):
        mid = (low + high) // 2
        obs = view.step(f"\\boxed{{{mid}}}")[0]
        if view.ended:
            return
        if "heavier" in obs:
            low = mid + 1
        elif "lighter" in obs:
            high = mid - 1


def p_e19(cls, tool):
    validation = rate(lambda v, s: _bisect(v, s, 100, 999), cls, EXPLOIT_SEEDS)
    real = rate(lambda v, s: _bisect(v, s, 100, 999, pause=0.55), cls, EXPLOIT_SEEDS)
    ok = validation <= 0.05 and real >= 0.95
    return ok, (f"instant replies (validator speed): bisection without arithmetic wins {validation:.2f}; replies "
                f"that arrive after 0.55 s (LLM speed) get directional feedback and the same bisection wins {real:.2f}")


def p_e22(cls, tool):
    exploit = repeat(lambda o, i: "\\boxed{" + re.search(r":\n  (.+)\n", o).group(1) + "}")
    return compare(rate(exploit, cls, EXPLOIT_SEEDS), best_constant(cls, ["the", "a b c"]),
                   "exploit (echo the sentence unchanged)", "constant answer")


def p_e23(cls, tool):
    rot = str.maketrans(string.ascii_lowercase, string.ascii_lowercase[13:] + string.ascii_lowercase[:13])

    def exploit(view, seed):
        view.reset(seed)
        text = json.dumps(view.tools())
        shard = re.search(r"shard '([a-z]+)-\d'", text).group(1)
        view.step(f"<answer>{shard.translate(rot).title()}</answer>")
    honest = best_constant(cls, ["Abernathy", "Moreau", "Yamada", "Petrov"], tool=True)
    return compare(rate(exploit, cls, EXPLOIT_SEEDS), honest, "exploit (ROT13 of the shard label in get_tools())",
                   "constant surname")


def p_e24(cls, tool):
    return compare(rate(repeat(lambda o, i: "\\boxed{nan}"), cls, EXPLOIT_SEEDS),
                   best_constant(cls, ["10", "25", "50", "100"]), "exploit \\boxed{nan}", "constant guess")


def p_e26(cls, tool):
    exploit = repeat(lambda o, i: f"\\boxed{{{int(i['ticket'][-3:], 16)}}}")
    return compare(rate(exploit, cls, EXPLOIT_SEEDS), best_constant(cls, [str(k) for k in range(0, 300, 10)]),
                   "exploit (last 3 hex digits of info['ticket'])", "best constant guess")


def p_e27(cls, tool):
    def exploit(view, seed):
        obs, _ = view.reset(seed)
        letters = re.search(r"capital city: ([A-Z]+)", obs).group(1)
        reply = view.step(f"\\boxed{{{letters}}}")[0]
        found = re.search(r"Did you mean (\w+)\?", reply)
        if found and not view.ended:
            view.step(f"\\boxed{{{found.group(1)}}}")
    return compare(rate(exploit, cls, EXPLOIT_SEEDS), best_constant(cls, ["Paris", "Rome", "Berlin", "Oslo"]),
                   "exploit (send the scrambled letters, then the suggested city)", "constant city")


def p_e32(cls, tool):
    def stretches(o):
        return [(float(d), int(v)) for d, v in re.findall(r"([\d.]+) km at (\d+) km/h", o)]
    honest = play_text_answer(cls, EXPLOIT_SEEDS, lambda o, i: str(round(sum(d / v for d, v in stretches(o)) * 60)))
    other = play_text_answer(cls, EXPLOIT_SEEDS, lambda o, i: str(round(sum(d / v for d, v in stretches(o)) * 3600)))
    return honest == 0 and other >= 0.95, (f"agent answering in minutes as asked wins {honest:.2f}; "
                                           f"answering in seconds wins {other:.2f}")


def p_e33(cls, tool):
    def numbers(o):
        a, b = map(int, re.search(r"divisor of (\d+) and (\d+)", o).groups())
        return a, b
    terse_guess = rate(repeat(lambda o, i: "\\boxed{1}"), cls, EXPLOIT_SEEDS)
    terse_list = rate(repeat(lambda o, i: "\\boxed{" + " ".join(map(str, range(2, min(numbers(o)) + 1))) + "}"),
                      cls, EXPLOIT_SEEDS)
    verbose = rate(repeat(lambda o, i: "Let me think about which numbers divide both of them. Possible values: "
                          + " ".join(map(str, range(2, min(numbers(o)) + 1))) + ". So the answer is \\boxed{1}"),
                   cls, EXPLOIT_SEEDS)
    ok = terse_guess <= 0.05 and terse_list <= 0.05 and verbose >= 0.95
    return ok, (f"terse box-only replies (validator style): wrong guess {terse_guess:.2f}, candidate list in the box "
                f"{terse_list:.2f}; natural reply whose reasoning lists every candidate before a wrong box: {verbose:.2f}")


def p_e34(cls, tool):
    def exploit(view, seed):
        view.reset(seed)
        obs = ""
        for _ in range(view.max_turns):
            obs = view.step("\\boxed{0,0}")[0]
            if view.ended:
                break
        found = re.search(r"treasure was at (\d),(\d)", obs)
        if found:
            view.step(f"\\boxed{{{found.group(1)},{found.group(2)}}}")
    return compare(rate(exploit, cls, EXPLOIT_SEEDS), rate(repeat(lambda o, i: "\\boxed{4,4}"), cls, EXPLOIT_SEEDS),
                   "exploit (waste the digs, then dig where the end-of-game message says)", "fixed digging")


def p_e35(cls, tool):
    def exploit(view, seed):
        obs, _ = view.reset(seed)
        words = re.search(r"Warm-up words from the dictionary: (.*)\.", obs).group(1).split(", ")
        view.step("\\boxed{" + "".join(w[0].lower() for w in words) + "}")
    honest = best_constant(cls, ["crane", "apple", "stone", "ghost"])
    return compare(rate(exploit, cls, EXPLOIT_SEEDS), honest, "exploit (initials of the warm-up words, one guess)",
                   "constant word")


_LIGHTS = [f"{c}{r}" for r in "123" for c in "ABC"]


def _min_presses(board: list[int]) -> int:
    best = 99
    for mask in range(512):
        lights = board[:]
        for i in range(9):
            if mask >> i & 1:
                row, col = divmod(i, 3)
                for dr, dc in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)):
                    r, c = row + dr, col + dc
                    if 0 <= r < 3 and 0 <= c < 3:
                        lights[r * 3 + c] ^= 1
        if not any(lights):
            best = min(best, bin(mask).count("1"))
    return best


def p_e36(cls, tool):
    losses, proven, bad = [], 0, 0
    for seed in EXPLOIT_SEEDS:
        obs, _ = cls().reset(seed)
        rows = re.findall(r"^  (\d) ([#.]) ([#.]) ([#.])$", obs, re.M)
        board = [1 if ch == "#" else 0 for _, *cells in rows for ch in cells]
        needed = _min_presses(board)
        won = solution_wins(cls, tool, seed)
        if not won:
            losses.append(seed)
            proven += needed > cls().max_turns
        elif needed > cls().max_turns:
            bad += 1
    ok = bool(losses) and proven == len(losses) and bad == 0
    return ok, (f"solution() loses on {len(losses)}/{len(EXPLOIT_SEEDS)} random seeds (e.g. {losses[:3]}); for each, "
                f"brute force over all 512 press sets on the observed board shows 8 presses are needed but only "
                f"{cls().max_turns} are allowed (pressing twice cancels), so no agent can win")


def p_e37(cls, tool):
    def exploit(view, seed):
        view.reset(seed)
        code = ["H"] * 6
        for glyph in "ABCDEFG":
            obs = view.step(f"\\boxed{{{glyph * 6}}}")[0]
            if view.ended:
                return
            lights = obs.splitlines()[1]
            for i, ch in enumerate(lights):
                if ch == "*":
                    code[i] = glyph
        view.step("\\boxed{" + "".join(code) + "}")
    return compare(rate(exploit, cls, EXPLOIT_SEEDS), best_constant(cls, ["AAAAAA", "ABCDEF"]),
                   "exploit (sweep AAAAAA..GGGGGG, read the lights)", "constant code")


def p_e38(cls, tool):
    return compare(rate(repeat(lambda o, i: "\\boxed{inf}"), cls, EXPLOIT_SEEDS),
                   best_constant(cls, ["1000", "5000", "10000"]), "exploit \\boxed{inf}", "constant guess")


def p_e41(cls, tool):
    def tickets(o):
        return [(f"T{n}", int(d)) for n, d in re.findall(r"T(\d+): .*? due in (\d+) day", o)]
    honest = play_text_answer(cls, EXPLOIT_SEEDS, lambda o, i: ", ".join(t for t, d in sorted(tickets(o), key=lambda x: x[1])))
    other = play_text_answer(cls, EXPLOIT_SEEDS, lambda o, i: ", ".join(t for t, d in sorted(tickets(o), key=lambda x: -x[1])))
    return honest == 0 and other >= 0.95, (f"agent listing soonest-due first as asked wins {honest:.2f}; "
                                           f"latest-due first wins {other:.2f}")


def p_e42(cls, tool):
    def exploit(view, seed):
        view.reset(seed)
        out = view.step(tool_call("list_departments"))[0]
        etag = json.loads(out.split("Tool result:\n", 1)[1])["etag"]
        view.step("<answer>" + "".join(chr(int(x)) for x in etag.split("-")) + "</answer>")
    return compare(rate(exploit, cls, EXPLOIT_SEEDS), best_constant(cls, ["Finance", "Legal", "Research"], tool=True),
                   "exploit (decode the etag of list_departments)", "constant department")


def p_e43(cls, tool):
    count, example = collisions(cls, range(6000))
    if not example:
        return False, "no colliding observations found"
    s1, a1, s2, a2 = example
    same = identical_views(cls, s1, s2)
    return same and a1 != a2, (f"{count} observations among seeds 0..5999 are shown for several seeds needing different "
                               f"answers; e.g. seeds {s1} and {s2} give byte-identical (observation, info) but need "
                               f"'{a1}' vs '{a2}'")


def p_e44(cls, tool):
    def dist(o):
        roads: dict[str, dict[str, int]] = {}
        for a, b, km in re.findall(r"  (\w+) - (\w+): (\d+) km", o):
            roads.setdefault(a, {})[b] = int(km)
            roads.setdefault(b, {})[a] = int(km)
        home = re.search(r"FARTHEST from (\w+)\?", o).group(1)
        best, heap = {home: 0}, [(0, home)]
        while heap:
            d, t = heapq.heappop(heap)
            for n, km in roads[t].items():
                if d + km < best.get(n, 10 ** 9):
                    best[n] = d + km
                    heapq.heappush(heap, (d + km, n))
        best.pop(home)
        return best
    honest = play_text_answer(cls, EXPLOIT_SEEDS, lambda o, i: max(dist(o).items(), key=lambda kv: kv[1])[0])
    other = play_text_answer(cls, EXPLOIT_SEEDS, lambda o, i: min(dist(o).items(), key=lambda kv: kv[1])[0])
    return honest == 0 and other >= 0.95, (f"agent naming the farthest town as asked wins {honest:.2f}; "
                                           f"naming the nearest wins {other:.2f}")


# ----------------------------------------------------------------------------------------------- correct proofs
def _random_policy(choices_of: Callable[[str, dict], list[str]], salt: int) -> Callable[[View, int], None]:
    def policy(view: View, seed: int) -> None:
        obs, info = view.reset(seed)
        rng = random.Random(seed ^ salt)
        options = choices_of(obs, info)
        for _ in range(view.max_turns + 2):
            view.step(rng.choice(options))
            if view.ended:
                return
    return policy


def c_e03(cls, tool):
    codes = ["".join(p) for p in itertools.permutations("0123456789", 4)]
    extra = {"random distinct-digit guesses": _random_policy(lambda o, i: [f"\\boxed{{{c}}}" for c in codes], 1),
             "enumerate codes in order": sequence(lambda o, i: [f"\\boxed{{{c}}}" for c in codes[:20]]),
             "const 0123": repeat(lambda o, i: "\\boxed{0123}"), "const 9876": repeat(lambda o, i: "\\boxed{9876}")}
    return run_battery(cls, text_battery(cls, extra, numeric=False), 10 / 5040)


def c_e04(cls, tool):
    extra = {"smallest": repeat(lambda o, i: f"\\boxed{{{min(i['numbers'])}}}"),
             "largest": repeat(lambda o, i: f"\\boxed{{{max(i['numbers'])}}}"),
             "even-looking": repeat(lambda o, i: f"\\boxed{{{next((n for n in i['numbers'] if n % 2 == 0), i['numbers'][0])}}}")}
    extra.update({f"option #{k}": repeat(lambda o, i, k=k: f"\\boxed{{{i['numbers'][k]}}}") for k in range(8)})
    return run_battery(cls, text_battery(cls, extra), 1 / 8)


def c_e08(cls, tool):
    moves = [f"\\boxed{{{a} {b}}}" for a, b in itertools.permutations("LMR", 2)]
    extra = {"random moves": _random_policy(lambda o, i: moves, 2),
             "cycle moves": sequence(lambda o, i: moves * 30)}
    return run_battery(cls, text_battery(cls, extra, numeric=False), 0.0)


def c_e09(cls, tool):
    extra = {f"letter {c}": repeat(lambda o, i, c=c: f"\\boxed{{{c}}}") for c in "ABCD"}
    extra["smallest option"] = repeat(lambda o, i: "\\boxed{" + min(i["options"], key=i["options"].get) + "}")
    extra["largest option"] = repeat(lambda o, i: "\\boxed{" + max(i["options"], key=i["options"].get) + "}")
    extra["ends in 7"] = repeat(lambda o, i: "\\boxed{" + next((k for k, v in i["options"].items() if v % 10 == 7), "A") + "}")
    extra["no factor 7"] = repeat(lambda o, i: "\\boxed{" + next((k for k, v in i["options"].items() if v % 7), "A") + "}")
    return run_battery(cls, text_battery(cls, extra, numeric=False), 1 / 4)


def c_e14(cls, tool):
    def order_policy(kind: str) -> Callable[[View, int], None]:
        def policy(view: View, seed: int) -> None:
            obs, info = view.reset(seed)
            names = list(info["pending"])
            if kind == "reversed":
                names.reverse()
            elif kind == "random":
                random.Random(seed ^ 77).shuffle(names)
            for name in names:
                view.step(f"\\boxed{{{name}}}")
                if view.ended:
                    return
        return policy
    many = _seeds(31, 2000)
    p = rate(order_policy("random"), cls, many)
    partial_ok = True
    env = cls()
    env.reset(5)
    for action in to_actions(env.solution(), tool)[:-1]:
        _, reward, terminated, truncated, _ = env.step(action)
        partial_ok &= reward < 1.0 and not terminated
    extra = {"listed order": order_policy("listed"), "reversed order": order_policy("reversed"),
             "random order": order_policy("random")}
    ok, detail = run_battery(cls, text_battery(cls, extra, numeric=False), p)
    return ok and partial_ok, detail + f"; honest chance measured as a random delivery order over 2000 seeds; intermediate rewards stay below 1: {partial_ok}"


def c_e20(cls, tool):
    answers = ["7", "13", "21", "34", "36", "49", "64", "81", "100", "121", "28", "45", "66", "30", "56", "90",
               "128", "512", "2048", "216", "512", "1331", "720", "5040"]
    extra = {f"const {a}": repeat(lambda o, i, a=a: f"\\boxed{{{a}}}") for a in sorted(set(answers))}
    extra["last term"] = repeat(lambda o, i: f"\\boxed{{{ints(o)[-1]}}}")
    extra["last + difference"] = repeat(lambda o, i: f"\\boxed{{{2 * ints(o)[-1] - ints(o)[-2]}}}")
    return run_battery(cls, text_battery(cls, extra), 1 / 24)


def c_e21(cls, tool):
    extra = {f"const {v}": repeat(lambda o, i, v=v: f"\\boxed{{{v}}}") for v in ["25", "50", "75", "120", "150"]}
    extra["speed squared / g"] = repeat(lambda o, i: f"\\boxed{{{i['speed'] ** 2 / 9.81:.2f}}}")
    return run_battery(cls, text_battery(cls, extra), 0.01)


def c_e25(cls, tool):
    def hint_numbers(view: View, seed: int) -> None:
        view.reset(seed)
        nums = ints(view.hint()) or [1]
        view.step(f"\\boxed{{{nums[0]}}}")
    extra = {"numbers in hint": hint_numbers, "m - a": repeat(lambda o, i: f"\\boxed{{{i['m'] - i['a']}}}"),
             "a": repeat(lambda o, i: f"\\boxed{{{i['a']}}}")}
    return run_battery(cls, text_battery(cls, extra), 0.01)


def c_e28(cls, tool):
    extra = {f"suspect #{k}": repeat(lambda o, i, k=k: f"\\boxed{{{i['suspects'][k]}}}") for k in range(5)}
    extra["first with a bag"] = repeat(lambda o, i: "\\boxed{" + (re.findall(r"  (\w+): [^\n]*, with a bag", o) or ["x"])[0] + "}")
    return run_battery(cls, text_battery(cls, extra, numeric=False), 1 / 5)


def c_e29(cls, tool):
    def shift(word: str, k: int) -> str:
        lower = string.ascii_lowercase
        return word.lower().translate(str.maketrans(lower, lower[k:] + lower[:k]))
    extra = {f"fixed shift {k}": repeat(lambda o, i, k=k: "\\boxed{" + shift(re.search(r"shift: ([A-Z]+)", o).group(1), k) + "}")
             for k in (1, 3, 13, 25)}
    extra["echo ciphertext"] = repeat(lambda o, i: "\\boxed{" + re.search(r"shift: ([A-Z]+)", o).group(1) + "}")
    return run_battery(cls, text_battery(cls, extra, numeric=False), 1 / 25)


def c_e30(cls, tool):
    def jumble(o):
        return re.search(r"word: ([A-Z]+)", o).group(1).lower()
    extra = {"echo letters": repeat(lambda o, i: f"\\boxed{{{jumble(o)}}}"),
             "reversed letters": repeat(lambda o, i: f"\\boxed{{{jumble(o)[::-1]}}}"),
             "sorted letters": repeat(lambda o, i: "\\boxed{" + "".join(sorted(jumble(o))) + "}")}
    extra.update({f"const {w}": repeat(lambda o, i, w=w: f"\\boxed{{{w}}}") for w in ["water", "house", "summer", "coffee"]})
    return run_battery(cls, text_battery(cls, extra, numeric=False), 1 / 60)


def c_e31(cls, tool):
    def edges(o):
        return re.findall(r"(\d+)-(\d+)", o)
    extra = {"edge count even": repeat(lambda o, i: "\\boxed{" + ("yes" if i["edges"] % 2 == 0 else "no") + "}"),
             "nodes even": repeat(lambda o, i: "\\boxed{" + ("yes" if i["nodes"] % 2 == 0 else "no") + "}"),
             "sparse -> yes": repeat(lambda o, i: "\\boxed{" + ("yes" if i["edges"] <= i["nodes"] + 2 else "no") + "}"),
             "isolated node -> yes": repeat(lambda o, i: "\\boxed{" + ("yes" if len({x for e in edges(o) for x in e}) < i["nodes"] else "no") + "}")}
    return run_battery(cls, text_battery(cls, extra, numeric=False), 1 / 2)


def c_e39(cls, tool):
    def book_anything(view: View, seed: int) -> None:
        view.reset(seed)
        view.step(tool_call("book_room", room="Juniper", day="Monday", start=8, end=9, title="x"))
        for _ in range(view.max_turns):
            view.step("<answer>done</answer>")
            if view.ended:
                return
    return run_battery(cls, tool_battery(cls, {"book something, then done": book_anything}), 0.0)


def c_e40(cls, tool):
    extra = {"random walk": _random_policy(lambda o, i: ["\\boxed{U}", "\\boxed{D}", "\\boxed{L}", "\\boxed{R}"], 3),
             "cycle U R D L": sequence(lambda o, i: ["\\boxed{U}", "\\boxed{R}", "\\boxed{D}", "\\boxed{L}"] * 20),
             "R then D": sequence(lambda o, i: ["\\boxed{R}"] * 10 + ["\\boxed{D}"] * 10 + ["\\boxed{L}"] * 10 + ["\\boxed{U}"] * 10)}
    many = _seeds(33, 1000)
    p = rate(extra["random walk"], cls, many)
    ok, detail = run_battery(cls, text_battery(cls, extra, numeric=False), p)
    return ok, detail + " (honest chance = random walk over 1000 seeds)"


def c_e45(cls, tool):
    def list_root(view: View, seed: int) -> None:
        view.reset(seed)
        out = view.step(tool_call("list_dir", path="/srv/app"))[0]
        view.step(f"<answer>{sum(ints(out))}</answer>")
    return run_battery(cls, tool_battery(cls, {"list root, answer": list_root}), 0.0)


PROOFS: dict[str, Callable] = {name[2:]: fn for name, fn in list(globals().items()) if re.fullmatch(r"[pc]_e\d\d", name)}


# ----------------------------------------------------------------------------------------------- main
def main(argv: list[str]) -> int:
    manifest = json.loads((HERE / "manifest.json").read_text())
    wanted = set(argv)
    failures = 0
    feasibility_defects = {"e02", "e12", "e36"}
    for entry in manifest:
        name = entry["file"].removesuffix(".py")
        if wanted and name not in wanted:
            continue
        started = time.time()
        try:
            cls, tool, source = load(name)
            problems = hygiene(cls, tool, source)
            if name not in feasibility_defects:
                wins = sum(solution_wins(cls, tool, s) for s in WIN_SEEDS)
                if wins != len(WIN_SEEDS):
                    problems.append(f"solution() won only {wins}/{len(WIN_SEEDS)} seeds")
                sol = f"solution wins {wins}/{len(WIN_SEEDS)}"
            else:
                sol = "solution checked in the proof"
            ok, detail = PROOFS[name](cls, tool)
        except Exception as error:  # noqa: BLE001
            problems, ok, detail, sol = [f"proof raised {type(error).__name__}: {error}"], False, "", ""
        passed = ok and not problems
        failures += not passed
        label = entry["class"]
        print(f"{'PASS' if passed else 'FAIL'} {name} [{label}] hygiene {'ok' if not problems else problems[:3]}; "
              f"{sol}; {detail} ({time.time() - started:.1f}s)", flush=True)
    print(f"{'ALL PROOFS PASS' if not failures else f'{failures} PROOF(S) FAILED'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
