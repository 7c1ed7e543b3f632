"""Sum Grid: fill a 3x3 grid so that every row and column hits its total (skill: Arithmetic).

A hidden grid of digits 1-9 fixes the three row totals and three column totals, which are shown.
The player writes a digit 1-9 into a cell each turn (cells A1-C3: letter = column, number = row) and
may overwrite earlier entries. The grid is complete when all nine cells hold digits and every total
matches; any grid that does so wins, not only the hidden one.
"""

from __future__ import annotations

import random
import re
from typing import Any

_COLS = "ABC"


class SumGridEnv:
    """Write digits into cells until all row and column totals match."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 14, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._hidden: list[list[int]] = []
        self._cells: list[list[int | None]] = []
        self._rows: list[int] = []
        self._cols: list[int] = []
        self._turn = 0
        self._closed = False
        self._won = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Draw a hidden grid whose totals stay between 6 and 18."""
        rng = random.Random(seed)
        while True:
            grid = [[rng.randint(1, 9) for _ in range(3)] for _ in range(3)]
            rows = [sum(r) for r in grid]
            cols = [sum(grid[r][c] for r in range(3)) for c in range(3)]
            if all(6 <= t <= 18 for t in rows + cols):
                break
        self._hidden, self._rows, self._cols = grid, rows, cols
        self._cells = [[None] * 3 for _ in range(3)]
        self._turn, self._closed, self._won = 0, False, False
        text = (
            "Sum Grid. Fill the 3x3 grid with digits 1-9 (repeats allowed) so that the totals match.\n"
            f"Row totals (rows 1, 2, 3): {rows[0]}, {rows[1]}, {rows[2]}.\n"
            f"Column totals (columns A, B, C): {cols[0]}, {cols[1]}, {cols[2]}.\n"
            "Write one cell per turn as cell and digit, e.g. \\boxed{B2 7}; a cell may be overwritten.\n"
            f"You have {self.max_turns} turns.\n" + self._show()
        )
        return text, self._info()

    def _show(self) -> str:
        lines = ["    A  B  C"]
        for r in range(3):
            cells = " ".join(f"{v:>2}" if v is not None else " ." for v in self._cells[r])
            lines.append(f"{r + 1}  {cells}   = {self._rows[r]}")
        lines.append("    " + " ".join(f"{t:>2}" for t in self._cols))
        return "\n".join(lines)

    def _info(self) -> dict:
        return {"turn": self._turn, "filled": sum(v is not None for row in self._cells for v in row)}

    def _complete(self) -> bool:
        if any(v is None for row in self._cells for v in row):
            return False
        return ([sum(r) for r in self._cells] == self._rows
                and [sum(self._cells[r][c] for r in range(3)) for c in range(3)] == self._cols)

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict]:
        """Write one digit; a complete, matching grid wins."""
        if self._closed:
            return "This grid is closed. reset() deals a new one.", 0.0, self._won, not self._won, self._info()
        self._turn += 1
        found = [b for b in re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "") if b.strip()]
        m = re.fullmatch(r"([A-Ca-c])\s*([1-3])\s*[:=,]?\s*(-?\d{1,3})", found[-1].strip()) if found else None
        if not m:
            obs = "Write a cell (A1-C3) and a digit, e.g. \\boxed{C1 4}."
        else:
            c, r, value = _COLS.index(m.group(1).upper()), int(m.group(2)) - 1, int(m.group(3))
            if not 1 <= value <= 9:
                obs = "Only the digits 1 to 9 may be written."
            else:
                self._cells[r][c] = value
                obs = f"{m.group(1).upper()}{r + 1} = {value}."
                if self._complete():
                    self._closed, self._won = True, True
                    return obs + " Every total matches!\n" + self._show(), 1.0, True, False, self._info()
        if self._turn >= self.max_turns:
            self._closed = True
            return obs + " Out of turns.\n" + self._show(), 0.0, False, True, self._info()
        return f"{obs} Turns left: {self.max_turns - self._turn}.\n{self._show()}", 0.0, False, False, self._info()

    def solution(self) -> list[str]:
        """Write the hidden grid cell by cell."""
        return [f"\\boxed{{{_COLS[c]}{r + 1} {self._hidden[r][c]}}}" for r in range(3) for c in range(3)]

    def close(self) -> None:
        """Nothing to release."""
