"""Blocked Lattice Paths: count monotone routes through a grid with roadworks (skill: dynamic programming).

A city grid has R x C blocks. A courier starts at the top-left corner and must reach the bottom-right
corner moving only right or down. Some intersections are closed for roadworks and cannot be entered.
The player reports how many different routes there are, e.g. \\boxed{126}.
"""

from __future__ import annotations

import random
import re
from typing import Any


class BlockedLatticePathsEnv:
    """Count right/down lattice paths avoiding closed intersections."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._rows = 4
        self._cols = 4
        self._closed: set[tuple[int, int]] = set()
        self._cache: int | None = None
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        while True:
            rows, cols = rng.randint(4, 6), rng.randint(4, 7)
            cells = [(r, c) for r in range(rows) for c in range(cols) if (r, c) not in ((0, 0), (rows - 1, cols - 1))]
            closed = set(rng.sample(cells, rng.randint(2, 5)))
            self._rows, self._cols, self._closed, self._cache = rows, cols, closed, None
            if self._count() > 1:
                break
        self._cache = None
        self._turn, self._terminated, self._truncated = 0, False, False
        grid = "\n".join("  " + " ".join("X" if (r, c) in closed else "." for c in range(cols)) for r in range(rows))
        text = (f"Blocked Lattice Paths. The grid has {rows} rows and {cols} columns of intersections "
                "(X = closed):\n" + grid + "\nStarting at the top-left intersection and moving only right or "
                "down, how many different routes reach the bottom-right intersection without entering a "
                "closed one? Answer in a box, e.g. \\boxed{35}.")
        return text, self._info()

    def _info(self) -> dict:
        return {"turn": self._turn, "rows": self._rows, "cols": self._cols, "closed": len(self._closed)}

    def _count(self) -> int:
        ways = [[0] * self._cols for _ in range(self._rows)]
        for r in range(self._rows):
            for c in range(self._cols):
                if (r, c) in self._closed:
                    continue
                if r == 0 and c == 0:
                    ways[r][c] = 1
                    continue
                ways[r][c] = (ways[r - 1][c] if r else 0) + (ways[r][c - 1] if c else 0)
        return ways[-1][-1]

    def _routes(self) -> int:
        if self._cache is None:
            self._cache = self._count()
        return self._cache

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._terminated or self._truncated:
            return "Episode over.", 0.0, self._terminated, self._truncated, self._info()
        self._turn += 1
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
        value = boxes[-1].strip().replace(",", "") if boxes else ""
        reward = 0.0
        if not re.fullmatch(r"\d{1,7}", value):
            obs = "Answer with a whole number of routes in a box, e.g. \\boxed{35}."
        else:
            self._terminated = True
            expected = self._cache
            if expected is not None and int(value) != expected:
                obs = "That is not the number of routes."
            else:
                reward, obs = 1.0, "Correct!"
        if not self._terminated and self._turn >= self.max_turns:
            self._truncated = True
            obs += " No turns left."
        return obs, reward, self._terminated, self._truncated, self._info()

    def solution(self) -> str:
        return str(self._routes())

    def close(self) -> None:
        """Nothing to release."""
