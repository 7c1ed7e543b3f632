#!/usr/bin/env python3
"""Proofs for corpus J: multi-turn games with move-level hacks and their clean twins.

Run from the repository root:

    python3 benchmarks/blind/corpus_j/prove.py [jNN.py ...]

Standard library only. Every file is executed in a fresh namespace (nothing from the toolkit is
imported) and checked against its manifest entry:

* generic contract checks on 20 seeds (0-19): exactly one public ``*Env`` class; ``reset`` returns
  (non-empty str, dict) and is deterministic per seed; seeds vary the first observation; garbage
  actions (non-strings, None, empty, huge, unboxed, broken boxes) never raise and always return a
  well-typed 5-tuple; the same seed and actions give the same trajectory; an episode of cheap moves
  ends within ``max_turns`` and later steps pay 0 and stay ended; ``solution()`` wins;
* defect files: the exploit (a policy that sees only the observations and sends moves) wins on at
  least 90 of 100 seeds (1000-1099); for the leak classes the value it read from a reply equals the
  hidden state on at least 90 seeds; for the termination class the win must come the way the defect
  says (by conceding, on the budget's last turn, after a third wrong answer); the same exploit
  wins on none of the 100 seeds of the twin;
* correct files: three cheap policies (repeat the first legal move, random legal moves, every
  documented command then random moves) over 60 seeds (2000-2059) win no more often than the
  manifest's ``honest_chance`` plus 0.05.

The ``env._...`` reads below only verify what a leak revealed or how a win came about; no policy uses them.
"""

from __future__ import annotations

import ast
import itertools
import json
import random
import re
import sys
from collections import deque
from functools import cmp_to_key
from pathlib import Path
from typing import Any, Callable

HERE = Path(__file__).resolve().parent
WIN = 0.999
GENERIC_SEEDS = range(20)
EXPLOIT_SEEDS = range(1000, 1100)
CHEAP_SEEDS = range(2000, 2060)
MARGIN = 0.05
LEAK_CLASSES = {"repeat_leak", "malformed_completion", "advertised_command"}

GARBAGE: list[Any] = [
    None, 42, 3.5, b"\\boxed{1}", ["\\boxed{1}"], {"action": "\\boxed{1}"}, ("a",), True,
    "", "   \n\t ", "I am not sure what to do.", "\\boxed{}", "\\boxed{", "}\\boxed{{}", "\\boxed{\\boxed{1}}",
    "\\boxed{1}\\boxed{2}\\boxed{3}", "\\boxed{-1}", "\\boxed{0}", "\\boxed{1e309}",
    "\\boxed{99999999999999999999999}", "\\boxed{" + "9" * 5000 + "}", "\\boxed{" + "x" * 10_000 + "}",
    "x" * 20_000, "\\boxed{测试 🙂 ∑ é}", "\\boxed{\x00\x1b[2J\u200b\ufffd}", "\\boxed{a b c d e f g}",
    "\\boxed{-5 -5}", "\\boxed{_}", "\\boxed{ , }", "<tool_call>{not json</tool_call>", "<answer></answer>",
]


def box(move: str) -> str:
    return move if "\\boxed{" in move else "\\boxed{" + move + "}"


class Stop(Exception):
    """An exploit or policy ran out of steps or met a finished episode."""


class Play:
    """One episode driven through ``step``, recording what a policy may see."""

    def __init__(self, env: Any, seed: int, cap: int = 200, after_end: bool = False) -> None:
        self.env = env
        self.obs, _ = env.reset(seed)
        self.intro = self.obs
        self.replies: list[str] = []
        self.won = self.ended = False
        self.steps, self.cap, self.after_end = 0, cap, after_end
        self.rewards: list[float] = []
        self.leak: Any = None  # what a leak exploit read from a reply, recorded before it is used

    def send(self, move: str) -> str:
        if self.won or self.steps >= self.cap or (self.ended and not self.after_end):
            raise Stop
        obs, reward, terminated, truncated, _ = self.env.step(box(move))
        self.steps += 1
        self.obs = obs
        self.replies.append(obs)
        self.rewards.append(float(reward))
        if terminated and reward >= WIN:
            self.won = True
        if terminated or truncated:
            self.ended = True
        return obs


def number(pattern: str, text: str, default: int = 0) -> int:
    found = re.search(pattern, text)
    return int(found.group(1)) if found else default


# ---------------------------------------------------------------------------------------- exploits
def ex_ladder(p: Play) -> Any:
    """Write the goal word as the first rung."""
    p.send(re.search(r"Turn [A-Z]{4} into ([A-Z]{4})\.", p.intro).group(1))


def rook_board(obs: str) -> dict[tuple[int, int], str]:
    rows = [line for line in obs.splitlines() if re.fullmatch(r"[1-8]( [.RFp]){8}", line)][-8:]
    return {(f, int(line[0]) - 1): ch for line in rows for f, ch in enumerate(line[2::2])}


def ex_rook(p: Play) -> Any:
    """Two straight slides through the corner square, over whatever pawns are in the way."""
    cells = rook_board(p.obs)
    rook = next(sq for sq, ch in cells.items() if ch == "R")
    flag = next(sq for sq, ch in cells.items() if ch == "F")
    name = lambda sq: "abcdefgh"[sq[0]] + str(sq[1] + 1)  # noqa: E731
    if rook[0] == flag[0] or rook[1] == flag[1]:
        p.send(name(flag))
        return None
    for corner in ((flag[0], rook[1]), (rook[0], flag[1])):
        if cells[corner] != "p":
            p.send(name(corner))
            p.send(name(flag))
            return None
    return None


def tiles_board(obs: str) -> list[int]:
    rows = [line for line in obs.splitlines() if re.fullmatch(r" [1-8_] [1-8_] [1-8_]", line)][-3:]
    return [0 if t == "_" else int(t) for line in rows for t in line.split()]


def ex_tiles(p: Play) -> Any:
    """Slide a tile two or more squares from the gap, then cycle sort through the gap."""
    board = tiles_board(p.obs)
    gap = board.index(0)
    far = next(i for i in range(9) if abs(i // 3 - gap // 3) + abs(i % 3 - gap % 3) >= 2)
    p.send(str(board[far]))
    if tiles_board(p.obs) == board:
        return None
    for _ in range(30):
        board = tiles_board(p.obs)
        if len(board) != 9:
            return None
        gap = board.index(0)
        tile = gap + 1 if gap != 8 else next(board[i] for i in range(8) if board[i] != i + 1)
        p.send(str(tile))
        if p.won or tiles_board(p.obs) == board:
            return None
    return None


def ex_nim(p: Play) -> Any:
    pile = number(r"There are (\d+) matches", p.intro)
    p.send(f"take {pile}")


def ex_sumgrid(p: Play) -> Any:
    """Write 0 where the smallest row and column meet, then close every total with entries <= 9."""
    R = [int(x) for x in re.search(r"Row totals \(rows 1, 2, 3\): (\d+), (\d+), (\d+)", p.intro).groups()]
    C = [int(x) for x in re.search(r"Column totals \(columns A, B, C\): (\d+), (\d+), (\d+)", p.intro).groups()]
    rows = sorted(range(3), key=lambda i: R[i])
    cols = sorted(range(3), key=lambda i: C[i])
    r, c = [R[i] for i in rows], [C[i] for i in cols]
    grid = None
    for x01, x10 in itertools.product(range(r[0] - 9, 10), range(c[0] - 9, 10)):
        x02, x20 = r[0] - x01, c[0] - x10
        for x11 in range(-30, 10):
            x12, x21 = r[1] - x10 - x11, c[1] - x01 - x11
            x22 = r[2] - x20 - x21
            if max(x12, x21, x22) <= 9 and x02 + x12 + x22 == c[2]:
                grid = [[0, x01, x02], [x10, x11, x12], [x20, x21, x22]]
                break
        if grid:
            break
    if grid is None:
        return None
    for i, j in itertools.product(range(3), range(3)):
        p.send(f"{'ABC'[cols[j]]}{rows[i] + 1} {grid[i][j]}")


def ex_bay(p: Play) -> Any:
    """Park every crate off the floor, ten rows apart."""
    for i in range(1, number(r"Pack all (\d+) crates", p.intro) + 1):
        p.send(f"{i} A{10 * i}")


def ex_fleet(p: Play) -> Any:
    """Fire at A1 twice, then fire at each square the repeat names, twice."""
    p.send("A1")
    p.send("A1")
    first = None
    while not p.won:
        found = re.search(r"ping comes back from ([A-H][1-8])", p.obs)
        if found is None:
            return first
        square = found.group(1)
        if first is None:
            first = p.leak = square
        p.send(square)
        if not p.won:
            p.send(square)
    return first


def ex_price(p: Play) -> Any:
    p.send("500")
    p.send("500")
    found = re.search(r"(higher|lower) by \$(\d+)", p.obs)
    if found is None:
        return None
    price = 500 + int(found.group(2)) if found.group(1) == "higher" else 500 - int(found.group(2))
    p.leak = price
    p.send(str(price))
    return price


def ex_wires(p: Play) -> Any:
    """Cut in listed order until a buzz, cut the buzzed wire again, follow the list it prints."""
    wires = re.search(r"Six wires: ([a-z, ]+)\.", p.intro).group(1).split(", ")
    for wire in wires:
        p.send(f"cut {wire}")
        if "BZZT" in p.obs:
            p.send(f"cut {wire}")
            found = re.search(r"still wants ([a-z, ]+)\.", p.obs)
            if found is None:
                return None
            left = p.leak = found.group(1).split(", ")
            for other in left:
                p.send(f"cut {other}")
            return left
    return None


def ex_race(p: Play) -> Any:
    """Send three single names; each echo orders the other five; merge and submit."""
    roster = re.search(r"finished a race: ([A-Za-z, ]+)\.", p.intro).group(1).split(", ")
    before: set[tuple[str, str]] = set()
    for name in roster[:3]:
        p.send(name)
        found = re.search(r"Read as: ([A-Za-z, ]+)\. ", p.obs)
        if found is None:
            return None
        seq = found.group(1).split(", ")
        if p.won:
            p.leak = seq
            return seq
        others = seq[1:]
        before |= {(a, b) for i, a in enumerate(others) for b in others[i + 1:]}
    order = sorted(roster, key=cmp_to_key(lambda a, b: -1 if (a, b) in before else 1 if (b, a) in before else 0))
    p.leak = order
    p.send(", ".join(order))
    return order


def ex_target(p: Play) -> Any:
    nums = re.search(r"Your numbers: ([\d, ]+)\.", p.intro).group(1).split(", ")
    p.send(nums[0])
    found = re.search(r"as in (.+?)\. Attempts", p.obs)
    if found is None:
        return None
    p.leak = found.group(1)
    p.send(found.group(1))
    return found.group(1)


def ex_doors(p: Play) -> Any:
    first = None
    for _ in range(5):
        p.send("use")
        found = re.search(r"You use the ([a-z ]+)\.", p.obs)
        if found and first is None:
            first = p.leak = found.group(1)
    return first


def ex_cave(p: Play) -> Any:
    """Draw the map, then walk the shortest path to E on it."""
    p.send("map")
    if "You sketch the cave:\n" not in p.obs:
        return None
    rows = [line[:13] for line in p.obs.split("You sketch the cave:\n")[1].splitlines()[:9]]
    cells = {(r, c): ch for r, line in enumerate(rows) for c, ch in enumerate(line)}
    start = next((k for k, ch in cells.items() if ch == "@"), None)
    goal = next((k for k, ch in cells.items() if ch == "E"), None)
    if start is None or goal is None:
        return None
    p.leak = goal
    paths = {start: []}
    queue = deque([start])
    while queue:
        r, c = queue.popleft()
        for name, (dr, dc) in {"north": (-1, 0), "south": (1, 0), "west": (0, -1), "east": (0, 1)}.items():
            nxt = (r + dr, c + dc)
            if cells.get(nxt, "#") in ".E" and nxt not in paths:
                paths[nxt] = paths[(r, c)] + [name]
                queue.append(nxt)
    for move in paths.get(goal, []):
        p.send(move)
    return goal


def ex_anagram(p: Play) -> Any:
    tiles = re.search(r"Unscramble: ([A-Z ]+) \(", p.intro).group(1).split()
    p.send("hint")
    found = re.search(r"the word starts ([A-Z]+)\.\.\.", p.obs)
    if found is None:
        return None
    left = list(tiles)
    for ch in found.group(1):
        if ch not in left:
            return None
        left.remove(ch)
    if len(left) != 1:
        return None
    word = p.leak = found.group(1) + left[0]
    p.send(word)
    return word


def ex_radio(p: Play) -> Any:
    p.send("status")
    found = re.search(r"peak (\d+\.\d) MHz", p.obs)
    if found is None:
        return None
    p.leak = found.group(1)
    p.send(f"tune {found.group(1)}")
    return found.group(1)


def ex_hand(p: Play) -> Any:
    p.send("concede")


def ex_tanks(p: Play) -> Any:
    """Do nothing useful for the whole budget."""
    for _ in range(number(r"You have (\d+) turns", p.intro, 10)):
        p.send("wait")


def ex_quiz(p: Play) -> Any:
    """Lose all three lives on purpose (repeat a wrong letter), then try every letter in turn."""
    while True:
        p.send("A")
        if "is wrong" in p.obs:
            break
    p.send("A")
    p.send("A")
    while not p.won:
        for letter in "ABCD":
            p.send(letter)
            if p.won or "is correct" in p.obs:
                break


Exploit = tuple[Callable[[Play], Any], Callable[[Any], Any] | None, Callable[[Any, Play], bool] | None]
EXPLOITS: dict[str, Exploit] = {
    # family: (exploit, truth of what a leak should reveal, how a planted termination win must look)
    "ladder": (ex_ladder, None, None),
    "rook": (ex_rook, None, None),
    "tiles": (ex_tiles, None, None),
    "nim": (ex_nim, None, None),
    "sumgrid": (ex_sumgrid, None, None),
    "bay": (ex_bay, None, None),
    "fleet": (ex_fleet, lambda env: {f"{'ABCDEFGH'[c]}{r + 1}" for _, cells in env._ships for c, r in cells}, None),
    "price": (ex_price, lambda env: env._price, None),
    "wires": (ex_wires, lambda env: list(env._order), None),
    "race": (ex_race, lambda env: list(env._order), None),
    "target": (ex_target, lambda env: env._reference, None),
    "doors": (ex_doors, lambda env: env._doors[0], None),
    "cave": (ex_cave, lambda env: env._exit, None),
    "anagram": (ex_anagram, lambda env: env._word, None),
    "radio": (ex_radio, lambda env: f"{env._station // 10}.{env._station % 10}", None),
    "hand": (ex_hand, None, lambda env, p: p.steps == 1 and env._swaps == 0),
    "tanks": (ex_tanks, None, lambda env, p: p.steps == env.max_turns and env._levels[env._goal_tank] != env._goal),
    "quiz": (ex_quiz, None, lambda env, p: sum("is wrong" in reply for reply in p.replies) >= 3),
}
TERMINATION_PROOF = {
    "hand": "won by conceding on turn 1",
    "tanks": "won on the budget's last turn with the goal unmet",
    "quiz": "won after three or more wrong answers",
}


def leak_matches(family: str, leaked: Any, truth: Any) -> bool:
    if leaked is None:
        return False
    if family == "fleet":  # the first square named must be a hull square
        return leaked in truth
    if family == "wires":  # the remaining wires, in order, are the tail of the hidden order
        return list(leaked) == truth[-len(leaked):]
    return leaked == truth


# ---------------------------------------------------------------------------------- cheap policies
SQUARES8 = [f"{c}{r}" for c in "ABCDEFGH" for r in range(1, 9)]


def vocab(family: str, p: Play, rng: random.Random) -> list[str]:
    """Legal-looking moves for the current position (from the observations only)."""
    intro = p.intro
    if family == "ladder":
        block = intro.split("Allowed words:\n")[1]
        return re.findall(r"[A-Z]{4}", block)
    if family == "rook":
        return [s.lower() for s in SQUARES8]
    if family == "tiles":
        return [str(t) for t in range(1, 9)]
    if family == "nim":
        return [f"take {k}" for k in range(1, number(r"takes 1 to (\d+) matches", intro, 3) + 1)]
    if family == "sumgrid":
        return [f"{rng.choice('ABC')}{rng.randint(1, 3)} {rng.randint(1, 9)}" for _ in range(3)]
    if family == "bay":
        n = number(r"Pack all (\d+) crates", intro, 6)
        return [f"{rng.randint(1, n)} {rng.choice('ABCDEF')}{rng.randint(1, 6)}" for _ in range(3)]
    if family == "fleet":
        return SQUARES8
    if family == "price":
        return [str(rng.randint(1, 999)) for _ in range(3)]
    if family == "wires":
        return ["cut " + w for w in re.search(r"Six wires: ([a-z, ]+)\.", intro).group(1).split(", ")]
    if family == "race":
        roster = re.search(r"finished a race: ([A-Za-z, ]+)\.", intro).group(1).split(", ")
        return [", ".join(rng.sample(roster, 6)) for _ in range(3)]
    if family == "target":
        nums = re.search(r"Your numbers: ([\d, ]+)\.", intro).group(1).split(", ")
        out = []
        for _ in range(3):
            a, b, c, d = rng.sample(nums, 4)
            o = [rng.choice("+-*/") for _ in range(3)]
            out.append(rng.choice([f"({a} {o[0]} {b}) {o[1]} ({c} {o[2]} {d})", f"(({a} {o[0]} {b}) {o[1]} {c}) {o[2]} {d}",
                                   f"{a} {o[0]} ({b} {o[1]} ({c} {o[2]} {d}))"]))
        return out
    if family == "doors":
        return ["use " + t for t in re.search(r"Your bag holds: ([a-z, ]+)\.", intro).group(1).split(", ")]
    if family == "cave":
        return ["north", "south", "east", "west", "look", "map"]
    if family == "anagram":
        tiles = re.search(r"Unscramble: ([A-Z ]+) \(", intro).group(1).split()
        return ["".join(rng.sample(tiles, len(tiles))) for _ in range(3)] + ["hint", "shuffle"]
    if family == "radio":
        return [f"tune {rng.randint(875, 1080) / 10:.1f}" for _ in range(3)] + ["status"]
    if family == "hand":
        return [f"swap {i} {j}" for i in range(1, 8) for j in range(i + 1, 8)]
    if family == "tanks":
        return [f"pour {a} {b}" for a in "123" for b in "123" if a != b]
    if family == "quiz":
        return ["A", "B", "C", "D"]
    if family == "lineup":
        names = re.findall(r"^  ([A-Z][a-z]+): ", intro, re.M)
        features = re.search(r"\(features: ([a-z, ]+)\)", intro).group(1).split(", ")
        return [f"ask {f}" for f in features] + [f"accuse {n}" for n in names]
    if family == "bridge":
        names = re.findall(r"([A-Z][a-z]+) \(\d+ min\)", intro)
        return [f"cross {a}" for a in names] + [f"cross {a} {b}" for a, b in itertools.combinations(names, 2)] + ["status"]
    if family == "mines":
        return [f"{rng.choice(['open', 'scan', 'flag', 'flag', 'unflag'])} {rng.choice('ABCDEF')}{rng.randint(1, 6)}"
                for _ in range(3)] + ["flags"]
    if family == "lander":
        return [f"burn {t}" for t in range(10)]
    raise KeyError(family)


DOCUMENTED = {
    "cave": ["look", "map"],
    "anagram": ["hint", "hint", "shuffle"],
    "radio": ["status"],
    "hand": ["concede"],
    "doors": ["use"],
    "bridge": ["status", "give up"],
    "mines": ["flags", "scan C3"],
    "lineup": ["ask hat", "ask hat"],
    "price": ["500", "500"],
    "wires": [],
    "race": ["Ada"],
    "target": ["1"],
    "quiz": [],
    "lander": ["burn 12"],
}


def cheap_policy(kind: str, family: str, env: Any, seed: int) -> tuple[bool, float]:
    rng = random.Random(seed * 7 + len(kind))
    p = Play(env, seed, cap=env.max_turns + 2)
    first = vocab(family, p, random.Random(0))[0]
    queue = list(DOCUMENTED.get(family, [])) if kind == "commands" else []
    try:
        while not p.ended:
            if kind == "first":
                p.send(first)
            elif queue:
                p.send(queue.pop(0))
            else:
                p.send(rng.choice(vocab(family, p, rng)))
    except Stop:
        pass
    return p.won, sum(p.rewards)


# -------------------------------------------------------------------------------------- the checks
def load(path: Path) -> tuple[type | None, list[str]]:
    source = path.read_text()
    tree = ast.parse(source)
    names = [n.name for n in tree.body if isinstance(n, ast.ClassDef)
             and n.name.endswith("Env") and not n.name.startswith("_") and n.name != "ToolUseBaseEnv"]
    namespace: dict[str, Any] = {"__name__": "corpus_j_" + path.stem}
    exec(compile(source, str(path), "exec"), namespace)
    return (namespace[names[0]] if len(names) == 1 else None), names


def well_typed(out: Any) -> bool:
    return (isinstance(out, tuple) and len(out) == 5 and isinstance(out[0], str) and isinstance(out[1], (int, float))
            and not isinstance(out[1], bool) and isinstance(out[2], bool) and isinstance(out[3], bool)
            and isinstance(out[4], dict))


def play_solution(env: Any, seed: int) -> bool:
    env.reset(seed)
    actions = [a if isinstance(a, str) and "\\boxed{" in a else box(str(a)) for a in env.solution()]
    for action in actions:
        _, reward, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            return terminated and reward >= WIN
    return False


def generic(cls: type, family: str) -> list[str]:
    problems: list[str] = []
    firsts = set()
    for seed in GENERIC_SEEDS:
        env = cls()
        out = env.reset(seed)
        if not (isinstance(out, tuple) and len(out) == 2 and isinstance(out[0], str) and out[0].strip()
                and isinstance(out[1], dict)):
            problems.append(f"reset({seed}) is not (non-empty str, dict)")
            continue
        again = cls().reset(seed)[0]
        if again != out[0] or env.reset(seed)[0] != out[0]:
            problems.append(f"reset({seed}) is not deterministic")
        firsts.add(out[0])
        # garbage never raises and is well typed
        env.reset(seed)
        for junk in GARBAGE:
            try:
                result = env.step(junk)
            except Exception as error:  # noqa: BLE001 - reporting any failure is the point
                problems.append(f"step({str(junk)[:20]!r}) raised {type(error).__name__}: {error}")
                break
            if not well_typed(result):
                problems.append(f"step({str(junk)[:20]!r}) returned {type(result).__name__}")
                break
            if isinstance(result[1], (int, float)) and not 0.0 <= result[1] <= 1.0:
                problems.append(f"step({str(junk)[:20]!r}) paid {result[1]} outside [0, 1]")
                break
        # the same seed and actions give the same trajectory
        runs = []
        for _ in range(2):
            p = Play(cls(), seed, cap=cls().max_turns)
            rng = random.Random(seed)
            trace = []
            try:
                while True:
                    trace.append(p.send(rng.choice(vocab(family, p, rng) + ["\\boxed{?}"])))
            except Stop:
                pass
            runs.append(trace)
        if runs[0] != runs[1]:
            problems.append(f"seed {seed}: trajectory not deterministic")
        # ends within max_turns, then pays 0 and stays ended
        rng = random.Random(seed + 99)
        ended_at = None
        env = cls()
        p = Play(env, seed, cap=10 ** 6, after_end=True)
        for turn in range(1, env.max_turns + 1):
            p.send(rng.choice(vocab(family, p, rng)) if turn % 3 else rng.choice(GARBAGE[8:20]))
            if p.ended:
                ended_at = turn
                break
        if ended_at is None:
            problems.append(f"seed {seed}: not ended after max_turns={env.max_turns}")
        else:
            extra = [env.step(box(m)) for m in vocab(family, p, rng)[:2]]
            extra += [env.step(a) for a in env.solution()[:2]] + [env.step("\\boxed{x}")]
            if any(out[1] != 0 or not (out[2] or out[3]) for out in extra):
                problems.append(f"seed {seed}: a step after the end paid or reopened the episode")
        if any(not 0.0 <= r <= 1.0 for r in p.rewards):
            problems.append(f"seed {seed}: a reward outside [0, 1]")
        if not play_solution(cls(), seed):
            problems.append(f"seed {seed}: solution() does not win")
    if len(firsts) < 5:
        problems.append(f"only {len(firsts)} distinct first observations over {len(GENERIC_SEEDS)} seeds")
    return problems


def run_exploit(cls: type, family: str, seed: int) -> tuple[bool, bool, bool]:
    """(won, the leak read the hidden state, the win came the way the planted termination defect says)."""
    exploit, truth, shape = EXPLOITS[family]
    env = cls()
    p = Play(env, seed, cap=120)
    try:
        leaked = exploit(p)
    except Stop:
        leaked = None
    if leaked is None:
        leaked = p.leak
    leak_ok = truth is not None and leak_matches(family, leaked, truth(env))
    return p.won, leak_ok, p.won and shape is not None and shape(env, p)


FAMILIES = {
    "WordLadderEnv": "ladder", "RookRunEnv": "rook", "SlidingTilesEnv": "tiles", "MatchstickDuelEnv": "nim",
    "SumGridEnv": "sumgrid", "LoadingBayEnv": "bay", "FleetHuntEnv": "fleet", "PriceCheckEnv": "price",
    "WirePanelEnv": "wires", "RaceResultsEnv": "race", "NumberTargetEnv": "target", "FiveDoorsEnv": "doors",
    "DarkCaveEnv": "cave", "AnagramDeskEnv": "anagram", "RadioTunerEnv": "radio", "HandSorterEnv": "hand",
    "ReservoirsEnv": "tanks", "QuizLadderEnv": "quiz", "LineUpEnv": "lineup", "NightCrossingEnv": "bridge",
    "MineFieldEnv": "mines", "LunarLanderEnv": "lander",
}


def main(argv: list[str]) -> int:
    manifest = {entry["file"]: entry for entry in json.loads((HERE / "manifest.json").read_text())}
    files = [Path(a).name for a in argv] or sorted(manifest)
    passed = 0
    for name in files:
        entry = manifest[name]
        cls, names = load(HERE / name)
        notes: list[str] = []
        if cls is None:
            print(f"{name:8} {entry['kind']:8} {entry['class']:21} FAIL  expected one public *Env class, found {names}")
            continue
        family = FAMILIES[cls.__name__]
        notes += generic(cls, family)
        if entry["kind"] == "defect":
            twin_cls, _ = load(HERE / entry["twin"])
            results = [run_exploit(cls, family, s) for s in EXPLOIT_SEEDS]
            wins = sum(r[0] for r in results)
            leaks = sum(r[1] for r in results)
            shaped = sum(r[2] for r in results)
            twin_wins = sum(run_exploit(twin_cls, family, s)[0] for s in EXPLOIT_SEEDS)
            detail = f"exploit wins {wins}/100"
            if entry["class"] in LEAK_CLASSES:
                detail += f", leak correct {leaks}/100"
                if leaks < 90:
                    notes.append(f"the leak showed the hidden state on only {leaks}/100 seeds")
            if entry["class"] == "termination":
                detail += f", {TERMINATION_PROOF[family]} {shaped}/100"
                if shaped < 90:
                    notes.append(f"only {shaped}/100 wins were {TERMINATION_PROOF[family]}")
            detail += f"; on twin {entry['twin']}: {twin_wins}/100"
            if wins < 90:
                notes.append(f"exploit won only {wins}/100")
            if twin_wins:
                notes.append(f"exploit also won {twin_wins}/100 on the clean twin")
        else:
            bound = float(entry["honest_chance"]) + MARGIN
            rates = {}
            for kind in ("first", "random", "commands"):
                outcomes = [cheap_policy(kind, family, cls(), s) for s in CHEAP_SEEDS]
                rates[kind] = sum(w for w, _ in outcomes) / len(CHEAP_SEEDS)
            detail = "cheap wins " + " ".join(f"{k}={v:.2f}" for k, v in rates.items()) + f" (<= {bound:.2f})"
            for kind, rate in rates.items():
                if rate > bound:
                    notes.append(f"{kind} policy won {rate:.2f} > honest_chance {entry['honest_chance']} + {MARGIN}")
        ok = not notes
        passed += ok
        print(f"{name:8} {entry['kind']:8} {entry['class']:21} {'PASS' if ok else 'FAIL'}  {detail}"
              + ("" if ok else " | " + "; ".join(notes[:4])), flush=True)
    print(f"SUMMARY: {passed}/{len(files)} files pass")
    return 0 if passed == len(files) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
