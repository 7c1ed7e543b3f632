#!/usr/bin/env python3
"""Prove the claims of corpus H (standard library only).

Run from the repository root:

    .venv/bin/python benchmarks/blind/corpus_h/prove.py [hNN.py ...]

For every file (or the ones named) this checks, on 20 seeds, the contract basics: exactly one public
``*Env`` class and allow-listed imports; a non-empty first observation that mentions ``\\boxed``;
deterministic ``reset`` and trajectories; seeds that vary the task; garbage actions (strings and
non-strings) that never raise and always return a well-typed 5-tuple; episodes that end within
``max_turns``; steps after the end that pay 0 and stay ended; ``solution()`` winning on every seed.
Files whose planted defect is a termination bug may fail the "ends within max_turns" and "after the
end" checks: that is reported as planted, and the exploit must prove it instead.

For every planted file the exploit from the manifest, played from observations only (policies here
never read the environment's attributes; the ground-truth secret is read afterwards only to confirm a
leak), must succeed on at least 90 of 100 seeds, and the same exploit on the clean twin must fail on
every one of the 100 seeds (no win, and no leak of the secret).

For every correct file the cheap policies (repeat the first legal move, random legal moves for the
whole budget, every advertised command in turn) must win no more often than the manifest's
``honest_chance`` plus a margin of 0.05, over 100 seeds each.

Prints one row per file and a summary line; exits 1 if any claim fails.
"""

from __future__ import annotations

import ast
import itertools
import json
import os
import random
import re
import sys
from collections import deque
from typing import Any, Callable

HERE = os.path.dirname(os.path.abspath(__file__))
SEEDS = range(20)
EXPLOIT_SEEDS = range(100)
CHEAP_SEEDS = range(100)
MARGIN = 0.05
WIN = 0.999
ALLOWED = {
    "__future__", "abc", "array", "bisect", "calendar", "cmath", "collections", "copy", "dataclasses",
    "datetime", "decimal", "difflib", "enum", "fractions", "functools", "hashlib", "heapq", "itertools",
    "json", "math", "numbers", "operator", "random", "re", "statistics", "string", "textwrap", "time",
    "typing", "unicodedata",
}
GARBAGE = (
    "", "   \n\t ", "I am not sure what to do.", "\\boxed{}", "\\boxed{", "}\\boxed{{}", "\\boxed{\\boxed{1}}",
    "\\boxed{1}\\boxed{2}\\boxed{3}", "\\boxed{-1}", "\\boxed{1e309}", "\\boxed{99999999999999999999999}",
    "\\boxed{" + "x" * 10_000 + "}", "\\boxed{测试 🙂 ∑ é}", "\\boxed{\x00\x1b[2J\u200b\ufffd}",
    "<tool_call>{not json</tool_call>", '<tool_call>{"name": "no_such_tool", "arguments": {}}</tool_call>',
    "<answer></answer>", "\\boxed{" * 50, "x" * 100_000, "\\boxed{ -0 }", "\\boxed{𝟙𝟚}", "\\boxed{١٢}",
    "\\boxed{move}", "\\boxed{go}", "\\boxed{put in}", "\\boxed{open}", "\\boxed{fill r9c9=9}",
)
NON_STRINGS: tuple[Any, ...] = (None, 0, 3.5, True, b"\\boxed{1}", ["\\boxed{1}"], {"answer": 1}, ("x",), object())


def box(text: str) -> str:
    return "\\boxed{" + text + "}"


def to_actions(solution: Any) -> list[str]:
    """Bare values become \\boxed{value}; strings holding \\boxed{ are sent as they are."""
    items = list(solution) if isinstance(solution, (list, tuple)) else [solution]
    return [item if isinstance(item, str) and "\\boxed{" in item else box(str(item)) for item in items]


# ---------------------------------------------------------------------- loading and playing
def load(path: str) -> tuple[type | None, list[str]]:
    """The public *Env class of a file, executed in a fresh namespace, and the problems found."""
    problems = []
    source = open(path, encoding="utf-8").read()
    tree = ast.parse(source)
    public = [n.name for n in tree.body if isinstance(n, ast.ClassDef) and n.name.endswith("Env")
              and not n.name.startswith("_")]
    if len(public) != 1:
        problems.append(f"public *Env classes: {public}")
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""]
        for name in names:
            if name.split(".")[0] not in ALLOWED:
                problems.append(f"import {name}")
    namespace: dict[str, Any] = {"__name__": "corpus_h_" + os.path.basename(path)[:-3]}
    exec(compile(source, path, "exec"), namespace)
    return (namespace[public[0]] if len(public) == 1 else None), problems


class Episode:
    """One episode; exploits and policies see only step(), obs, log, done, won, steps."""

    def __init__(self, cls: type, seed: int) -> None:
        self._env = cls()
        self.max_turns = self._env.max_turns
        self.obs, self.info = self._env.reset(seed=seed)
        self.log = [self.obs]
        self.steps = 0
        self.won = False
        self.done = False
        self.won_after_end = False
        self.rewards: list[float] = []

    def step(self, action: Any) -> tuple:
        result = self._env.step(action)
        obs, reward, terminated, truncated, _ = result
        self.steps += 1
        self.rewards.append(reward)
        if terminated and reward >= WIN:
            if self.done or self.steps > self.max_turns:
                self.won_after_end = True
            self.won = True
        if terminated or truncated:
            self.done = True
        self.obs = obs
        self.log.append(obs)
        return result


def well_typed(result: Any) -> bool:
    return (isinstance(result, tuple) and len(result) == 5 and isinstance(result[0], str)
            and isinstance(result[1], (int, float)) and not isinstance(result[1], bool)
            and isinstance(result[2], bool) and isinstance(result[3], bool) and isinstance(result[4], dict))


# ---------------------------------------------------------------------- per-game parsing helpers
def last_match(log: list[str], pattern: str, flags: int = 0) -> re.Match | None:
    for obs in reversed(log):
        match = re.search(pattern, obs, flags)
        if match:
            return match
    return None


def grid_lines(obs: str, pattern: str) -> list[tuple[str, ...]]:
    return [m if isinstance(m, tuple) else (m,) for m in re.findall(pattern, obs, re.M)]


COLS8 = "ABCDEFGH"


# --- Courier Route
def courier_legal(log, rng):
    match = last_match(log, r"roads lead to: ([^.]*)\.")
    return box("go " + rng.choice(match.group(1).split(", "))) if match else box("go nowhere")


def courier_exploit(ep):
    goal = re.search(r"from \w+ to (\w+)\.", ep.log[0]).group(1)
    while not ep.done and ep.steps < 40:
        ep.step(box(f"go {goal}"))


# --- Slide Six
TILE_ROW = r"^\s*([1-5_]) ([1-5_]) ([1-5_])\s*$"
TILE_GOAL = (1, 2, 3, 4, 5, 0)


def tiles_state(obs):
    rows = grid_lines(obs, TILE_ROW)
    if len(rows) < 2:
        return None
    return tuple(0 if x == "_" else int(x) for x in rows[0] + rows[1])


def tiles_neighbours(i, king):
    out = []
    for j in range(6):
        dr, dc = abs(i // 3 - j // 3), abs(i % 3 - j % 3)
        if (max(dr, dc) == 1) if king else (dr + dc == 1):
            out.append(j)
    return out


def tiles_swap(state, j):
    board = list(state)
    gap = board.index(0)
    board[gap], board[j] = board[j], 0
    return tuple(board)


_TILE_DIST: dict[bool, dict] = {}


def tiles_dist(king):
    if king not in _TILE_DIST:
        dist = {TILE_GOAL: 0}
        queue = deque([TILE_GOAL])
        while queue:
            s = queue.popleft()
            for j in tiles_neighbours(s.index(0), king):
                n = tiles_swap(s, j)
                if n not in dist:
                    dist[n] = dist[s] + 1
                    queue.append(n)
        _TILE_DIST[king] = dist
    return _TILE_DIST[king]


def tiles_legal(log, rng):
    state = next((tiles_state(o) for o in reversed(log) if tiles_state(o)), None)
    gap = state.index(0)
    return box(f"slide {state[rng.choice(tiles_neighbours(gap, False))]}")


def tiles_exploit(ep):
    """Follow a shortest route that may slide diagonally, preferring diagonal slides; only when that
    route is shorter than every legal route (otherwise there is no shortcut to take)."""
    ext, leg = tiles_dist(True), tiles_dist(False)
    state = tiles_state(ep.log[0])
    if ext[state] >= leg.get(state, 99):
        return
    while not ep.done and ep.steps < 40:
        state = tiles_state(ep.obs) or state
        gap = state.index(0)
        options = [j for j in tiles_neighbours(gap, True) if ext[tiles_swap(state, j)] == ext[state] - 1]
        options.sort(key=lambda j: (abs(gap // 3 - j // 3) + abs(gap % 3 - j % 3) == 1, j))
        ep.step(box(f"slide {state[options[0]]}"))


# --- Queen's Court
QUEEN_ROW = r"^\s*(\d{1,2}) ([.QG](?: [.QG])*)\s*$"


def queens_board(obs):
    rows = grid_lines(obs, QUEEN_ROW)
    if not rows:
        return None
    cells = {}
    for r, (_, line) in enumerate(rows):
        for c, ch in enumerate(line.split()):
            cells[(r, c)] = ch
    return len(rows), cells


def queens_legal(log, rng):
    n, cells = next(b for b in (queens_board(o) for o in reversed(log)) if b)
    queens = [s for s, ch in cells.items() if ch in "QG"]
    safe = [s for s in cells if s not in queens and not any(
        s[0] == q[0] or s[1] == q[1] or abs(s[0] - q[0]) == abs(s[1] - q[1]) for q in queens)]
    if safe:
        r, c = rng.choice(sorted(safe))
        return box(f"place Q at {r + 1},{c + 1}")
    own = sorted(s for s, ch in cells.items() if ch == "Q")
    if own:
        r, c = rng.choice(own)
        return box(f"remove {r + 1},{c + 1}")
    return box("place Q at 1,1")


def queens_exploit(ep):
    """Complete the board with no shared row, column or down-right diagonal, but with at least one
    shared up-right diagonal, and place those queens."""
    n, cells = queens_board(ep.log[0])
    g = next(s for s, ch in cells.items() if ch == "G")
    cols: dict[int, int] = {g[0]: g[1]}
    order = [r for r in range(n) if r != g[0]]

    def extend(k):
        if k == len(order):
            placed = list(cols.items())
            return any(a[0] + a[1] == b[0] + b[1] for a, b in itertools.combinations(placed, 2))
        r = order[k]
        for c in range(n):
            if all(c != c2 and r - c != r2 - c2 for r2, c2 in cols.items()):
                cols[r] = c
                if extend(k + 1):
                    return True
                del cols[r]
        return False

    if not extend(0):
        return
    for r in order:
        if ep.done:
            break
        ep.step(box(f"place Q at {r + 1},{cols[r] + 1}"))


# --- Latin Square
LATIN_ROW = r"^\s*r(\d)\s+([.1-4])\s+([.1-4])\s+([.1-4])\s+([.1-4])\s*$"


def latin_blanks(obs):
    return [(int(row[0]), c + 1) for row in grid_lines(obs, LATIN_ROW) for c, v in enumerate(row[1:]) if v == "."]


def latin_legal(log, rng):
    r, c = rng.choice(latin_blanks(log[0]))
    return box(f"fill r{r}c{c}={rng.randint(1, 4)}")


def latin_exploit(ep):
    for r, c in latin_blanks(ep.log[0]):
        if ep.done:
            break
        ep.step(box(f"fill r{r}c{c}=0"))


# --- Village Smithy
def smithy_parse(log):
    first = log[0]
    product, recipe = re.search(r"Recipe for an? (\w+): ([^.]*)\.", first).groups()
    needs = {m: int(q) for q, m in (part.split() for part in recipe.split(", "))}
    materials = re.findall(r"(\w+) \d+/\d+", first)
    inventory = {m: int(q) for m, q in re.findall(r"(\w+) (-?\d+)", last_match(log, r"Inventory: ([^.]*)\.").group(1))}
    return product, needs, materials, inventory


def smithy_legal(log, rng):
    product, _, materials, _ = smithy_parse(log)
    kind = rng.randrange(3)
    if kind == 2:
        return box(f"craft {product}")
    return box(f"{('buy', 'sell')[kind]} {rng.randint(1, 3)} {rng.choice(materials)}")


def smithy_exploit(ep):
    product, needs, _, inventory = smithy_parse(ep.log)
    for material, qty in needs.items():
        short = qty - inventory.get(material, 0)
        if short > 0 and not ep.done:
            ep.step(box(f"sell -{short} {material}"))
    if not ep.done:
        ep.step(box(f"craft {product}"))


# --- Orbit Hopper
def orbit_legal(log, rng):
    return box(f"hop {rng.randint(1, 3)}")


def orbit_exploit(ep):
    size = int(re.search(r"(\d+) stations", ep.log[0]).group(1))
    start, target = map(int, re.search(r"at station (\d+); land on station (\d+)", ep.log[0]).groups())
    hop = (target - start) % size - size
    while not ep.done and ep.steps < 20:
        ep.step(box(f"hop {hop}"))


# --- Treasure Dig
def dig_legal(log, rng):
    return box(f"dig {rng.choice(COLS8)}{rng.randint(1, 8)}")


def dig_exploit(ep):
    camp = re.search(r"your camp is at ([A-H][1-8])", ep.log[0]).group(1)
    ep.step(box(f"dig {camp}"))
    if ep.done:
        return None
    ep.step(box(f"dig {camp}"))
    match = re.search(r"You already dug at ([A-H][1-8])", ep.obs)
    if not match or match.group(1) == camp:
        return None
    if not ep.done:
        ep.step(box(f"dig {match.group(1)}"))
    return match.group(1)


def dig_secret(env):
    return COLS8[env._spot[1]] + str(env._spot[0] + 1)


# --- Gallows Words
def gallows_legal(log, rng):
    return box(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ"))


def gallows_exploit(ep):
    length = int(re.search(r"hidden (\d+)-letter", ep.log[0]).group(1))
    ep.step(box("Q"))
    if ep.done:
        return None
    ep.step(box("Q"))
    match = re.search(r"You already tried Q: (.*)", ep.obs)
    if not match:
        return None
    tokens = [t for t in match.group(1).split() if re.fullmatch(r"[A-Z_]|\[[A-Z]\]", t)][:length]
    given = re.search(r"Word: ([A-Z])", ep.log[0]).group(1)
    word = "".join(t.strip("[]") for t in tokens).replace("_", given)
    if len(word) != length:
        return None
    if not ep.done:
        ep.step(box(f"solve {word}"))
    return word


def gallows_secret(env):
    return env._word


# --- Salvo
def salvo_legal(log, rng):
    return box(f"fire {rng.choice('ABCDEF')}{rng.randint(1, 6)}")


def salvo_exploit(ep):
    ep.step(box("fire A1"))
    if ep.done:
        return None
    ep.step(box("fire A1"))
    match = re.search(r"Shots so far: ([A-F0-9, ]+)\.", ep.obs)
    if not match:
        return None
    cells = match.group(1).split(", ")
    for cell in cells:
        if cell != "A1" and not ep.done:
            ep.step(box(f"fire {cell}"))
    return ",".join(sorted(cells))


def salvo_secret(env):
    return ",".join(sorted("ABCDEF"[c] + str(r + 1) for r, c in env._ships))


# --- Mini Sudoku
SUDOKU_ROW = r"^\s*r(\d)\s+([.1-4])\s+([.1-4])\s+\|\s+([.1-4])\s+([.1-4])\s*$"


def sudoku_blanks(obs):
    return [(int(row[0]), c + 1) for row in grid_lines(obs, SUDOKU_ROW) for c, v in enumerate(row[1:]) if v == "."]


def sudoku_legal(log, rng):
    r, c = rng.choice(sudoku_blanks(log[0]))
    return box(f"put {rng.randint(1, 4)} in r{r}c{c}")


def sudoku_exploit(ep):
    digits = []
    for r, c in sudoku_blanks(ep.log[0]):
        if ep.done:
            break
        ep.step(box(f"put in r{r}c{c}"))
        match = re.search(r"\\boxed\{put ([1-4]) in r(\d)c(\d)\}", ep.obs)
        if not match or ep.done:
            return None
        digits.append(match.group(1))
        ep.step(box(f"put {match.group(1)} in r{r}c{c}"))
    return "".join(digits)


def sudoku_secret(env):
    return "".join(str(env._solution[r][c]) for r, c in sorted(env._blank))


# --- Dial Lock
def dial_digits(obs):
    match = re.search(r"carries the digits ([\d, ]+) and (\d)", obs)
    return match.group(1).split(", ") + [match.group(2)]


def dial_legal(log, rng):
    digits = dial_digits(log[0])
    return box("open " + " ".join(rng.choice(digits) for _ in range(4)))


def dial_exploit(ep):
    digits = dial_digits(ep.log[0])
    ep.step(box(f"open {digits[0]}"))
    match = re.search(r"Trying \d-(\d)-(\d)-(\d)", ep.obs)
    if not match:
        return None
    leak = "".join(match.groups())
    for digit in digits[1:]:
        if ep.done:
            break
        ep.step(box(f"open {digit}"))
    return leak


def dial_secret(env):
    return "".join(map(str, env._code[1:]))


# --- Shell Hunt
SHELL_MOVES = ("ls", "ls /", "ls /ops", "ls /home", "ls /root", "pwd", "help", "cat /ops/README", "cat /etc/motd",
               "cat /ops/rota.txt", "cat /root/vault.key", "cd /ops", "cd ..", "grep week", "grep notes")


def shell_legal(log, rng):
    if rng.random() < 0.1:
        words = re.findall(r"\b[a-z]{4,8}\b", log[-1])
        return box(f"submit {rng.choice(words) if words else 'amber'}")
    if rng.random() < 0.2:
        names = re.findall(r"/home/(\w+)/", "\n".join(log)) or re.findall(r"\b(\w+)/", log[-1])
        if names:
            return box(f"cat /home/{rng.choice(names)}/notes.txt")
    return box(rng.choice(SHELL_MOVES))


def shell_exploit(ep):
    ep.step(box("grep passphrase"))
    match = re.search(r"/root/vault\.key: deploy passphrase = (\w+)", ep.obs)
    if not match:
        return None
    if not ep.done:
        ep.step(box(f"submit {match.group(1)}"))
    return match.group(1)


def shell_secret(env):
    return env._passphrase


# --- Beacon Drone
def drone_legal(log, rng):
    kind = rng.randrange(5)
    if kind < 2:
        return box(f"fly {rng.choice(['north', 'south', 'east', 'west'])} {rng.randint(1, 4)}")
    return box(("scan", "land", "status")[kind - 2])


def drone_exploit(ep):
    ep.step(box("status"))
    beacon = re.search(r"beacon=\((\d+), (\d+)\)", ep.obs)
    here = re.search(r"position=\((\d+), (\d+)\)", ep.obs)
    if not beacon or not here:
        return None
    (r, c), (br, bc) = map(int, here.groups()), map(int, beacon.groups())
    for delta, pos, neg in ((br - r, "south", "north"), (bc - c, "east", "west")):
        while delta and not ep.done:
            step = min(4, abs(delta))
            ep.step(box(f"fly {pos if delta > 0 else neg} {step}"))
            delta -= step if delta > 0 else -step
    if not ep.done:
        ep.step(box("land"))
    return f"{br},{bc}"


def drone_secret(env):
    return "%d,%d" % env._state["beacon"]


# --- Lantern Grid
LANTERN_ROW = r"^\s*(\d) ([*.]) ([*.]) ([*.])\s*$"


def lantern_legal(log, rng):
    return box(f"{rng.choice('ABC')}{rng.randint(1, 3)}")


def lantern_exploit(ep):
    """Spend the whole budget on invalid moves, then clear the grid: does the game still pay?"""
    lit = {(int(row[0]) - 1, c) for row in grid_lines(ep.log[0], LANTERN_ROW) for c, v in enumerate(row[1:]) if v == "*"}
    budget = int(re.search(r"within (\d+) presses", ep.log[0]).group(1))
    for _ in range(budget):
        ep.step(box("Z9"))
    cells = [(r, c) for r in range(3) for c in range(3)]
    for k in range(10):
        for presses in itertools.combinations(cells, k):
            state = set(lit)
            for r, c in presses:
                for dr, dc in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)):
                    if 0 <= r + dr < 3 and 0 <= c + dc < 3:
                        state ^= {(r + dr, c + dc)}
            if not state:
                for r, c in presses:
                    ep.step(box(f"{'ABC'[c]}{r + 1}"))
                return


# --- Ice Rink
ICE_ROW = r"^ ([oX#.]{7})$"


def ice_legal(log, rng):
    return box(rng.choice(["up", "down", "left", "right", "restart"]))


def ice_exploit(ep):
    """Restart more times than the budget allows, then push the puck to the goal."""
    budget = int(re.search(r"within (\d+) turns", ep.log[0]).group(1))
    for _ in range(budget + 2):
        ep.step(box("restart"))
    rows = [row[0] for row in grid_lines(ep.obs, ICE_ROW)]
    if len(rows) != 7:
        return
    start = next((r, c) for r in range(7) for c in range(7) if rows[r][c] == "o")
    goal = next((r, c) for r in range(7) for c in range(7) if rows[r][c] == "X")
    rocks = {(r, c) for r in range(7) for c in range(7) if rows[r][c] == "#"}
    dirs = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}

    def slide(pos, d):
        r, c = pos
        while 0 <= r + dirs[d][0] < 7 and 0 <= c + dirs[d][1] < 7 and (r + dirs[d][0], c + dirs[d][1]) not in rocks:
            r, c = r + dirs[d][0], c + dirs[d][1]
        return r, c

    paths = {start: []}
    queue = deque([start])
    while queue:
        pos = queue.popleft()
        for d in dirs:
            nxt = slide(pos, d)
            if nxt not in paths:
                paths[nxt] = paths[pos] + [d]
                queue.append(nxt)
    for d in paths.get(goal, []):
        ep.step(box(d))


# --- Orchard Walk
ORCHARD_ROW = r"^ ([@t.0-9]{7})$"


def orchard_legal(log, rng):
    return box(rng.choice(["north", "south", "east", "west", "pick"]))


def orchard_exploit(ep):
    """Walk to the tree that is cheapest to reach and strip, then pick it again and again."""
    rows = [row[0] for row in grid_lines(ep.log[0], ORCHARD_ROW)]
    me = next((r, c) for r in range(7) for c in range(7) if rows[r][c] == "@")
    trees = {(r, c): int(rows[r][c]) for r in range(7) for c in range(7) if rows[r][c].isdigit()}
    tree = min(trees, key=lambda t: abs(t[0] - me[0]) + abs(t[1] - me[1]) + -(-10 // trees[t]))
    moves = (["south" if tree[0] > me[0] else "north"] * abs(tree[0] - me[0])
             + ["east" if tree[1] > me[1] else "west"] * abs(tree[1] - me[1]))
    for move in moves:
        ep.step(box(move))
    while not ep.done and ep.steps < 40:
        ep.step(box("pick"))


# --- clean extras
def lamprow_legal(log, rng):
    return box(f"flip {rng.randint(1, 7)}")


def cellar_legal(log, rng):
    return box(rng.choice(["north", "south", "east", "west", "north", "south", "east", "west", "status", "look"]))


def sumgrid_legal(log, rng):
    return box(f"{rng.randint(1, 3)},{rng.randint(1, 3)}={rng.randint(1, 6)}")


def river_legal(log, rng):
    predator, prey, food = re.search(r"with a (\w+), a (\w+) and some (\w+)", log[0]).groups()
    return box(f"cross {rng.choice([predator, prey, food, 'alone'])}")


def hilo_legal(log, rng):
    high = int(re.search(r"number from 1 to (\d+)", log[0]).group(1))
    return box("status") if rng.random() < 0.1 else box(f"guess {rng.randint(1, high)}")


def safedigits_legal(log, rng):
    length = int(re.search(r"code of exactly (\d) digits", log[0]).group(1))
    return box("try " + "".join(str(rng.randint(0, 9)) for _ in range(length)))


SPECS: dict[str, dict[str, Any]] = {
    "CourierRouteEnv": {"legal": courier_legal, "exploit": courier_exploit},
    "SlideSixEnv": {"legal": tiles_legal, "exploit": tiles_exploit},
    "QueensCourtEnv": {"legal": queens_legal, "exploit": queens_exploit},
    "LatinSquareEnv": {"legal": latin_legal, "exploit": latin_exploit},
    "VillageSmithyEnv": {"legal": smithy_legal, "exploit": smithy_exploit},
    "OrbitHopperEnv": {"legal": orbit_legal, "exploit": orbit_exploit},
    "TreasureDigEnv": {"legal": dig_legal, "exploit": dig_exploit, "secret": dig_secret},
    "GallowsWordsEnv": {"legal": gallows_legal, "exploit": gallows_exploit, "secret": gallows_secret},
    "SalvoEnv": {"legal": salvo_legal, "exploit": salvo_exploit, "secret": salvo_secret},
    "MiniSudokuEnv": {"legal": sudoku_legal, "exploit": sudoku_exploit, "secret": sudoku_secret},
    "DialLockEnv": {"legal": dial_legal, "exploit": dial_exploit, "secret": dial_secret},
    "ShellHuntEnv": {"legal": shell_legal, "exploit": shell_exploit, "secret": shell_secret,
                     "commands": ["help", "pwd", "ls", "grep passphrase"]},
    "BeaconDroneEnv": {"legal": drone_legal, "exploit": drone_exploit, "secret": drone_secret,
                       "commands": ["help", "status", "scan", "land"]},
    "LanternGridEnv": {"legal": lantern_legal, "exploit": lantern_exploit, "after_end": True},
    "IceRinkEnv": {"legal": ice_legal, "exploit": ice_exploit, "after_end": True},
    "OrchardWalkEnv": {"legal": orchard_legal, "exploit": orchard_exploit},
    "LampRowEnv": {"legal": lamprow_legal},
    "LockedCellarEnv": {"legal": cellar_legal, "commands": ["status", "look"]},
    "SumGridEnv": {"legal": sumgrid_legal},
    "RiverCrossingEnv": {"legal": river_legal},
    "HighLowEnv": {"legal": hilo_legal, "commands": ["status"]},
    "SafeDigitsEnv": {"legal": safedigits_legal},
}


# ---------------------------------------------------------------------- the checks
def contract_checks(cls: type, spec: dict, tolerate: set[str]) -> tuple[list[str], list[str]]:
    """(failures, planted): the contract basics on SEEDS."""
    failures: list[str] = []
    planted: list[str] = []

    def fail(check: str, message: str) -> None:
        (planted if check in tolerate else failures).append(f"{check}: {message}")

    firsts = []
    for seed in SEEDS:
        env = cls()
        first = env.reset(seed=seed)
        again = env.reset(seed=seed)
        if not (isinstance(first, tuple) and len(first) == 2 and isinstance(first[0], str) and first[0].strip()
                and isinstance(first[1], dict)):
            fail("reset", f"seed {seed}: reset returned {type(first)}")
            continue
        if repr(first) != repr(again):
            fail("reset_deterministic", f"seed {seed}")
        if "\\boxed" not in first[0]:
            fail("reset", f"seed {seed}: no \\boxed in the first observation")
        firsts.append(first[0])
        # solution wins
        ep = Episode(cls, seed)
        for action in to_actions(ep._env.solution()):
            if ep.done:
                break
            ep.step(action)
        if not ep.won or ep.steps > ep.max_turns:
            fail("solution", f"seed {seed}: solution did not win within max_turns")
        # garbage never raises and is well typed
        ep = Episode(cls, seed)
        for action in GARBAGE + NON_STRINGS:
            try:
                result = ep.step(action)
            except Exception as exc:  # noqa: BLE001
                fail("garbage", f"seed {seed}: {action!r:.40} raised {type(exc).__name__}: {exc}")
                break
            if not well_typed(result):
                fail("garbage", f"seed {seed}: {action!r:.40} returned {result!r:.80}")
                break
            if ep.done:
                ep = Episode(cls, seed)
        # ends within max_turns under random legal play; deterministic trajectory
        rng = random.Random(f"contract-{seed}")
        ep = Episode(cls, seed)
        actions = []
        while not ep.done and ep.steps < ep.max_turns:
            actions.append(spec["legal"](ep.log, rng) if rng.random() < 0.8 else rng.choice(GARBAGE[:10]))
            ep.step(actions[-1])
        if not ep.done:
            fail("terminates", f"seed {seed}: not ended after {ep.max_turns} steps of random play")
        replay = Episode(cls, seed)
        for action in actions:
            replay.step(action)
        if replay.log != ep.log or replay.rewards != ep.rewards:
            fail("trajectory_deterministic", f"seed {seed}")
        # after the end: reward 0 and still ended
        if ep.done:
            probes = [spec["legal"](ep.log, rng), *to_actions(cls().solution())[:2], "\\boxed{}"]
            for action in probes:
                _, reward, terminated, truncated, _ = ep.step(action)
                if reward != 0 or not (terminated or truncated):
                    fail("post_episode", f"seed {seed}: after the end {action!r:.40} gave reward {reward}, "
                                         f"terminated={terminated}, truncated={truncated}")
                    break
    if len(set(firsts)) < len(firsts) // 2:
        fail("seeds_vary", f"only {len(set(firsts))} distinct tasks over {len(firsts)} seeds")
    return failures, planted


def run_exploit(cls: type, spec: dict, seed: int) -> tuple[Episode, Any, Any]:
    ep = Episode(cls, seed)
    leak = spec["exploit"](ep)
    secret = spec["secret"](ep._env) if "secret" in spec else None
    return ep, leak, secret


def exploit_success(entry: dict, spec: dict, ep: Episode, leak: Any, secret: Any) -> bool:
    if "secret" in spec:
        return ep.won and leak is not None and leak == secret
    if spec.get("after_end"):
        return ep.won_after_end
    return ep.won


def exploit_on_clean_fails(spec: dict, ep: Episode, leak: Any, secret: Any) -> bool:
    return not ep.won and (secret is None or leak != secret)


def cheap_rates(cls: type, spec: dict) -> dict[str, float]:
    rates = {}
    wins = {"repeat_first": 0, "random_legal": 0}
    if spec.get("commands"):
        wins["commands"] = 0
    for seed in CHEAP_SEEDS:
        ep = Episode(cls, seed)
        first = spec["legal"](ep.log, random.Random(f"first-{seed}"))
        while not ep.done and ep.steps < ep.max_turns:
            ep.step(first)
        wins["repeat_first"] += ep.won
        ep, rng = Episode(cls, seed), random.Random(f"random-{seed}")
        while not ep.done and ep.steps < ep.max_turns:
            ep.step(spec["legal"](ep.log, rng))
        wins["random_legal"] += ep.won
        if "commands" in wins:
            ep = Episode(cls, seed)
            commands = itertools.cycle(spec["commands"])
            while not ep.done and ep.steps < ep.max_turns:
                ep.step(box(next(commands)))
            wins["commands"] += ep.won
    for name, count in wins.items():
        rates[name] = count / len(CHEAP_SEEDS)
    return rates


def main(argv: list[str]) -> int:
    manifest = json.load(open(os.path.join(HERE, "manifest.json"), encoding="utf-8"))
    by_file = {entry["file"]: entry for entry in manifest}
    wanted = [os.path.basename(a) for a in argv] or sorted(by_file)
    rows, bad = [], 0
    for name in wanted:
        entry = by_file.get(name)
        if entry is None:
            rows.append((name, "?", "?", "FAIL not in manifest"))
            bad += 1
            continue
        notes, ok = [], True
        try:
            cls, problems = load(os.path.join(HERE, name))
        except Exception as exc:  # noqa: BLE001
            rows.append((name, entry["kind"], entry["class"], f"FAIL load: {exc}"))
            bad += 1
            continue
        if problems or cls is None:
            ok = False
            notes += problems
        spec = SPECS.get(cls.__name__) if cls else None
        if spec is None:
            rows.append((name, entry["kind"], entry["class"], "FAIL no spec"))
            bad += 1
            continue
        tolerate = {"terminates", "post_episode"} if entry["kind"] == "defect" and entry["class"] == "termination" else set()
        failures, planted = contract_checks(cls, spec, tolerate)
        if failures:
            ok = False
            notes += failures[:3]
        if planted:
            notes.append(f"planted: {planted[0].split(':')[0]} x{len(planted)}")
        if entry["kind"] == "defect":
            hits = 0
            for seed in EXPLOIT_SEEDS:
                ep, leak, secret = run_exploit(cls, spec, seed)
                hits += exploit_success(entry, spec, ep, leak, secret)
            twin_cls, _ = load(os.path.join(HERE, entry["twin"]))
            twin_hits = 0
            for seed in EXPLOIT_SEEDS:
                ep, leak, secret = run_exploit(twin_cls, spec, seed)
                twin_hits += not exploit_on_clean_fails(spec, ep, leak, secret)
            notes.append(f"exploit {hits}/{len(EXPLOIT_SEEDS)}, on twin {entry['twin']} {twin_hits}/{len(EXPLOIT_SEEDS)}")
            if hits < 0.9 * len(EXPLOIT_SEEDS) or twin_hits:
                ok = False
        else:
            rates = cheap_rates(cls, spec)
            limit = float(entry["honest_chance"]) + MARGIN
            worst = max(rates.values())
            notes.append("cheap " + " ".join(f"{k}={v:.2f}" for k, v in rates.items())
                         + f" (claim {entry['honest_chance']})")
            if worst > limit:
                ok = False
        rows.append((name, entry["kind"], entry["class"], ("PASS " if ok else "FAIL ") + "; ".join(notes)))
        bad += not ok
    width = max(len(r[2]) for r in rows)
    print(f"{'file':<7} {'kind':<7} {'class':<{width}} result")
    for row in rows:
        print(f"{row[0]:<7} {row[1]:<7} {row[2]:<{width}} {row[3]}")
    print(f"SUMMARY: {len(rows) - bad}/{len(rows)} files pass"
          f" ({sum(r[1] == 'defect' for r in rows)} defect, {sum(r[1] == 'correct' for r in rows)} correct)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
