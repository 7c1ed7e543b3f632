"""Latin Square: complete a 4x4 Latin square (skill: Constraint Satisfaction).

A 4x4 grid holds the digits 1-4 so that every row and every column contains each digit once. Eight
cells are given (from a seeded random Latin square) and eight are blank. The player fills one cell
per turn with a digit from 1 to 4 (refilling or clearing their own cells is allowed) and wins when
every cell is filled and no row or column repeats a digit. The budget of 12 turns leaves little
room for trial and error.
"""

from __future__ import annotations

import random
import re
from typing import Any

_N = 4
_BOX = re.compile(r"\\boxed\{([^{}]*)\}")
_FILL = re.compile(r"^fill\s*r\s*([0-9])\s*c\s*([0-9])\s*=\s*(-?[0-9]{1,3})$")
_CLEAR = re.compile(r"^clear\s*r\s*([0-9])\s*c\s*([0-9])$")


class LatinSquareEnv:
    """Fill the blank cells of a 4x4 Latin square."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 12, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._answer: list[list[int]] = []
        self._grid: list[list[int]] = []
        self._blanks: set[tuple[int, int]] = set()
        self._entered: set[tuple[int, int]] = set()
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Shuffle a cyclic Latin square and blank eight of its cells."""
        rng = random.Random(seed)
        rows, cols, symbols = list(range(_N)), list(range(_N)), list(range(1, _N + 1))
        rng.shuffle(rows)
        rng.shuffle(cols)
        rng.shuffle(symbols)
        self._answer = [[symbols[(rows[r] + cols[c]) % _N] for c in range(_N)] for r in range(_N)]
        cells = [(r, c) for r in range(_N) for c in range(_N)]
        self._blanks = set(rng.sample(cells, 8))
        self._grid = [[0 if (r, c) in self._blanks else self._answer[r][c] for c in range(_N)] for r in range(_N)]
        self._entered = set()
        self._turn, self._terminated, self._truncated = 0, False, False
        intro = (
            "Latin Square. Fill the 4x4 grid so that every row and every column contains each of the "
            "digits 1, 2, 3 and 4 exactly once. Blank cells are shown as '.'.\n"
            "Each turn fill one blank cell, e.g. \\boxed{fill r2c3=4} (row 2, column 3, digit 4); you may "
            "overwrite your own digits or erase one with \\boxed{clear r2c3}. Given digits cannot change.\n"
            f"Complete the square within {self.max_turns} turns to win.\n" + self._render()
        )
        return intro, self._info()

    def _render(self) -> str:
        lines = ["      c1 c2 c3 c4"]
        for r in range(_N):
            lines.append(f"  r{r + 1}  " + "  ".join(str(v) if v else "." for v in self._grid[r]))
        return "\n".join(lines)

    def _info(self) -> dict:
        return {"turn": self._turn, "max_turns": self.max_turns, "blank": len(self._blanks) - len(self._entered)}

    def _repeats(self) -> list[str]:
        """Rows and columns in which a digit occurs twice (blank cells are skipped)."""
        found = []
        for i in range(_N):
            for name, line in ((f"row {i + 1}", self._grid[i]), (f"column {i + 1}", [row[i] for row in self._grid])):
                digits = [v for v in line if v]
                if len(digits) != len(set(digits)):
                    found.append(name)
        return found

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        """Fill or clear one cell; a complete square wins, running out of turns truncates."""
        if self._terminated or self._truncated:
            return "The puzzle is over; call reset() to play again.", 0.0, self._terminated, self._truncated, self._info()
        self._turn += 1
        boxes = [b for b in _BOX.findall(action) if b.strip()] if isinstance(action, str) else []
        text = boxes[-1].strip().lower() if boxes else ""
        fill, clear = _FILL.match(text), _CLEAR.match(text)
        match = fill or clear
        cell = (int(match.group(1)) - 1, int(match.group(2)) - 1) if match else None
        if cell is None:
            obs = "Invalid move. Use \\boxed{fill rRcC=D} with a digit D from 1 to 4, or \\boxed{clear rRcC}."
        elif not (0 <= cell[0] < _N and 0 <= cell[1] < _N):
            obs = "There is no such cell; rows and columns are numbered 1 to 4."
        elif cell not in self._blanks:
            obs = f"r{cell[0] + 1}c{cell[1] + 1} is a given digit and cannot be changed."
        elif clear:
            self._grid[cell[0]][cell[1]] = 0
            self._entered.discard(cell)
            obs = f"r{cell[0] + 1}c{cell[1] + 1} cleared."
        else:
            value = int(fill.group(3))
            if not 1 <= value <= _N:
                obs = f"{value} is not allowed: use a digit from 1 to 4."
            else:
                self._grid[cell[0]][cell[1]] = value
                self._entered.add(cell)
                obs = f"r{cell[0] + 1}c{cell[1] + 1} = {value}."
                repeats = self._repeats()
                if repeats:
                    obs += " Careful: a digit repeats in " + ", ".join(repeats) + "."
                elif len(self._entered) == len(self._blanks):
                    self._terminated = True
                    return obs + " The square is complete!\n" + self._render(), 1.0, True, False, self._info()
        if self._turn >= self.max_turns:
            self._truncated = True
            obs += " Out of turns."
        else:
            obs += f" Turns left: {self.max_turns - self._turn}."
        return obs + "\n" + self._render(), 0.0, False, self._truncated, self._info()

    def solution(self) -> list[str]:
        """Fill every blank cell with the digit of the generating square (wrong entries are overwritten)."""
        return [f"\\boxed{{fill r{r + 1}c{c + 1}={self._answer[r][c]}}}" for r, c in sorted(self._blanks)
                if self._grid[r][c] != self._answer[r][c]]

    def close(self) -> None:
        """Nothing to release."""
