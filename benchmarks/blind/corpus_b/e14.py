"""Jug Measure: measure an exact amount of water with two unmarked jugs.

Actions: fill a jug from the tap, empty a jug, or pour one jug into the other until the source is
empty or the target is full. The goal is met as soon as either jug holds the target amount.
"""

from __future__ import annotations

import math
import random
import re
from collections import deque
from typing import Any

_MOVES = ["fill A", "fill B", "empty A", "empty B", "pour A B", "pour B A"]


def _apply(state: tuple[int, int], move: str, cap: tuple[int, int]) -> tuple[int, int]:
    a, b = state
    ca, cb = cap
    if move == "fill A":
        return ca, b
    if move == "fill B":
        return a, cb
    if move == "empty A":
        return 0, b
    if move == "empty B":
        return a, 0
    if move == "pour A B":
        amount = min(a, cb - b)
        return a - amount, b + amount
    amount = min(b, ca - a)
    return a + amount, b - amount


class JugMeasureEnv:
    """Two-jug measuring puzzle."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 8, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._cap = (3, 5)
        self._goal = 4
        self._jugs = (0, 0)
        self._turn = 0
        self._done = False

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        while True:
            ca, cb = rng.randint(3, 13), rng.randint(3, 13)
            goal = rng.randint(1, max(ca, cb))
            if ca != cb and goal % math.gcd(ca, cb) == 0 and goal not in (ca, cb):
                break
        self._cap, self._goal, self._jugs = (ca, cb), goal, (0, 0)
        self._turn, self._done = 0, False
        obs = (f"Jug Measure. Jug A holds {ca} litres, jug B holds {cb} litres; both start empty.\n"
               f"Get exactly {goal} litres into either jug. Moves: {', '.join(_MOVES)}.\n"
               f"One move per turn, e.g. \\boxed{{fill A}}. You have {self.max_turns} turns.")
        return obs, {"jugs": self._jugs}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._done:
            return "Puzzle finished.", 0.0, True, False, {"jugs": self._jugs}
        self._turn += 1
        found = re.findall(r"\\boxed\{([^{}]*)\}", action) if isinstance(action, str) else []
        move = " ".join(found[-1].split()) if found else ""
        move = move[:1].lower() + move[1:] if move else move
        reward, terminated = 0.0, False
        if move not in _MOVES:
            obs = f"Unknown move. Use one of: {', '.join(_MOVES)}."
        else:
            self._jugs = _apply(self._jugs, move, self._cap)
            obs = f"{move}: A={self._jugs[0]}, B={self._jugs[1]}."
            if self._goal in self._jugs:
                reward, terminated = 1.0, True
                obs += " Measured!"
        truncated = not terminated and self._turn >= self.max_turns
        self._done = terminated or truncated
        return obs, reward, terminated, truncated, {"jugs": self._jugs}

    def solution(self) -> list[str]:
        start = (0, 0)
        parent: dict[tuple[int, int], tuple[tuple[int, int], str] | None] = {start: None}
        queue = deque([start])
        while queue:
            state = queue.popleft()
            if self._goal in state:
                path = []
                while parent[state] is not None:
                    prev, move = parent[state]
                    path.append(move)
                    state = prev
                return path[::-1]
            for move in _MOVES:
                nxt = _apply(state, move, self._cap)
                if nxt not in parent:
                    parent[nxt] = (state, move)
                    queue.append(nxt)
        return []

    def close(self) -> None:
        pass
