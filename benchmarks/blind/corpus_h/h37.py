"""Sum Grid: fill a 3x3 grid to match row and column sums (skill: Arithmetic Reasoning).

Each cell takes a digit from 1 to 6; no digit may repeat within a row or within a column; every row
and every column must add up to its printed target. The targets come from a seeded random grid, so
the puzzle always has a solution. Values outside 1-6, unknown cells and malformed moves get a clear
error and change nothing. The budget of 14 turns covers nine cells plus a few corrections.
"""

from __future__ import annotations

import random
import re
from typing import Any

_N = 3
_BOX = re.compile(r"\\boxed\{([^{}]*)\}")
_SET = re.compile(r"^(?:set\s+)?(-?[0-9]{1,6})\s*,\s*(-?[0-9]{1,6})\s*=\s*(-?[0-9]{1,6})$")


class SumGridEnv:
    """Fill every cell so that each row and column meets its target sum."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 14, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._answer: list[list[int]] = []
        self._grid: list[list[int]] = []
        self._rows: list[int] = []
        self._cols: list[int] = []
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Draw a grid with distinct digits per row and column and publish its sums."""
        rng = random.Random(seed)
        while True:
            grid = [rng.sample(range(1, 7), _N) for _ in range(_N)]
            if all(len({grid[r][c] for r in range(_N)}) == _N for c in range(_N)):
                break
        self._answer = grid
        self._rows = [sum(row) for row in grid]
        self._cols = [sum(grid[r][c] for r in range(_N)) for c in range(_N)]
        self._grid = [[0] * _N for _ in range(_N)]
        self._turn, self._terminated, self._truncated = 0, False, False
        intro = (
            "Sum Grid. Fill the 3x3 grid with digits 1-6: no digit twice in a row or in a column, and each "
            "row and column must add up to its target.\n"
            f"Row targets (rows 1-3): {', '.join(map(str, self._rows))}. "
            f"Column targets (columns 1-3): {', '.join(map(str, self._cols))}.\n"
            "Each turn write one digit, e.g. \\boxed{2,3=5} puts 5 in row 2, column 3 (you may overwrite).\n"
            f"Complete a correct grid within {self.max_turns} turns to win.\n" + self._render()
        )
        return intro, self._info()

    def _render(self) -> str:
        lines = []
        for r in range(_N):
            cells = " ".join(str(v) if v else "." for v in self._grid[r])
            lines.append(f" {cells}  | {sum(self._grid[r])}/{self._rows[r]}")
        lines.append(" " + " ".join("-" for _ in range(_N)))
        lines.append(" " + "  ".join(f"{sum(self._grid[r][c] for r in range(_N))}/{self._cols[c]}" for c in range(_N)))
        return "\n".join(lines)

    def _info(self) -> dict:
        return {"turn": self._turn, "max_turns": self.max_turns}

    def _correct(self) -> bool:
        g = self._grid
        if any(v == 0 for row in g for v in row):
            return False
        rows_ok = all(len(set(g[r])) == _N and sum(g[r]) == self._rows[r] for r in range(_N))
        cols = [[g[r][c] for r in range(_N)] for c in range(_N)]
        return rows_ok and all(len(set(cols[c])) == _N and sum(cols[c]) == self._cols[c] for c in range(_N))

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        """Write one digit; a correct full grid wins, running out of turns truncates."""
        if self._terminated or self._truncated:
            return "The puzzle is over; call reset() to play again.", 0.0, self._terminated, self._truncated, self._info()
        self._turn += 1
        boxes = [b for b in _BOX.findall(action) if b.strip()] if isinstance(action, str) else []
        match = _SET.match(boxes[-1].strip().lower()) if boxes else None
        if match is None:
            obs = "Invalid move. Write \\boxed{ROW,COL=DIGIT}, e.g. \\boxed{2,3=5}."
        else:
            r, c, v = (int(g) for g in match.groups())
            if not (1 <= r <= _N and 1 <= c <= _N):
                obs = f"There is no cell {r},{c}: rows and columns run from 1 to 3."
            elif not 1 <= v <= 6:
                obs = f"{v} is out of range: digits run from 1 to 6. Nothing was written."
            else:
                self._grid[r - 1][c - 1] = v
                obs = f"Cell {r},{c} = {v}."
                if self._correct():
                    self._terminated = True
                    return obs + " Every sum matches!\n" + self._render(), 1.0, True, False, self._info()
        if self._turn >= self.max_turns:
            self._truncated = True
            obs += " Out of turns."
        else:
            obs += f" Turns left: {self.max_turns - self._turn}."
        return obs + "\n" + self._render(), 0.0, False, self._truncated, self._info()

    def solution(self) -> list[str]:
        """Write the generating grid's digits where the board differs from it."""
        return [f"\\boxed{{{r + 1},{c + 1}={self._answer[r][c]}}}" for r in range(_N) for c in range(_N)
                if self._grid[r][c] != self._answer[r][c]]

    def close(self) -> None:
        """Nothing to release."""
