"""Island Count: count the separate landmasses on a small map (skill: spatial reasoning).

The map is a grid of '#' (land) and '.' (water). Two land cells belong to the same island when they
touch horizontally or vertically; cells that only touch at a corner are different islands. The player
reports how many islands there are, e.g. \\boxed{4}. Each episode is one answer: a wrong count ends the
episode, and a reply without a readable count costs a turn.
"""

from __future__ import annotations

import random
import re
from collections import deque
from typing import Any


def _count_islands(grid: list[str]) -> int:
    rows, cols = len(grid), len(grid[0])
    seen: set[tuple[int, int]] = set()
    islands = 0
    for r in range(rows):
        for c in range(cols):
            if grid[r][c] != "#" or (r, c) in seen:
                continue
            islands += 1
            queue = deque([(r, c)])
            seen.add((r, c))
            while queue:
                y, x = queue.popleft()
                for dy, dx in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                    ny, nx = y + dy, x + dx
                    if 0 <= ny < rows and 0 <= nx < cols and grid[ny][nx] == "#" and (ny, nx) not in seen:
                        seen.add((ny, nx))
                        queue.append((ny, nx))
    return islands


class IslandCountEnv:
    """Count 4-connected islands of '#' on a seeded map."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._grid: list[str] = []
        self._answer = 0
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        rows, cols = rng.randint(6, 9), rng.randint(7, 11)
        density = rng.uniform(0.3, 0.45)
        grid = ["".join("#" if rng.random() < density else "." for _ in range(cols)) for _ in range(rows)]
        if "#" not in "".join(grid):
            grid[0] = "#" + grid[0][1:]
        self._grid = grid
        self._answer = _count_islands(grid)
        self._turn, self._terminated, self._truncated = 0, False, False
        text = (
            "Island Count. Here is a map ('#' = land, '.' = water):\n\n"
            + "\n".join(grid)
            + "\n\nLand cells that share an edge (up, down, left, right) form one island; diagonal contact "
            "does not connect them. How many islands are on the map? Answer with the count in a box, "
            "e.g. \\boxed{3}."
        )
        return text, self._info()

    def _info(self) -> dict:
        return {"turn": self._turn, "max_turns": self.max_turns,
                "rows": len(self._grid), "cols": len(self._grid[0]) if self._grid else 0}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._terminated or self._truncated:
            return "The episode has ended; call reset() to play again.", 0.0, self._terminated, self._truncated, self._info()
        self._turn += 1
        text = action if isinstance(action, str) else ""
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", text)
        numbers = re.findall(r"-?\d{1,6}", boxes[-1]) if boxes else []
        reward = 0.0
        if not numbers:
            obs = "I could not find a count. Reply with the number of islands in a box, e.g. \\boxed{3}."
        else:
            self._terminated = True
            if any(int(n) == self._answer for n in numbers):
                reward = 1.0
                obs = f"Correct: the map has {self._answer} islands."
            else:
                obs = f"Not right: the map has {self._answer} islands."
        if not self._terminated and self._turn >= self.max_turns:
            self._truncated = True
            obs += " No turns left."
        return obs, reward, self._terminated, self._truncated, self._info()

    def solution(self) -> str:
        return str(self._answer)

    def close(self) -> None:
        """Nothing to release."""
