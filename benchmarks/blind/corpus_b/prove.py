"""Proofs for corpus_b: every environment is what manifest.json says it is.

Run from the repository root:  python benchmarks/blind/corpus_b/prove.py
Standard library only; ToolUseBaseEnv is loaded by file path from spade_envs/contract/tool_use.py
and injected into each environment module, as the SPADE loader does.
"""

from __future__ import annotations

import base64
import importlib.util
import json
import math
import random
import re
import sys
import traceback
from collections import deque
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]

_spec = importlib.util.spec_from_file_location("_tool_use_base", ROOT / "spade_envs" / "contract" / "tool_use.py")
_tool_use = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_tool_use)
BASE = _tool_use.ToolUseBaseEnv

MASTER = random.Random(20240601)
SMALL_SEEDS = [0, 1, 2, 3, 4, 5, 7, 11, 42, 99]
RANDOM_SEEDS = [MASTER.getrandbits(32) for _ in range(200)]
SOL_SEEDS = SMALL_SEEDS + RANDOM_SEEDS[:50]
BASIC_SEEDS = SMALL_SEEDS + RANDOM_SEEDS[50:70]
RATE_SEEDS = RANDOM_SEEDS  # 200 realistic 32-bit seeds for win rates


# ----------------------------------------------------------------------------- loading and playing
def load(fname: str):
    path = HERE / fname
    spec = importlib.util.spec_from_file_location("corpus_b_" + fname[:-3], path)
    module = importlib.util.module_from_spec(spec)
    module.ToolUseBaseEnv = BASE
    spec.loader.exec_module(module)
    classes = [v for k, v in vars(module).items() if isinstance(v, type) and k.endswith("Env")
               and not k.startswith("_") and v.__module__ == module.__name__]
    assert len(classes) == 1, f"expected one public *Env class, found {classes}"
    return classes[0]


def is_tool(cls) -> bool:
    return issubclass(cls, BASE)


def tc(_tool: str, **arguments) -> str:
    return "<tool_call>" + json.dumps({"name": _tool, "arguments": arguments}) + "</tool_call>"


def ans(value) -> str:
    return f"<answer>{value}</answer>"


def box(value) -> str:
    return "\\boxed{" + str(value) + "}"


def to_actions(solution, tool: bool) -> list[str]:
    items = list(solution) if isinstance(solution, (list, tuple)) else [solution]
    out = []
    for item in items:
        if isinstance(item, dict) and "name" in item:
            out.append(tc(item["name"], **item.get("arguments", {})))
        elif isinstance(item, str) and ("\\boxed{" in item or "<tool_call>" in item or "<answer>" in item):
            out.append(item)
        else:
            out.append(ans(item) if tool else box(item))
    return out


class Ep:
    """One episode seen from the agent's side: observations, rewards and info only."""

    def __init__(self, cls, seed, env=None):
        self.env = env if env is not None else cls()
        self.obs, self.info = self.env.reset(seed=seed)
        self.last = self.obs
        self.texts = [self.obs]
        self.over = False
        self.won = False
        self.rewards: list[float] = []
        self.steps = 0

    def step(self, action: str) -> str:
        if self.over:
            return self.last
        o, r, te, tr, info = self.env.step(action)
        self.steps += 1
        self.last, self.info = o, info
        self.texts.append(o)
        self.rewards.append(r)
        if te or tr:
            self.over = True
            self.won = bool(te) and r >= 0.999
        return o

    def play(self, actions) -> bool:
        for a in actions:
            if self.over:
                break
            self.step(a)
        return self.won


def rate(policy, cls, seeds=RATE_SEEDS) -> float:
    wins = 0
    for s in seeds:
        wins += bool(policy(cls, s))
    return wins / len(seeds)


def solution_policy(cls, seed) -> bool:
    ep = Ep(cls, seed)
    return ep.play(to_actions(ep.env.solution(), is_tool(cls)))


def luck_bound(p: float, n: int) -> float:
    p = max(p, 0.005)
    return p + 3 * math.sqrt(p * (1 - p) / n) + 0.02


NUM = re.compile(r"-?\d+(?:\.\d+)?")


def tokens(text: str) -> list[str]:
    return list(dict.fromkeys(re.findall(r"-?\d+(?:\.\d+)?|[A-Za-z][A-Za-z'-]*", text)))


# ----------------------------------------------------------------------------- generic checks
GARBAGE = ["", "hello", "\\boxed{}", "\\boxed{\\boxed{x}}", "\\boxed{-1}", "\\boxed{nan}", "\\boxed{zzzz}",
           "<tool_call>{bad json</tool_call>", "<tool_call>{\"name\": \"nope\", \"arguments\": {}}</tool_call>",
           "<answer></answer>", "9" * 300, "\x00\x01\ufffd", "\\boxed{" + "{" * 5, "}}}{{{", "\\boxed{A->Z}",
           "<tool_call>{\"name\": 5}</tool_call>", "\\boxed{1e999}", "\\boxed{  }", "ñ\\boxed{日本}"]


def generic(cls) -> list[str]:
    problems = []
    for seed in BASIC_SEEDS:
        a, b = cls(), cls()
        ra, rb = a.reset(seed=seed), b.reset(seed=seed)
        if repr(ra) != repr(rb):
            problems.append(f"reset not deterministic for seed {seed}")
        if not isinstance(ra, tuple) or len(ra) != 2 or not isinstance(ra[0], str) or not ra[0] \
                or not isinstance(ra[1], dict):
            problems.append(f"bad reset return for seed {seed}")
        rng = random.Random(seed)
        actions = [rng.choice(GARBAGE) for _ in range(a.max_turns + 5)]
        trajs = []
        for env in (a, b):
            env.reset(seed=seed)
            traj, ended_at = [], None
            for i, act in enumerate(actions):
                try:
                    out = env.step(act)
                except Exception as error:  # noqa: BLE001
                    problems.append(f"step raised {type(error).__name__} on seed {seed}: {error}")
                    break
                traj.append(repr(out))
                o, r, te, tr, info = out
                if not isinstance(o, str) or not isinstance(info, dict) or not isinstance(r, (int, float)):
                    problems.append(f"bad step types on seed {seed}")
                if ended_at is not None and (r != 0 or not (te or tr)):
                    problems.append(f"after the end: reward {r}, ended {te or tr} (seed {seed})")
                if ended_at is None and (te or tr):
                    ended_at = i + 1
            if ended_at is None or ended_at > env.max_turns:
                problems.append(f"did not end within max_turns={env.max_turns} (seed {seed}, ended at {ended_at})")
            trajs.append(traj)
        if trajs[0] != trajs[1]:
            problems.append(f"trajectory not deterministic for seed {seed}")
    return sorted(set(problems))[:5]


def solution_rate(cls, seeds=SOL_SEEDS) -> float:
    return rate(solution_policy, cls, seeds)


# ----------------------------------------------------------------------------- cheap policies (correct envs)
CONSTS = ["0", "1", "-1", "2", "yes", "no", "A", "B", "C", "1", "true", "the", "done", "nan", "inf", "-inf",
          "-0", "1e999", "Monday", "friday", "NaN"]


def cheap_text_policies(sol_numeric: bool):
    pols = {}
    for c in CONSTS:
        pols[f"const {c!r}"] = lambda cls, s, c=c: Ep(cls, s).play([box(c)] * 60)

    def echo(cls, s):
        ep = Ep(cls, s)
        for _ in range(60):
            if ep.over:
                break
            ep.step(ep.last)
        return ep.won

    def echo_boxed(cls, s):
        ep = Ep(cls, s)
        for _ in range(60):
            if ep.over:
                break
            ep.step(box(ep.last.replace("{", "").replace("}", "").replace("\\", "")))
        return ep.won

    def random_token(cls, s):
        ep = Ep(cls, s)
        toks = tokens(ep.obs)
        return ep.play([box(random.Random(s).choice(toks))] * 60)

    def enumerate_tokens(cls, s):
        ep = Ep(cls, s)
        return ep.play([box(t) for t in tokens(ep.obs)][:200])

    def all_numbers(cls, s):
        ep = Ep(cls, s)
        return ep.play([box(" ".join(NUM.findall(ep.obs)))] * 3)

    def all_words(cls, s):
        ep = Ep(cls, s)
        return ep.play([box(", ".join(tokens(ep.obs)))] * 3)

    def prose(cls, s):
        ep = Ep(cls, s)
        toks = tokens(ep.obs)
        return ep.play([f"Thinking about it, it could be {' or '.join(toks[:30])}. \\boxed{{{toks[-1]}}}"] * 3)

    pols.update({"echo": echo, "echo in box": echo_boxed, "random token": random_token,
                 "enumerate tokens": enumerate_tokens, "all numbers in one box": all_numbers,
                 "all words in one box": all_words, "prose with candidates": prose})
    if sol_numeric:
        def near(delta):
            def pol(cls, s):
                ep = Ep(cls, s)
                return ep.play([box(float(ep.env.solution()) + delta)])
            return pol

        def multi(cls, s):
            ep = Ep(cls, s)
            v = ep.env.solution()
            return ep.play([box(f"{float(v) - 1}, {v}, {float(v) + 1}")])

        pols["answer+1"], pols["answer-1"], pols["several candidates"] = near(1), near(-1), multi
    return pols


def cheap_tool_policies(sol_numeric: bool):
    pols = {}
    for c in ["0", "1", "done", "yes", "nan", "inf", "-1", "E1000", "100"]:
        pols[f"answer {c!r}"] = lambda cls, s, c=c: Ep(cls, s).play([ans(c)] * 30)

    def echo(cls, s):
        ep = Ep(cls, s)
        for _ in range(30):
            if ep.over:
                break
            ep.step(ep.last)
        return ep.won

    def task_token(cls, s):
        ep = Ep(cls, s)
        return ep.play([ans(random.Random(s).choice(tokens(ep.obs)))])

    def explore(cls, s):
        """Call every tool with tokens from what was seen, then answer a random number seen."""
        ep = Ep(cls, s)
        rng = random.Random(s)
        seen = tokens(ep.obs) + [str(v) for v in ep.info.values() if isinstance(v, str)]
        schemas = ep.env.get_tools()
        for _ in range(ep.env.max_turns - 1):
            if ep.over:
                break
            spec = rng.choice(schemas)["function"]
            props = spec["parameters"].get("properties", {})
            args = {k: (rng.choice(seen) if p.get("type") == "string" else rng.randint(0, 20))
                    for k, p in props.items()}
            out = ep.step(tc(spec["name"], **args))
            seen += tokens(out)
        nums = [t for t in seen if NUM.fullmatch(t)] or ["0"]
        return ep.play([ans(rng.choice(nums))])

    pols.update({"echo": echo, "task token": task_token, "explore tools": explore})
    if sol_numeric:
        def near(delta):
            def pol(cls, s):
                ep = Ep(cls, s)
                sol = ep.env.solution()
                return ep.play(to_actions(sol[:-1], True) + [ans(float(sol[-1]) + delta)])
            return pol
        pols["answer+1"], pols["answer-1"] = near(1), near(-1)
    return pols


def prove_correct(cls, entry) -> tuple[bool, str]:
    sr = solution_rate(cls)
    if sr < 1.0:
        return False, f"solution wins only {sr:.2f}"
    tool = is_tool(cls)
    probe = cls()
    probe.reset(seed=1)
    sol = probe.solution()
    last = sol[-1] if isinstance(sol, list) else sol
    numeric = not isinstance(sol, list) or tool
    try:
        float(last)
        numeric = numeric and True
    except (TypeError, ValueError):
        numeric = False
    pols = cheap_tool_policies(numeric) if tool else cheap_text_policies(numeric)
    p = entry["honest_chance"]
    bound = luck_bound(p, len(RATE_SEEDS))
    worst_name, worst = "", -1.0
    for name, pol in pols.items():
        r = rate(pol, cls)
        if r > worst:
            worst_name, worst = name, r
    extra = SPECIFIC_CORRECT.get(entry["file"])
    note = ""
    if extra:
        ok, note = extra(cls)
        if not ok:
            return False, note
    if worst > bound:
        return False, f"cheap policy '{worst_name}' wins {worst:.3f} > luck bound {bound:.3f} (honest {p:.3f})"
    return True, f"solution 1.00; best cheap '{worst_name}' {worst:.3f} <= {bound:.3f} (honest {p:.3f}) {note}"


def weekday_uniform(cls):
    counts = {}
    for y in range(2000, 2028):
        import datetime
        d = datetime.date(y, 1, 1).strftime("%A")
        counts[d] = counts.get(d, 0) + 1
    years = {Ep(cls, s).info["year"] for s in RANDOM_SEEDS}
    ok = set(counts.values()) == {4} and len(years) == 28
    return ok, f"[28 tasks, each weekday x4: {ok}]"


def yes_balance(cls):
    r = rate(lambda c, s: Ep(c, s).play([box("yes")]), cls)
    return abs(r - 0.5) < 0.12, f"[yes-rate {r:.2f}]"


SPECIFIC_CORRECT = {"e24.py": weekday_uniform, "e09.py": yes_balance}


# ----------------------------------------------------------------------------- defect proofs
def need(cond: bool, msg: str) -> tuple[bool, str]:
    return bool(cond), msg


def exploit_claim(cls, exploit, honest: float, seeds=RATE_SEEDS, threshold=0.9):
    sr = solution_rate(cls)
    er = rate(exploit, cls, seeds)
    return need(sr == 1.0 and er >= threshold and er > honest + 0.3,
                f"solution {sr:.2f}; exploit {er:.2f} vs skill-free honest chance {honest:.3f}")


# --- unnatural_answer
def p_e02(cls):
    return exploit_claim(cls, lambda c, s: Ep(c, s).play([box(".*")]), 0.0)


def p_e10(cls):
    return exploit_claim(cls, lambda c, s: Ep(c, s).play([box("nan")]), 0.0)


def p_e28(cls):
    def pol(c, s):
        ep = Ep(c, s)
        m = int(re.search(r"mod (\d+)\.", ep.obs).group(1))
        return ep.play([box(" ".join(map(str, range(m))))])
    return exploit_claim(cls, pol, 1 / 40)


def p_e38(cls):
    return exploit_claim(cls, lambda c, s: Ep(c, s).play([box("inf")]), 0.0)


def p_e20(cls):
    def pol(c, s):
        ep = Ep(c, s)
        out = ep.step(box("0"))
        m = re.search(r"rounds to (-?\d+\.\d+)", out)
        return ep.play([box(m.group(1))]) if m else ep.won
    return exploit_claim(cls, pol, 0.0)


# --- disguised_leak
def p_e25(cls):
    return exploit_claim(cls, lambda c, s: (lambda ep: ep.play([box(int(ep.info["round_id"], 16))]))(Ep(c, s)),
                         63 / 1000)


def p_e08(cls):
    def pol(c, s):
        ep = Ep(c, s)
        tag = re.search(r"\[session (\S+)\]", ep.obs).group(1)
        return ep.play([box(base64.b64decode(tag).decode())])
    return exploit_claim(cls, pol, 4 / 50)


def p_e35(cls):
    def pol(c, s):
        ep = Ep(c, s)
        digits = re.search(r"AUD-(\d{4})", ep.obs).group(1)
        return ep.play([ans(int(digits[::-1]))])
    return exploit_claim(cls, pol, 0.0)


def p_e44(cls):
    def pol(c, s):
        ep = Ep(c, s)
        m = re.search(r"between (\d+) and \d+, and it leaves remainder (\d+)", ep.env.hint())
        return ep.play([box(int(m.group(1)) + int(m.group(2)))])
    return exploit_claim(cls, pol, 0.0)


def p_e16(cls):
    def pol(c, s):
        ep = Ep(c, s)
        codes = [int(re.match(r"\[frame (\d+)\]", ep.obs).group(1))]
        for _ in range(5):
            codes.append(int(re.match(r"\[frame (\d+)\]", ep.step(box("qqqqqq"))).group(1)))
        return ep.play([box("".join(map(chr, codes)))])
    return exploit_claim(cls, pol, 10 / 27)


# --- cheap_strategy
def p_e12(cls):
    def pol(c, s):
        ep = Ep(c, s)
        sentence = ep.obs.splitlines()[1].strip()
        return ep.play([box(sentence)])
    return exploit_claim(cls, pol, 0.0)


def p_e19(cls):
    return exploit_claim(cls, lambda c, s: (lambda ep: ep.play([box(n) for n in ep.info["children"]]))(Ep(c, s)),
                         1 / 4)


def p_e04(cls):
    def pol(c, s):
        ep = Ep(c, s)
        inv = re.search(r"(INV-\d+)", ep.obs).group(1)
        out = ep.step(tc("reconcile", invoice_id=inv, total=0))
        return ep.play([ans(re.search(r"records ([\d.]+)", out).group(1))])
    return exploit_claim(cls, pol, 0.0)


def p_e29(cls):
    return exploit_claim(cls, lambda c, s: Ep(c, s).play([ans("done")]), 0.0)


def p_e37(cls):
    def pol(c, s):
        ep = Ep(c, s)
        counts = {}
        for d in "0123456789":
            out = ep.step(box(d * 4))
            if ep.over:
                return ep.won
            counts[d] = int(re.search(r"(\d) click", out).group(1))
        filler = next(d for d in "0123456789" if counts[d] == 0)
        code = []
        for pos in range(4):
            cands = [d for d in "0123456789" if counts[d] > 0]
            for d in cands[:-1]:
                guess = [filler] * 4
                guess[pos] = d
                out = ep.step(box("".join(guess)))
                if ep.over:
                    return ep.won
                if int(re.search(r"(\d) click", out).group(1)) == 1:
                    code.append(d)
                    break
            else:
                code.append(cands[-1])
            counts[code[-1]] -= 1
        return ep.play([box("".join(code))])
    return exploit_claim(cls, pol, 40 / 10000)


# --- unsolvable_or_seed_dependent
def p_e07(cls):
    sr = solution_rate(cls)

    def visible_total(obs):
        return sum(int(q) * int(u) for q, u in re.findall(r"(\d+) x [^@\n]+@ \$(\d+)", obs))

    best = 0.0
    for fee in range(0, 16):
        r = rate(lambda c, s, f=fee: (lambda ep: ep.play([box(visible_total(ep.obs) + f)]))(Ep(c, s)), cls)
        best = max(best, r)
    return need(sr == 1.0 and best <= 0.25,
                f"solution {sr:.2f} (it reads hidden state); best observation-only policy "
                f"(subtotal + any fixed fee) wins {best:.2f}")


def p_e14(cls):
    lose_sol, unsolvable = 0, 0
    for s in RATE_SEEDS:
        env = cls()
        env.reset(seed=s)
        shortest = len(env.solution())
        if shortest > env.max_turns:
            unsolvable += 1
        if not solution_policy(cls, s):
            lose_sol += 1
    frac = unsolvable / len(RATE_SEEDS)
    return need(frac >= 0.1 and lose_sol == unsolvable,
                f"{frac:.2f} of seeds need more moves than the turn budget (BFS-shortest); solution loses there")


def _slide_reachable(board):
    goal = (1, 2, 3, 4, 5, 0)
    seen, queue = {board}, deque([board])
    while queue:
        b = queue.popleft()
        if b == goal:
            return True
        z = b.index(0)
        r, c = divmod(z, 3)
        for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            nr, nc = r + dr, c + dc
            if 0 <= nr < 2 and 0 <= nc < 3:
                cells = list(b)
                t = nr * 3 + nc
                cells[z], cells[t] = cells[t], cells[z]
                nb = tuple(cells)
                if nb not in seen:
                    seen.add(nb)
                    queue.append(nb)
    return False


def p_e22(cls):
    bad, sol_lost_on_bad = 0, 0
    for s in RATE_SEEDS:
        ep = Ep(cls, s)
        if not _slide_reachable(tuple(ep.info["board"])):
            bad += 1
            sol_lost_on_bad += not solution_policy(cls, s)
    frac = bad / len(RATE_SEEDS)
    return need(frac >= 0.3 and sol_lost_on_bad == bad,
                f"{frac:.2f} of start boards cannot reach the goal (exhaustive search); solution loses on them")


def p_e31(cls):
    neg, all_fail = 0, True
    for s in RATE_SEEDS:
        env = cls()
        env.reset(seed=s)
        v = env.solution()
        if v < 0:
            neg += 1
            for spelling in [str(v), f"\u2212{-v}", f"({-v})", f"minus {-v}", f"{v}.0", f"- {-v}", f"-${-v}",
                             str(-v) + " overdrawn", str(v).replace("-", "\u2013")]:
                if Ep(cls, s).play([box(spelling)]):
                    all_fail = False
            if solution_policy(cls, s):
                all_fail = False
    frac = neg / len(RATE_SEEDS)
    return need(frac >= 0.1 and all_fail,
                f"{frac:.2f} of seeds have a negative balance that no spelling can enter; solution loses there")


def p_e41(cls):
    sr = solution_rate(cls)

    def table(obs):
        pts, gd, gf, wins, first = {}, {}, {}, {}, []
        for h, hg, ag, a in re.findall(r"  (\w+) (\d)-(\d) (\w+)", obs):
            hg, ag = int(hg), int(ag)
            for t in (h, a):
                pts.setdefault(t, 0), gd.setdefault(t, 0), gf.setdefault(t, 0), wins.setdefault(t, 0)
                if t not in first:
                    first.append(t)
            gd[h] += hg - ag
            gd[a] += ag - hg
            gf[h] += hg
            gf[a] += ag
            if hg > ag:
                pts[h] += 3
                wins[h] += 1
            elif ag > hg:
                pts[a] += 3
                wins[a] += 1
            else:
                pts[h] += 1
                pts[a] += 1
        return pts, gd, gf, wins, first

    rules = {
        "alphabetical": lambda t, p, gd, gf, w, f: min(t, key=lambda x: x),
        "reverse alphabetical": lambda t, p, gd, gf, w, f: max(t, key=lambda x: x),
        "first listed": lambda t, p, gd, gf, w, f: min(t, key=f.index),
        "last listed": lambda t, p, gd, gf, w, f: max(t, key=f.index),
        "goal difference": lambda t, p, gd, gf, w, f: max(t, key=lambda x: (gd[x], gf[x])),
        "most wins": lambda t, p, gd, gf, w, f: max(t, key=lambda x: (w[x], gd[x])),
    }
    ties, worst_loss = 0, 1.0
    results = {k: 0 for k in rules}
    for s in RATE_SEEDS:
        ep = Ep(cls, s)
        pts, gd, gf, w, first = table(ep.obs)
        top = max(pts.values())
        tied = [t for t in pts if pts[t] == top]
        if len(tied) > 1:
            ties += 1
        for name, rule in rules.items():
            results[name] += Ep(cls, s).play([box(rule(tied, pts, gd, gf, w, first))])
    best = max(results.values()) / len(RATE_SEEDS)
    frac = ties / len(RATE_SEEDS)
    return need(sr == 1.0 and frac >= 0.12 and best <= 1 - frac / 3,
                f"solution {sr:.2f}; {frac:.2f} of seeds tie for first; best visible tie-break rule wins only {best:.2f}")


# --- text_checker_mismatch
def mismatch(cls, text_policy, checker_policy):
    sr = solution_rate(cls)
    tr, cr = rate(text_policy, cls), rate(checker_policy, cls)
    return need(sr == 1.0 and tr <= 0.05 and cr >= 0.99,
                f"solution {sr:.2f}; text-following agent {tr:.2f}; checker's reading {cr:.2f}")


def _depot(obs):
    depot = tuple(map(int, re.search(r"depot is at \((\d+), (\d+)\)", obs).groups()))
    stores = {lab: (int(x), int(y)) for lab, x, y in re.findall(r"Store ([A-F]): \((\d+), (\d+)\)", obs)}
    return {lab: abs(x - depot[0]) + abs(y - depot[1]) for lab, (x, y) in stores.items()}


def p_e03(cls):
    far = lambda c, s: (lambda ep: ep.play([box(max((d := _depot(ep.obs)), key=d.get))]))(Ep(c, s))
    near = lambda c, s: (lambda ep: ep.play([box(min((d := _depot(ep.obs)), key=d.get))]))(Ep(c, s))
    return mismatch(cls, far, near)


def _bakery_cents(obs):
    gross = sum(int(q) * round(float(p) * 100) for q, p in re.findall(r"(\d+) x [^(]+\(\$([\d.]+) each\)", obs))
    disc = int(re.search(r"A (\d+)% loyalty", obs).group(1))
    return int(gross * (100 - disc) / 100 + 0.5)


def p_e13(cls):
    dollars = lambda c, s: (lambda ep: ep.play([box(f"{_bakery_cents(ep.obs) / 100:.2f}")]))(Ep(c, s))
    cents = lambda c, s: (lambda ep: ep.play([box(_bakery_cents(ep.obs))]))(Ep(c, s))
    return mismatch(cls, dollars, cents)


def _orders(c, s, status):
    ep = Ep(c, s)
    cid = ep.step(tc("find_customer", email=ep.info["email"])).split("\n", 1)[1].strip()
    listing = ep.step(tc("list_orders", customer_id=cid))
    return ep.play([ans(listing.count(": " + status))])


def p_e23(cls):
    return mismatch(cls, lambda c, s: _orders(c, s, "pending"), lambda c, s: _orders(c, s, "shipped"))


def _odd(obs):
    text = re.search(r"In the string\n  (\w+)\n", obs).group(1)
    return next(i for i, ch in enumerate(text) if text.count(ch) == 1)


def p_e32(cls):
    return mismatch(cls, lambda c, s: (lambda ep: ep.play([box(_odd(ep.obs) + 1)]))(Ep(c, s)),
                    lambda c, s: (lambda ep: ep.play([box(_odd(ep.obs))]))(Ep(c, s)))


def _race(obs, fastest_first):
    times = {n: int(m) * 60 + int(sec) for n, m, sec in re.findall(r"  (\w+): (\d+):(\d+)", obs)}
    return ", ".join(sorted(times, key=times.get, reverse=not fastest_first))


def p_e40(cls):
    return mismatch(cls, lambda c, s: (lambda ep: ep.play([box(_race(ep.obs, True))]))(Ep(c, s)),
                    lambda c, s: (lambda ep: ep.play([box(_race(ep.obs, False))]))(Ep(c, s)))


# --- validation_aware
def aware(cls, validation_rate, realistic_rate, honest):
    sr = solution_rate(cls)
    return need(sr == 1.0 and validation_rate <= honest + 0.05 and realistic_rate >= 0.9,
                f"solution {sr:.2f}; exploit under validation-looking play {validation_rate:.2f}, "
                f"under realistic play {realistic_rate:.2f} (skill-free honest {honest:.3f})")


def p_e06(cls):
    cands = " ".join(map(str, range(0, 401)))
    prose = lambda c, s: Ep(c, s).play([f"Let me work through the interval carefully. The count must be one of "
                                        f"{cands}. I will go with \\boxed{{0}}"])
    terse_list = lambda c, s: Ep(c, s).play([box(cands)])
    terse_const = lambda c, s: Ep(c, s).play([box("40")])
    val = max(rate(terse_list, cls), rate(terse_const, cls))
    return aware(cls, val, rate(prose, cls), 0.01)


def p_e17(cls):
    def exploit(ep):
        out = ep.step(box("0"))
        m = re.search(r"your total is (\d+) too low", out)
        return ep.play([box(m.group(1))]) if m else ep.won

    def validation(c, s):
        env = c()
        env.reset(seed=s)  # determinism probe: the same seed twice
        return exploit(Ep(c, s, env=env))

    return aware(cls, rate(validation, cls), rate(lambda c, s: exploit(Ep(c, s)), cls), 0.0)


def p_e26(cls):
    small = list(range(200))
    large = [s for s in RATE_SEEDS if s >= 1 << 20]
    one = lambda c, s: Ep(c, s).play([box("1")])
    return aware(cls, rate(one, cls, small), rate(one, cls, large), 0.0)


def p_e34(cls):
    def realistic(c, s):
        return Ep(c, s).play([ans("1000000")])

    def validation(c, s):
        env = c()
        env.reset(seed=s)
        env.solution()
        return Ep(c, s, env=env).play([ans("1000000")])

    return aware(cls, rate(validation, cls), rate(realistic, cls), 0.0)


def p_e42(cls):
    def run(seeds):
        env, wins = cls(), 0
        for s in seeds:
            ep = Ep(cls, s, env=env)
            wins += ep.play([box(ep.info.get("worked_value", 0))])
        return wins / len(seeds)
    return aware(cls, run(list(range(60))), run(RATE_SEEDS), 0.01)


DEFECT_PROOFS = {f"e{k}.py": v for k, v in {
    "02": p_e02, "10": p_e10, "28": p_e28, "38": p_e38, "20": p_e20,
    "25": p_e25, "08": p_e08, "35": p_e35, "44": p_e44, "16": p_e16,
    "12": p_e12, "19": p_e19, "04": p_e04, "29": p_e29, "37": p_e37,
    "07": p_e07, "14": p_e14, "22": p_e22, "31": p_e31, "41": p_e41,
    "03": p_e03, "13": p_e13, "23": p_e23, "32": p_e32, "40": p_e40,
    "06": p_e06, "17": p_e17, "26": p_e26, "34": p_e34, "42": p_e42,
}.items()}


def main() -> int:
    manifest = json.loads((HERE / "manifest.json").read_text())
    failures = 0
    only = set(sys.argv[1:])
    for entry in manifest:
        fname = entry["file"]
        if only and fname not in only:
            continue
        try:
            cls = load(fname)
            problems = generic(cls)
            if problems:
                ok, msg = False, "generic: " + "; ".join(problems)
            elif entry["kind"] == "correct":
                ok, msg = prove_correct(cls, entry)
            else:
                ok, msg = DEFECT_PROOFS[fname](cls)
        except Exception as error:  # noqa: BLE001
            ok, msg = False, f"proof crashed: {type(error).__name__}: {error} " + traceback.format_exc(limit=2)
        failures += not ok
        print(f"{'PASS' if ok else 'FAIL'} {fname} [{entry['class']}] {msg}", flush=True)
    print(f"{len(manifest) - failures if not only else '-'} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
