"""Lattice paths: count monotone paths through a grid with blocked cells."""

from __future__ import annotations

import random
import re
from typing import Any


class GridPathsEnv:
    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._count = 0
        self._turn = 0
        self._done = False
        self.reset()

    @staticmethod
    def _paths(grid: list[list[str]]) -> int:
        rows, cols = len(grid), len(grid[0])
        ways = [[0] * cols for _ in range(rows)]
        for r in range(rows):
            for c in range(cols):
                if grid[r][c] == "#":
                    continue
                if r == 0 and c == 0:
                    ways[r][c] = 1
                else:
                    ways[r][c] = (ways[r - 1][c] if r else 0) + (ways[r][c - 1] if c else 0)
        return ways[-1][-1]

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        while True:
            rows, cols = rng.randint(4, 6), rng.randint(4, 7)
            grid = [["."] * cols for _ in range(rows)]
            for _ in range(rng.randint(2, 5)):
                r, c = rng.randrange(rows), rng.randrange(cols)
                if (r, c) not in ((0, 0), (rows - 1, cols - 1)):
                    grid[r][c] = "#"
            count = self._paths(grid)
            if count >= 10 and count not in (rows, cols):
                break
        self._grid, self._count = grid, count
        self._turn, self._done = 0, False
        picture = "\n".join("  " + " ".join(row) for row in grid)
        obs = (f"A robot starts at the top-left cell of this grid and must reach the bottom-right cell, moving "
               f"only right or down and never entering a '#' cell:\n{picture}\n"
               "How many different paths are there? Reply with the number, e.g. \\boxed{57}. One attempt.")
        return obs, {"rows": rows, "columns": cols}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._done:
            return "Already answered.", 0.0, True, False, {}
        self._turn += 1
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
        raw = boxes[-1].strip() if boxes else ""
        reward, terminated = 0.0, False
        if not re.fullmatch(r"\d{1,9}", raw):
            obs = "Reply with a whole number, e.g. \\boxed{57}."
        else:
            terminated = True
            reward = 1.0 if int(raw) == self._count else 0.0
            obs = "Correct." if reward else "Incorrect."
        truncated = not terminated and self._turn >= self.max_turns
        self._done = terminated or truncated
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> int:
        return self._count

    def close(self) -> None:
        pass
