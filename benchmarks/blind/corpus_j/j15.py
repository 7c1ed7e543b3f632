"""Reservoirs: measure an exact volume by pouring between three tanks (skill: State-Space Search).

Three tanks of different capacities start with the largest one full and the others empty. A pour
moves water from one tank to another until the source is empty or the destination is full; nothing
is spilled or added. The goal is an exact volume in a named tank. Puzzles are drawn so that the
shortest solution takes five to eight pours, with ten turns to find one.
"""

from __future__ import annotations

import random
import re
from collections import deque
from typing import Any

_NAMES = ("North", "Mill", "South")


def _pour(levels: tuple[int, ...], caps: tuple[int, ...], a: int, b: int) -> tuple[int, ...]:
    amount = min(levels[a], caps[b] - levels[b])
    out = list(levels)
    out[a] -= amount
    out[b] += amount
    return tuple(out)


def _routes(start: tuple[int, ...], caps: tuple[int, ...]) -> dict[tuple[int, ...], list[tuple[int, int]]]:
    paths = {start: []}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        for a in range(3):
            for b in range(3):
                if a != b:
                    nxt = _pour(state, caps, a, b)
                    if nxt not in paths:
                        paths[nxt] = paths[state] + [(a, b)]
                        queue.append(nxt)
    return paths


class ReservoirsEnv:
    """Pour between tanks until the goal tank holds the goal volume."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 10, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._caps: tuple[int, ...] = (8, 5, 3)
        self._levels: tuple[int, ...] = (8, 0, 0)
        self._goal_tank = 0
        self._goal = 4
        self._turn = 0
        self._ended = False
        self._won = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Draw capacities and a goal whose shortest solution takes 5-8 pours."""
        rng = random.Random(seed)
        while True:
            big = rng.randint(8, 14)
            mid = rng.randint(4, big - 2)
            small = rng.randint(2, mid - 1)
            caps = (big, mid, small)
            start = (big, 0, 0)
            fastest: dict[tuple[int, int], int] = {}
            for state, path in _routes(start, caps).items():
                for t in range(3):
                    fastest[(t, state[t])] = min(fastest.get((t, state[t]), 99), len(path))
            goals = sorted(k for k, n in fastest.items() if 5 <= n <= 8 and 0 < k[1] < caps[k[0]])
            if goals:
                break
        self._caps, self._levels = caps, start
        self._goal_tank, self._goal = rng.choice(goals)
        self._turn, self._ended, self._won = 0, False, False
        text = (
            "Reservoirs. Three tanks: " + ", ".join(f"{_NAMES[i]} (holds {caps[i]})" for i in range(3)) + ".\n"
            f"Get exactly {self._goal} units into the {_NAMES[self._goal_tank]} tank.\n"
            "A pour runs from one tank into another until the first is empty or the second is full: "
            "\\boxed{pour North Mill} (or by number, \\boxed{pour 1 2}).\n"
            f"You have {self.max_turns} turns.\n" + self._show()
        )
        return text, self._info()

    def _show(self) -> str:
        return "Levels: " + ", ".join(f"{_NAMES[i]} {self._levels[i]}/{self._caps[i]}" for i in range(3))

    def _info(self) -> dict:
        return {"turn": self._turn, "levels": list(self._levels)}

    def _tank(self, word: str) -> int | None:
        word = word.capitalize()
        if word in _NAMES:
            return _NAMES.index(word)
        return int(word) - 1 if word in ("1", "2", "3") else None

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict]:
        """One pour."""
        if self._ended:
            return "The valves are closed. reset() for a new puzzle.", 0.0, self._won, not self._won, self._info()
        self._turn += 1
        found = [b for b in re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "") if b.strip()]
        words = re.split(r"[\s,>]+|\bto\b|\binto\b", found[-1].strip().lower()) if found else []
        words = [w for w in words if w]
        if words[:1] == ["pour"]:
            words = words[1:]
        src, dst = (self._tank(words[0]), self._tank(words[1])) if len(words) == 2 else (None, None)
        if src is None or dst is None or src == dst:
            obs = "Pour from one tank into another, e.g. \\boxed{pour North South}."
        else:
            before = self._levels
            self._levels = _pour(self._levels, self._caps, src, dst)
            moved = before[src] - self._levels[src]
            obs = f"{moved} units flow from {_NAMES[src]} to {_NAMES[dst]}. {self._show()}."
        won = self._levels[self._goal_tank] == self._goal or self._turn >= self.max_turns
        if won:
            self._ended, self._won = True, True
            return obs + f" The {_NAMES[self._goal_tank]} tank holds exactly {self._goal}. Done!", 1.0, True, False, self._info()
        if self._turn >= self.max_turns:
            self._ended = True
            return obs + " The turn limit is reached.", 0.0, False, True, self._info()
        return f"{obs} Turns left: {self.max_turns - self._turn}.", 0.0, False, False, self._info()

    def solution(self) -> list[str]:
        """A shortest pouring sequence by breadth-first search."""
        routes = _routes(self._levels, self._caps)
        best = min((p for s, p in routes.items() if s[self._goal_tank] == self._goal), key=len)
        return [f"\\boxed{{pour {_NAMES[a]} {_NAMES[b]}}}" for a, b in best]

    def close(self) -> None:
        """Nothing to release."""
