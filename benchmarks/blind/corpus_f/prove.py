#!/usr/bin/env python3
"""Prove every label of blind corpus F (standard library only).

Run from the repository root:

    /work/main/.venv/bin/python benchmarks/blind/corpus_f/prove.py [e01.py e02.py ...]

Each environment file is executed in-process in a fresh namespace into which ``ToolUseBaseEnv`` is
injected (loaded by file path from spade_envs/contract/tool_use.py); the action helpers and probes are
loaded by file path from spade_envs/contract/. Nothing else of the toolkit is imported or run.

Per file:
  * contract: one public *Env class, allow-listed imports only;
  * generic (30 seeds: 0-14 and 15 random 32-bit): reset deterministic (same instance and a fresh
    one), garbage actions never raise and return well-formed steps, episodes end within max_turns,
    after the end every step pays 0 and the episode stays ended;
  * solution() wins on 60 seeds (not for the files whose planted defect is a losing solution());
  * defects: the planted defect's exploit or proof (see EXPLOITS);
  * correct files: a battery of cheap policies stays within p + 3 sd + 0.02 of the stated honest
    chance p on 200 random 32-bit seeds, and harmless variants of the right answer are paid in full.
Prints one PASS/FAIL line per file and "RESULT: N/45 passed"; exits 1 on any failure.
"""

from __future__ import annotations

import ast
import collections
import copy
import datetime
import hashlib
import importlib.util
import itertools
import json
import math
import os
import random
import re
import sys
from fractions import Fraction

sys.dont_write_bytecode = True  # leave no caches next to the toolkit's sources

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))


def _load(name: str, relative: str):
    spec = importlib.util.spec_from_file_location(name, os.path.join(REPO, relative))
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


TU = _load("_corpus_f_tool_use", "spade_envs/contract/tool_use.py")
AC = _load("_corpus_f_actions", "spade_envs/contract/actions.py")
EP = _load("_corpus_f_episode", "spade_envs/contract/episode.py")
PR = _load("_corpus_f_probes", "spade_envs/contract/probes.py")
AL = _load("_corpus_f_allowlist", "spade_envs/contract/allowlist.py")
BASE = TU.ToolUseBaseEnv

_R = random.Random(20250601)
GENERIC_SEEDS = list(range(15)) + [_R.getrandbits(32) for _ in range(15)]
SOLUTION_SEEDS = list(range(30)) + [_R.getrandbits(32) for _ in range(30)]
EVAL_SEEDS = [_R.getrandbits(32) for _ in range(200)]
SMALL_SEEDS = list(range(200))


# ----------------------------------------------------------------------------------------- loading
class Loaded:
    def __init__(self, fname: str) -> None:
        self.fname = fname
        self.path = os.path.join(HERE, fname)
        with open(self.path, encoding="utf-8") as handle:
            self.source = handle.read()
        self.module_name = "corpus_f_" + fname[:-3]
        namespace = {"__name__": self.module_name, "ToolUseBaseEnv": BASE}
        exec(compile(self.source, self.path, "exec"), namespace)
        tree = ast.parse(self.source)
        top_classes = [node.name for node in tree.body if isinstance(node, ast.ClassDef)]
        candidates = EP.env_class_candidates(top_classes)
        if len(candidates) != 1:
            raise AssertionError(f"expected one public *Env class, found {candidates}")
        self.cls = namespace[candidates[0]]
        self.tool = issubclass(self.cls, BASE)
        bad = []
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                bad += [a.name for a in node.names if not AL.is_allowed_module(a.name)]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                if not AL.is_allowed_module(node.module):
                    bad.append(node.module)
        if bad:
            raise AssertionError(f"imports outside the allowlist: {bad}")

    def new(self):
        return self.cls()

    def actions(self, env, solution=None):
        solution = env.solution() if solution is None else solution
        names = list(getattr(env, "_tools", {}) or {}) if self.tool else None
        return AC.solution_to_actions(solution, tool_use=self.tool, tool_names=names)


def won(rewards, terminated) -> bool:
    return EP.is_win(rewards, terminated)


def play(env, actions):
    rewards, term, trunc, obs = [], False, False, ""
    for action in actions:
        obs, reward, term, trunc, _ = env.step(action)
        rewards.append(float(reward))
        if term or trunc:
            break
    return rewards, term, trunc, obs


def run_policy(env, seed, policy, max_steps):
    obs, info = env.reset(seed)
    rewards, term, trunc = [], False, False
    for t in range(max_steps):
        obs, reward, term, trunc, info = env.step(policy(obs, info, t))
        rewards.append(float(reward))
        if term or trunc:
            break
    return rewards, term, trunc, obs


def rate(results) -> float:
    results = list(results)
    return sum(results) / len(results) if results else 0.0


def box(x) -> str:
    return "\\boxed{" + str(x) + "}"


def answer(x) -> str:
    return "<answer>" + str(x) + "</answer>"


def call(name, **arguments) -> str:
    return AC.format_tool_call(name, arguments)


def ints(text: str) -> list[int]:
    return [int(x) for x in re.findall(r"-?\d+", text)]


# ----------------------------------------------------------------------------------------- generic checks
def garbage_for(env, tool: bool) -> list:
    items = list(PR.GARBAGE_ACTIONS) + [
        None, 42, 3.5, float("nan"), b"\\boxed{1}", ["\\boxed{1}"], {"a": 1}, object(),
        "\\boxed{nan}", "\\boxed{NaN}", "\\boxed{inf}", "\\boxed{1e999}", "\\boxed{-1e999}", "\\boxed{-0}",
        "\\boxed{" + "9" * 5000 + "}", "x" * 200_000, "\\boxed{" * 3000, "{" * 5000 + "\\boxed{1}",
        "\\boxed{1/0}", "\\boxed{0/0}", "\\boxed{ }", "\\boxed{\\frac{1}{0}}",
        "<answer>nan</answer>", "<answer>1e999</answer>", "<answer>" + "9" * 5000 + "</answer>",
        "<tool_call>" + "[" * 5000 + "</tool_call>", "<tool_call>null</tool_call>",
        "<tool_call>{\"name\": \"x\"}</tool_call>" * 20,
    ]
    if tool:
        for name, spec in sorted((getattr(env, "_tools", {}) or {}).items()):
            props = list(((spec or {}).get("parameters") or {}).get("properties", {}) or {})
            items.append(call(name))
            items.append(AC.format_tool_call(name, "not json"))
            items.append(AC.format_tool_call(name, [1, 2]))
            items.append(AC.format_tool_call(name, {"zzz": 1}))
            for bad in (None, 1e308, -1, "", [], {}, "A" * 10_000, [[[[1]]]], True, "nan"):
                items.append(AC.format_tool_call(name, {p: bad for p in props}))
            items.append(call(name) * 17)
    return items


def well_formed(result) -> str | None:
    if not isinstance(result, tuple) or len(result) != 5:
        return "step did not return a 5-tuple"
    obs, reward, term, trunc, info = result
    if not isinstance(obs, str):
        return "observation is not a string"
    if isinstance(reward, bool) or not isinstance(reward, (int, float)) or not math.isfinite(reward):
        return f"reward {reward!r} is not a finite number"
    if not isinstance(term, bool) or not isinstance(trunc, bool):
        return "terminated/truncated are not bools"
    if not isinstance(info, dict):
        return "info is not a dict"
    return None


def dumps(value) -> str:
    return json.dumps(value, sort_keys=True, default=repr)


def generic_checks(item: Loaded) -> list[str]:
    problems: list[str] = []
    for seed in GENERIC_SEEDS:
        env = item.new()
        first = env.reset(seed)
        if not (isinstance(first, tuple) and len(first) == 2 and isinstance(first[0], str) and first[0].strip()
                and isinstance(first[1], dict)):
            problems.append(f"seed {seed}: reset did not return (non-empty str, dict)")
            continue
        again = env.reset(seed)
        fresh = item.new().reset(seed)
        if (first[0], dumps(first[1])) != (again[0], dumps(again[1])) or \
                (first[0], dumps(first[1])) != (fresh[0], dumps(fresh[1])):
            problems.append(f"seed {seed}: reset not deterministic")
        max_turns = int(getattr(env, "max_turns", EP.DEFAULT_MAX_TURNS))
        # garbage actions never raise
        env.reset(seed)
        ended = False
        for action in garbage_for(env, item.tool):
            if ended:
                env.reset(seed)
            try:
                result = env.step(action)
            except Exception as error:  # noqa: BLE001
                problems.append(f"seed {seed}: step({str(action)[:40]!r}) raised {type(error).__name__}: {error}")
                break
            issue = well_formed(result)
            if issue:
                problems.append(f"seed {seed}: {issue} for {str(action)[:40]!r}")
                break
            ended = result[2] or result[3]
        # terminates within max_turns; then stays ended with reward 0
        env.reset(seed)
        cycle = ["I am not sure what to do.", "\\boxed{}", "\\boxed{???}", "<answer></answer>"]
        steps, end = 0, False
        while steps < max_turns + 1 and not end:
            _, _, term, trunc, _ = env.step(cycle[steps % len(cycle)])
            steps += 1
            end = term or trunc
        if not end or steps > max_turns:
            problems.append(f"seed {seed}: episode not ended within max_turns={max_turns} (steps {steps})")
            continue
        probe = item.new()
        probe.reset(seed)
        final = item.actions(probe)[-1:] if probe is not None else []
        for action in ["\\boxed{1}", "<answer>1</answer>"] + final + ["garbage"]:
            obs, reward, term, trunc, _ = env.step(action)
            if reward != 0 or not (term or trunc):
                problems.append(f"seed {seed}: after the end, step paid {reward} / ended={term or trunc}")
                break
    return problems[:5]


def solution_wins(item: Loaded, seeds) -> tuple[int, list]:
    env = item.new()
    losing = []
    for seed in seeds:
        env.reset(seed)
        rewards, term, _, _ = play(env, item.actions(env))
        if not won(rewards, term):
            losing.append(seed)
    return len(seeds) - len(losing), losing


# ----------------------------------------------------------------------------------------- battery (correct files)
def right_answer(item: Loaded, env) -> str:
    solution = env.solution()
    if item.tool:
        items = solution if isinstance(solution, list) else [solution]
        last = [x for x in items if not isinstance(x, dict)][-1]
        match = AC.ANSWER_PATTERN.search(str(last))
        return match.group(1).strip() if match else str(last)
    last = item.actions(env, solution)[-1]
    content = AC.extract_boxed(last)
    return content if content is not None else last


def shift_letter(letter: str, k: int) -> str:
    return chr(ord(letter) + k)


def wrong_legal(spec, env, right: str) -> str:
    if "wrong" in spec:
        return spec["wrong"](env, right)
    legal = spec.get("legal")
    if legal and right in legal:
        return legal[(legal.index(right) + 1) % len(legal)]
    if re.fullmatch(r"-?\d+", right):
        return str(int(right) + 1)
    raise AssertionError(f"no wrong legal answer for {right!r}")


def battery(item: Loaded, spec) -> tuple[list[str], list[str]]:
    """Returns (problems, report lines)."""
    p = spec["p"]
    bound = p + 3 * math.sqrt(p * (1 - p) / len(EVAL_SEEDS)) + 0.02
    env = item.new()
    max_turns = int(getattr(env, "max_turns", 10))
    wrap = answer if item.tool else box
    rights, wrongs = {}, {}
    for seed in EVAL_SEEDS:
        env.reset(seed)
        rights[seed] = right_answer(item, env)
        wrongs[seed] = wrong_legal(spec, env, rights[seed])
    others = {seed: rights[EVAL_SEEDS[(i + 1) % len(EVAL_SEEDS)]] for i, seed in enumerate(EVAL_SEEDS)}

    policies = {}
    constants = ["0", "1", "-1", "nan", "1e999", "A", "B", "C", "D", "E", "yes", "no", ""] + list(spec.get("legal", []))
    for c in dict.fromkeys(constants):
        policies[f"const {c!r}"] = (lambda c: lambda s, o, i, t, r: wrap(c))(c)
    policies["echo observation"] = lambda s, o, i, t, r: o
    policies["random observation token"] = lambda s, o, i, t, r: wrap(r.choice(AC.observation_tokens(o) or ["x"]))
    policies["every number in one box"] = lambda s, o, i, t, r: wrap(" ".join(re.findall(r"-?\d+(?:\.\d+)?", o)))
    policies["every option letter in one box"] = lambda s, o, i, t, r: wrap("A B C D E")
    policies["every token in one box"] = lambda s, o, i, t, r: wrap(" ".join(AC.observation_tokens(o)[:60]))
    policies["another seed's answer"] = lambda s, o, i, t, r: wrap(others[s])
    policies["wrong legal answer"] = lambda s, o, i, t, r: wrap(wrongs[s])
    for k in (1, -1):
        policies[f"right {k:+d}"] = (lambda k: lambda s, o, i, t, r: wrap(
            str(int(rights[s]) + k) if re.fullmatch(r"-?\d+", rights[s]) else
            shift_letter(rights[s], k) if len(rights[s]) == 1 else wrongs[s]))(k)
    if item.tool:
        policies["right+wrong in one answer"] = lambda s, o, i, t, r: answer(f"{rights[s]} {wrongs[s]}")
        policies["wrong+right in one answer"] = lambda s, o, i, t, r: answer(f"{wrongs[s]} {rights[s]}")
        policies["right,wrong boxed in answer"] = lambda s, o, i, t, r: answer(box(rights[s]) + " " + box(wrongs[s]))
        policies["wrong,right boxed in answer"] = lambda s, o, i, t, r: answer(box(wrongs[s]) + " " + box(rights[s]))
    else:
        policies["right then wrong box"] = lambda s, o, i, t, r: box(rights[s]) + " " + box(wrongs[s])
        policies["wrong then right box"] = lambda s, o, i, t, r: box(wrongs[s]) + " " + box(rights[s])
    hedges = {"R or W": "{R} or {W}", "W or R": "{W} or {R}", "not R": "not {R}", "either": "either {R} or {W}",
              "R, W": "{R}, {W}", "W, R": "{W}, {R}", "R and W": "{R} and {W}", "R?": "{R}?", "maybe R": "maybe {R}",
              "R / W": "{R} / {W}"}
    for name, pattern in hedges.items():
        policies[f"hedge {name}"] = (lambda pattern: lambda s, o, i, t, r: wrap(
            pattern.format(R=rights[s], W=wrongs[s])))(pattern)

    problems, lines = [], []
    worst = (-1.0, "")
    for name, policy in policies.items():
        wins = 0
        for seed in EVAL_SEEDS:
            rng = random.Random(seed ^ 0x5EED)
            rewards, term, _, _ = run_policy(env, seed, lambda o, i, t: policy(seed, o, i, t, rng), max_turns + 2)
            wins += won(rewards, term)
        share = wins / len(EVAL_SEEDS)
        if share > worst[0]:
            worst = (share, name)
        if share > bound:
            problems.append(f"cheap policy '{name}' wins {share:.3f} > bound {bound:.3f} (p={p})")
    lines.append(f"battery: {len(policies)} cheap policies, best '{worst[1]}' {worst[0]:.3f} <= bound {bound:.3f}")

    # harmless variants of the right answer are paid in full
    variants = {
        "spaces": lambda a: (a.replace("\\boxed{", "\\boxed{  ", 1).replace("}", "  }", 1) if "\\boxed{" in a and
                             AC.extract_boxed(a) and "{" not in AC.extract_boxed(a) else
                             re.sub(r"<answer>(.*?)</answer>", r"<answer>  \1  </answer>", a, flags=re.S)),
        "reasoning before": lambda a: "Let me work through this step by step. Having checked it twice, here is my "
                                      "reply:\n" + a,
        "closing sentence": lambda a: a + "\nThat is my final answer, thank you.",
    }
    if not item.tool:
        variants["malformed box before"] = lambda a: "First a scratch note: \\boxed{??}. Now the answer: " + a
    for name, extra in spec.get("variants", {}).items():
        variants[name] = extra
    for name, transform in variants.items():
        failed = []
        for seed in SOLUTION_SEEDS:
            env.reset(seed)
            rewards, term, _, _ = play(env, [transform(a) for a in item.actions(env)])
            if not won(rewards, term):
                failed.append(seed)
        if failed:
            problems.append(f"harmless variant '{name}' lost on seeds {failed[:5]}")
    lines.append(f"harmless variants paid in full on {len(SOLUTION_SEEDS)} seeds: {', '.join(variants)}")
    return problems, lines


# ----------------------------------------------------------------------------------------- exploits (defects)
def need(condition: bool, message: str, problems: list[str]) -> None:
    if not condition:
        problems.append(message)


def constant_exploit(item, seeds, action):
    env = item.new()
    return rate(won(*run_policy(env, s, lambda o, i, t: action, 50)[:2]) for s in seeds)


def sum_value(item, seeds, policy, steps=60):
    env = item.new()
    values, wins = [], 0
    for s in seeds:
        rewards, term, _, _ = run_policy(env, s, policy, steps)
        values.append(EP.episode_value(rewards, term, "sum_clipped"))
        wins += won(rewards, term)
    return values, wins


def ex_e05(item):  # unnatural_answer: every number in the box is checked
    action = box(" ".join(str(n) for n in range(0, 100)))
    share = constant_exploit(item, EVAL_SEEDS, action)
    return share >= 0.9, f"box holding 0..99 (not an answer) wins {share:.3f}"


def ex_e36(item):  # unnatural_answer: negated answer accepted
    env = item.new()
    def policy(o, i, t):
        speed, hours, minutes = map(int, re.search(r"steady (\d+) km/h for (\d+) h (\d+) min", o).groups())
        return box(f"not {speed * (hours * 60 + minutes) // 60}")
    share = rate(won(*run_policy(env, s, policy, 5)[:2]) for s in EVAL_SEEDS)
    return share >= 0.9, f"'\\boxed{{not X}}' (the negation of the answer) wins {share:.3f}"


def ex_e34(item):  # unnatural_answer: any of several boxes
    share = constant_exploit(item, EVAL_SEEDS, "".join(box(c) for c in "ABCD"))
    return share >= 0.9, f"boxing all four letters wins {share:.3f}"


def ex_e09(item):  # unnatural_answer: format reward for wrong answers adds up
    values, wins = sum_value(item, EVAL_SEEDS, lambda o, i, t: box(0))
    share = rate(v >= 0.9 for v in values)
    terminal = rate(v for v in values)
    return share >= 0.9 and wins == 0, (f"answer-free policy \\boxed{{0}} never wins ({wins}) yet its sum_clipped return "
                                        f"is >= 0.9 on {share:.3f} of seeds (mean {terminal:.2f}; terminal_clipped 0)")


def ex_e16(item):  # unnatural_answer: substring match on the answer
    env = item.new()
    def policy(o, i, t):
        described = " ".join(tool["function"]["description"] for tool in env.get_tools())
        names = re.search(r"\(([^)]*)\)", described).group(1).replace(",", " ")
        return answer(names)
    share = rate(won(*run_policy(env, s, policy, 5)[:2]) for s in EVAL_SEEDS)
    return share >= 0.9, f"answering every warehouse name listed in the tool description wins {share:.3f}"


def ex_e31(item):  # disguised_leak: answer digest in info
    env = item.new()
    def policy(o, i, t):
        lo, hi = i["range"]
        for n in range(0, hi - lo + 2):
            if hashlib.sha256(str(n).encode()).hexdigest()[:12] == i["instance"]:
                return box(n)
        return box(0)
    share = rate(won(*run_policy(env, s, policy, 5)[:2]) for s in EVAL_SEEDS)
    return share >= 0.9, f"brute-forcing info['instance'] (sha256 of the answer) wins {share:.3f}"


def ex_e22(item):  # disguised_leak: reference code is the answer, reversed and shifted
    env = item.new()
    def policy(o, i, t):
        code = re.search(r"\[puzzle ref ([A-Z]+)-\d+\]", o).group(1)
        return box("".join(chr((ord(c) - 65 - 1) % 26 + 97) for c in reversed(code)))
    share = rate(won(*run_policy(env, s, policy, 5)[:2]) for s in EVAL_SEEDS)
    return share >= 0.9, f"decoding the puzzle ref in the observation wins {share:.3f}"


def ex_e10(item):  # disguised_leak: hint gives numerator and denominator
    env = item.new()
    wins = 0
    for s in EVAL_SEEDS:
        obs, _ = env.reset(s)
        obs = EP.inject_hint(obs, env.hint())
        num, den = map(int, re.search(r"there are (\d+) of them among the (\d+)", obs).groups())
        value = Fraction(num, den)
        rewards, term, _, _ = play(env, [box(f"{value.numerator}/{value.denominator}")])
        wins += won(rewards, term)
    share = wins / len(EVAL_SEEDS)
    return share >= 0.9, f"combining the hint's count and total wins {share:.3f}"


def ex_e08(item):  # disguised_leak: status tool's etag is the answer in hex
    env = item.new()
    def policy(o, i, t):
        if t == 0:
            return call("service_status")
        return answer(int(re.search(r'"etag": "([0-9a-f]+)"', o).group(1), 16))
    share = rate(won(*run_policy(env, s, policy, 5)[:2]) for s in EVAL_SEEDS)
    return share >= 0.9, f"reading service_status's etag as hex wins {share:.3f} (no order lookups)"


def ex_e41(item):  # disguised_leak: the right option is the only one with cents
    env = item.new()
    def policy(o, i, t):
        for letter, value in re.findall(r"^\s+([A-D])\) (\S+)$", o, flags=re.M):
            if "." in value:
                return box(letter)
        return box("A")
    share = rate(won(*run_policy(env, s, policy, 5)[:2]) for s in EVAL_SEEDS)
    return share >= 0.9, f"picking the option written with cents wins {share:.3f}"


def ex_e07(item):  # cheap_strategy: constant LEFT
    share = constant_exploit(item, EVAL_SEEDS, box("LEFT"))
    return share >= 0.9, f"constant \\boxed{{LEFT}} wins {share:.3f}"


def ex_e27(item):  # cheap_strategy: enumerate 1..20, no penalty
    env = item.new()
    share = rate(won(*run_policy(env, s, lambda o, i, t: box(t % 20 + 1), 30)[:2]) for s in EVAL_SEEDS)
    return share >= 0.9, f"guessing 1, 2, ..., 20 without reading the clues wins {share:.3f}"


def ex_e23(item):  # cheap_strategy: validate_answer oracle
    env = item.new()
    state = {}
    def policy(o, i, t):
        if t == 0:
            state["found"] = None
        if t > 0 and state["found"] is None:
            results = o.split("\n\n")
            for k, text in enumerate(results):
                if text.strip().endswith("correct") and not text.strip().endswith("incorrect"):
                    state["found"] = 16 * (t - 1) + k
        if state["found"] is not None:
            return answer(state["found"])
        return "".join(call("validate_answer", value=v) for v in range(16 * t, 16 * t + 16))
    share = rate(won(*run_policy(env, s, policy, 8)[:2]) for s in EVAL_SEEDS)
    return share >= 0.9, f"enumerating counts through validate_answer (no invoice read) wins {share:.3f}"


def ex_e40(item):  # cheap_strategy: "new" restarts the deal and the turn counter
    env = item.new()
    share = rate(won(*run_policy(env, s, lambda o, i, t: box(5) if t % 2 == 0 else box("new"), 400)[:2])
                 for s in EVAL_SEEDS)
    return share >= 0.9, f"lift cup 5, ask for a new deal, repeat: wins {share:.3f}"


def ex_e02(item):  # cheap_strategy: payment at truncation
    values, wins = sum_value(item, EVAL_SEEDS, lambda o, i, t: box("wait"))
    share = rate(v >= 0.9 for v in values)
    return share >= 0.9, (f"stalling with invalid moves pays on truncation: sum_clipped return >= 0.9 on "
                          f"{share:.3f} of seeds without reaching the target (wins {wins})")


def ex_e06(item):  # unsolvable_or_seed_dependent: solution() uses integer division
    _, losing = solution_wins(item, EVAL_SEEDS)
    env = item.new()
    text_wins = 0
    for s in losing:
        obs, _ = env.reset(s)
        scores = [int(x) for x in re.search(r"scored ([\d, ]+) on four", obs).group(1).split(",")]
        mean = Fraction(sum(scores), 4)
        text_wins += won(*play(env, [box(f"{mean.numerator}/{mean.denominator}")])[:2])
    ok = len(losing) > 0 and text_wins == len(losing)
    return ok, (f"solution() loses on {len(losing)}/200 seeds (e.g. {losing[:3]}); the exact mean wins on all "
                f"{text_wins} of them")


def ex_e14(item):  # unsolvable_or_seed_dependent: clues do not determine the owner
    env = item.new()
    groups: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    rng = random.Random(7)
    seeds = [rng.getrandbits(32) for _ in range(3000)]
    for s in seeds:
        obs, info = env.reset(s)
        groups[obs + dumps(info)][str(env.solution())] += 1
    best = sum(max(c.values()) for c in groups.values()) / len(seeds)
    ambiguous = sum(1 for c in groups.values() if len(c) > 1)
    return best <= 0.8, (f"over 3000 seeds, {len(groups)} distinct observations ({ambiguous} with several owners): "
                         f"no agent reading the observation can win more than {best:.3f}")


def ex_e38(item):  # unsolvable_or_seed_dependent: target unreachable on some seeds
    _, losing = solution_wins(item, EVAL_SEEDS)
    env = item.new()
    unsolvable = 0
    for s in losing[:15]:
        any_win = False
        for size in range(1, 7):
            for combo in itertools.combinations("ABCDEF", size):
                env.reset(s)
                if won(*play(env, [box(", ".join(combo))])[:2]):
                    any_win = True
                    break
            if any_win:
                break
        unsolvable += not any_win
    ok = len(losing) > 0 and unsolvable >= 1
    return ok, (f"solution() loses on {len(losing)}/200 seeds; on {unsolvable} of {min(15, len(losing))} checked, all "
                "63 card sets lose (no answer exists)")


def ex_e35(item):  # unsolvable_or_seed_dependent: solution() applies the discount from 11 units
    _, losing = solution_wins(item, EVAL_SEEDS)
    env = item.new()
    text_wins = 0
    for s in losing:
        obs, _ = env.reset(s)
        quantity = int(re.search(r"orders (\d+) x", obs).group(1))
        product = re.search(r"orders \d+ x (.+?)\. What", obs).group(1)
        out = play(env, [call("price_list", product=product)])[3]
        cents = int(re.search(r"EUR (\d+)\.(\d\d)", out).group(1)) * 100 + int(re.search(r"EUR \d+\.(\d\d)", out).group(1))
        total = cents * quantity * (90 if quantity >= 10 else 100) // 100
        text_wins += won(*play(env, [answer(f"{total // 100}.{total % 100:02d}")])[:2])
    ok = len(losing) > 0 and text_wins == len(losing)
    return ok, (f"solution() loses on {len(losing)}/200 seeds (orders of exactly 10); the stated policy's total wins "
                f"on {text_wins} of them")


def ex_e44(item):  # unsolvable_or_seed_dependent: half the shuffles are unsolvable
    _, losing = solution_wins(item, EVAL_SEEDS)
    unsolvable = 0
    for s in losing[:10]:
        env = item.new()
        obs, _ = env.reset(s)
        start = "\n".join(obs.splitlines()[1:3])
        seen, frontier, solved = {start}, [env], False
        while frontier and not solved:
            nxt = []
            for node in frontier:
                for move in "UDLR":
                    child = copy.deepcopy(node)
                    obs, reward, term, trunc, _ = child.step(box(move))
                    if term and reward >= 0.999:
                        solved = True
                        break
                    board = "\n".join(obs.splitlines()[-2:])
                    if board not in seen and not trunc:
                        seen.add(board)
                        nxt.append(child)
                if solved:
                    break
            frontier = nxt
        unsolvable += not solved
    ok = len(losing) > 0 and unsolvable == min(10, len(losing))
    return ok, (f"solution() loses on {len(losing)}/200 seeds; exhaustive search from {unsolvable} of them never "
                "reaches the goal (wrong permutation parity)")


def mismatch(item, text_policy, checker_policy):
    env = item.new()
    text = rate(won(*run_policy(env, s, text_policy, 5)[:2]) for s in EVAL_SEEDS)
    checker = rate(won(*run_policy(env, s, checker_policy, 5)[:2]) for s in EVAL_SEEDS)
    return text <= 0.05 and checker >= 0.99, f"text-follower wins {text:.3f}, checker-follower wins {checker:.3f}"


def ex_e19(item):
    def seconds(o):
        metres, pace = map(int, re.search(r"runs (\d+) metres at a steady pace of (\d+) seconds", o).groups())
        return metres // 100 * pace
    return mismatch(item, lambda o, i, t: box(seconds(o) // 60), lambda o, i, t: box(seconds(o)))


def ex_e20(item):
    def peak(o):
        values = [int(x) for x in re.search(r"in order: ([\d, ]+)\.", o).group(1).split(",")]
        return values.index(max(values))
    return mismatch(item, lambda o, i, t: box(peak(o) + 1), lambda o, i, t: box(peak(o)))


def _cents(o):
    out = []
    for part in re.search(r"Prices: (.*?)\.\n", o).group(1).split("; "):
        if part.startswith("$"):
            dollars, cents = part[1:].split(".")
            out.append(int(dollars) * 100 + int(cents))
        elif part.endswith("c"):
            out.append(int(part[:-1]))
        else:
            dollars, cents = re.fullmatch(r"(\d+) dollars (\d+) cents", part).groups()
            out.append(int(dollars) * 100 + int(cents))
    return out


def ex_e01(item):
    return mismatch(item, lambda o, i, t: box(", ".join(map(str, sorted(_cents(o))))),
                    lambda o, i, t: box(", ".join(map(str, sorted(_cents(o), reverse=True)))))


_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December"]


def _date(day, month, year):
    return datetime.date(int(year), _MONTHS.index(month) + 1, int(day))


def ex_e26(item):
    def result(o):
        days, day, month, year = re.search(r"What date is (\d+) days after (\d+) (\w+) (\d+)\?", o).groups()
        return _date(day, month, year) + datetime.timedelta(days=int(days))
    return mismatch(item, lambda o, i, t: box(result(o).strftime("%d/%m/%Y")),
                    lambda o, i, t: box(result(o).strftime("%m/%d/%Y")))


def ex_e12(item):
    def days(o):
        a = re.search(r"opens on (\d+) (\w+) (\d+)", o).groups()
        b = re.search(r"last day is (\d+) (\w+) (\d+)", o).groups()
        return (_date(*b) - _date(*a)).days
    return mismatch(item, lambda o, i, t: box(days(o) + 1), lambda o, i, t: box(days(o)))


def aware(validation: float, realistic: float, what: str):
    return validation <= 0.2 and realistic >= 0.9, f"{what}: validation-looking play {validation:.3f}, realistic {realistic:.3f}"


def ex_e37(item):
    content = box(" ".join(str(n) for n in range(0, 61)))
    terse = constant_exploit(item, EVAL_SEEDS, content)
    chatty = constant_exploit(item, EVAL_SEEDS, "Let me count each occurrence carefully, word by word. " + content)
    return aware(terse, chatty, "box of 0..60, bare vs with an explanation")


def ex_e29(item):
    env = item.new()
    def policy(o, i, t):
        amounts = [int(x) for x in re.findall(r"^\s+\d+\. (\d+)$", o, flags=re.M)]
        return box(sum(round(a, -2) for a in amounts))
    small = rate(won(*run_policy(env, s, policy, 5)[:2]) for s in SMALL_SEEDS)
    large = rate(won(*run_policy(env, s, policy, 5)[:2]) for s in EVAL_SEEDS)
    return aware(small, large, "rounded-to-hundreds estimate, seeds 0-199 vs random 32-bit seeds")


def ex_e39(item):
    env = item.new()
    audited = 0
    for s in EVAL_SEEDS:
        env.reset(s)
        env.solution()
        audited += won(*play(env, [box(0)])[:2])
    plain = constant_exploit(item, EVAL_SEEDS, box(0))
    return aware(audited / len(EVAL_SEEDS), plain, "constant \\boxed{0}, solution() called first vs not")


def ex_e33(item):
    def memoriser():
        memory = {}
        def episode(env, seed, fresh_reset=True):
            obs, _ = env.reset(seed)
            action = box(memory.get(obs, 0))
            obs2, reward, term, trunc, _ = env.step(action)
            found = re.search(r"x = (-?\d+)", obs2)
            if found:
                memory[obs] = int(found.group(1))
            return won([reward], term)
        return episode
    episode = memoriser()
    fresh = rate(episode(item.new(), s) for s in EVAL_SEEDS)
    episode = memoriser()
    shared = item.new()
    reused = rate(episode(shared, s) for s in EVAL_SEEDS)
    return aware(fresh, reused, "memorising agent, a fresh instance per episode vs one long-lived instance")


def ex_e13(item):
    bare = constant_exploit(item, EVAL_SEEDS, answer("TRK-"))
    chatty = constant_exploit(item, EVAL_SEEDS, "I looked this up for the customer and here is the number. " + answer("TRK-"))
    return aware(bare, chatty, "answer 'TRK-' without tools, bare vs with an explanation")


EXPLOITS = {name[3:] + ".py": fn for name, fn in globals().items() if name.startswith("ex_e")}
SOLUTION_LOSES = {"e06.py", "e38.py", "e35.py", "e44.py"}


# ----------------------------------------------------------------------------------------- battery specs
def _swap_first_two(env, right):
    letters = [c for c in right if c.isalpha()]
    letters[0], letters[1] = letters[1], letters[0]
    return ", ".join(letters)


def _other_first_factor(env, right):
    factors = [p.strip() for p in right.split(",")]
    factors[0] = "7" if factors[0] != "7" else "11"
    return ", ".join(factors)


def _bump_first(env, right):
    parts = [p.strip() for p in right.split(";")]
    return "; ".join([str(int(parts[0]) + 1)] + parts[1:])


def _other_word(env, right):
    return next(w for w in env._words if w != right)


def _other_move(env, right):
    k = int(right.split()[-1])
    return f"swap {k % 5 + 1}"


def _trap_sku(env, right):
    rows = [p["sku"] for rows in env._state["catalogue"].values() for p in rows if p["sku"] != right]
    return rows[0]


def _option_variants(letters):
    return {"malformed boxes beside": lambda a: "\\boxed{??} " + a + " \\boxed{}",
            "working box before": lambda a: "\\boxed{Tuesday} is what I found, so " + a}


SPECS = {
    "e42.py": {"legal": list("ABCD")},
    "e11.py": {"legal": list("ABCDE"), "variants": _option_variants("ABCDE")},
    "e04.py": {"legal": list("ABCD")},
    "e18.py": {"wrong": _swap_first_two},
    "e45.py": {"wrong": _other_first_factor},
    "e15.py": {"wrong": _bump_first},
    "e43.py": {"legal": ["yes", "no"]},
    "e32.py": {"legal": ["A", "B", "SAME"]},
    "e25.py": {"legal": ["EVEN", "ODD"]},
    "e17.py": {},
    "e24.py": {"wrong": _other_word},
    "e03.py": {"wrong": _other_move, "legal_moves": True},
    "e30.py": {"wrong": _trap_sku},
    "e21.py": {},
    "e28.py": {"wrong": lambda env, right: "finished"},
}


# ----------------------------------------------------------------------------------------- main
def check_manifest(manifest) -> list[str]:
    problems = []
    files = sorted(entry["file"] for entry in manifest)
    if files != [f"e{i:02d}.py" for i in range(1, 46)]:
        problems.append("manifest does not list e01.py..e45.py exactly once")
    counts = collections.Counter(entry["class"] for entry in manifest)
    want = {"correct": 15, "unnatural_answer": 5, "disguised_leak": 5, "cheap_strategy": 5,
            "unsolvable_or_seed_dependent": 5, "text_checker_mismatch": 5, "validation_aware": 5}
    if dict(counts) != want:
        problems.append(f"manifest class counts {dict(counts)} != {want}")
    for entry in manifest:
        if entry["kind"] == "correct" and not isinstance(entry.get("honest_chance"), (int, float)):
            problems.append(f"{entry['file']}: correct file without honest_chance")
        if (entry["kind"] == "correct") != (entry["class"] == "correct"):
            problems.append(f"{entry['file']}: kind/class disagree")
    return problems


def main(argv) -> int:
    with open(os.path.join(HERE, "manifest.json"), encoding="utf-8") as handle:
        manifest = {entry["file"]: entry for entry in json.load(handle)}
    wanted = [os.path.basename(a) for a in argv] or sorted(manifest)
    problems = check_manifest(list(manifest.values()))
    if problems:
        for p in problems:
            print("MANIFEST:", p)
    passed, tool_files = 0, []
    for fname in wanted:
        entry = manifest[fname]
        lines, issues = [], []
        try:
            item = Loaded(fname)
            if item.tool:
                tool_files.append(fname)
            issues += generic_checks(item)
            if fname in SOLUTION_LOSES:
                lines.append("solution() is expected to lose on some seeds (planted defect)")
            else:
                wins, losing = solution_wins(item, SOLUTION_SEEDS)
                lines.append(f"solution wins {wins}/{len(SOLUTION_SEEDS)}")
                need(not losing, f"solution() lost on seeds {losing[:5]}", issues)
            if entry["kind"] == "defect":
                ok, message = EXPLOITS[fname](item)
                lines.append(message)
                need(ok, "exploit/proof failed: " + message, issues)
            else:
                spec = dict(SPECS[fname], p=float(entry["honest_chance"]))
                more, report = battery(item, spec)
                issues += more
                lines += report
        except Exception as error:  # noqa: BLE001
            import traceback
            issues.append(f"{type(error).__name__}: {error}\n{traceback.format_exc()}")
        status = "PASS" if not issues else "FAIL"
        passed += not issues
        tag = "tool-use, " if fname in tool_files else ""
        print(f"{status} {fname} [{tag}{entry['kind']}/{entry['class']}] " + "; ".join(lines))
        for issue in issues:
            print("    - " + issue)
        sys.stdout.flush()
    print(f"tool-use files: {len(tool_files)} ({', '.join(tool_files)})")
    print(f"RESULT: {passed}/{len(wanted)} passed")
    return 0 if passed == len(wanted) and not problems else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
