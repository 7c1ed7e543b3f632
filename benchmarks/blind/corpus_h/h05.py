"""Mini Sudoku: solve a 4x4 sudoku cell by cell (skill: Constraint Satisfaction).

The grid has four rows, four columns and four 2x2 boxes; every row, column and box must hold the
digits 1-4 once each. Eight cells are given, taken from a seeded shuffle of a valid grid, and eight
are blank. The player writes one digit per turn (their own digits may be overwritten or erased) and
wins when the grid is full and breaks no rule. The budget of 20 turns allows some correction but not
blind enumeration.
"""

from __future__ import annotations

import random
import re
from typing import Any

_BASE = ((1, 2, 3, 4), (3, 4, 1, 2), (2, 1, 4, 3), (4, 3, 2, 1))
_BOX = re.compile(r"\\boxed\{([^{}]*)\}")
_PUT = re.compile(r"^put(?:\s+(-?[0-9]{1,3}))?\s+(?:in|at)\s+r\s*([0-9])\s*c\s*([0-9])$")
_ERASE = re.compile(r"^erase\s+r\s*([0-9])\s*c\s*([0-9])$")


def _valid(grid: list[list[int]]) -> bool:
    """Full grid with every row, column and 2x2 box holding 1-4 once each."""
    groups = [list(row) for row in grid] + [[grid[r][c] for r in range(4)] for c in range(4)]
    groups += [[grid[r][c] for r in (br, br + 1) for c in (bc, bc + 1)] for br in (0, 2) for bc in (0, 2)]
    return all(sorted(g) == [1, 2, 3, 4] for g in groups)


class MiniSudokuEnv:
    """Fill the blank cells of a 4x4 sudoku."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 20, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._solution: list[list[int]] = []
        self._grid: list[list[int]] = []
        self._blank: set[tuple[int, int]] = set()
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Shuffle digits, rows within bands, bands, columns within stacks and stacks of a valid grid."""
        rng = random.Random(seed)
        digits = [1, 2, 3, 4]
        rng.shuffle(digits)
        bands = [[0, 1], [2, 3]]
        rng.shuffle(bands)
        rows = [r for band in bands for r in rng.sample(band, 2)]
        stacks = [[0, 1], [2, 3]]
        rng.shuffle(stacks)
        cols = [c for stack in stacks for c in rng.sample(stack, 2)]
        grid = [[digits[_BASE[r][c] - 1] for c in cols] for r in rows]
        if rng.random() < 0.5:
            grid = [list(col) for col in zip(*grid)]
        self._solution = grid
        self._blank = set(rng.sample([(r, c) for r in range(4) for c in range(4)], 8))
        self._grid = [[0 if (r, c) in self._blank else grid[r][c] for c in range(4)] for r in range(4)]
        self._turn, self._terminated, self._truncated = 0, False, False
        intro = (
            "Mini Sudoku. Fill the 4x4 grid so that every row, every column and every 2x2 box holds the "
            "digits 1, 2, 3 and 4 once each. Blank cells are shown as '.'.\n"
            "Each turn write one digit into a blank cell, e.g. \\boxed{put 3 in r2c4} (digit 3, row 2, "
            "column 4). You may overwrite your own digits or remove one with \\boxed{erase r2c4}.\n"
            f"Complete the grid within {self.max_turns} turns to win.\n" + self._render()
        )
        return intro, self._info()

    def _render(self) -> str:
        lines = ["      c1 c2   c3 c4"]
        for r in range(4):
            cells = [str(v) if v else "." for v in self._grid[r]]
            lines.append(f"  r{r + 1}   {cells[0]}  {cells[1]}  |  {cells[2]}  {cells[3]}")
            if r == 1:
                lines.append("       ------+------")
        return "\n".join(lines)

    def _info(self) -> dict:
        return {"turn": self._turn, "max_turns": self.max_turns,
                "blank": sum(1 for r, c in self._blank if not self._grid[r][c])}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        """Write or erase one digit; a full valid grid wins, running out of turns truncates."""
        if self._terminated or self._truncated:
            return "The puzzle is over; call reset() to play again.", 0.0, self._terminated, self._truncated, self._info()
        self._turn += 1
        boxes = [b for b in _BOX.findall(action) if b.strip()] if isinstance(action, str) else []
        text = " ".join(boxes[-1].lower().split()) if boxes else ""
        put, erase = _PUT.match(text), _ERASE.match(text)
        match = put or erase
        if match is None:
            obs = "Invalid move. Write \\boxed{put D in rRcC} (digit D from 1 to 4) or \\boxed{erase rRcC}."
        else:
            r, c = int(match.group(len(match.groups()) - 1)) - 1, int(match.group(len(match.groups()))) - 1
            if not (0 <= r < 4 and 0 <= c < 4):
                obs = "There is no such cell; rows and columns are numbered 1 to 4."
            elif (r, c) not in self._blank:
                obs = f"r{r + 1}c{c + 1} is a given digit and cannot be changed."
            elif erase:
                self._grid[r][c] = 0
                obs = f"r{r + 1}c{c + 1} erased."
            elif put.group(1) is None:
                example = (r + 2 * c) % 4 + 1
                obs = (f"Which digit? A move names a digit and a cell, e.g. "
                       f"\\boxed{{put {example} in r{r + 1}c{c + 1}}}.")
            elif not 1 <= int(put.group(1)) <= 4:
                obs = f"{int(put.group(1))} is not a sudoku digit here: use 1 to 4."
            else:
                self._grid[r][c] = int(put.group(1))
                obs = f"r{r + 1}c{c + 1} = {self._grid[r][c]}."
                if all(all(row) for row in self._grid):
                    if _valid(self._grid):
                        self._terminated = True
                        return obs + " Solved!\n" + self._render(), 1.0, True, False, self._info()
                    obs += " The grid is full but breaks a rule somewhere."
        if self._turn >= self.max_turns:
            self._truncated = True
            obs += " Out of turns."
        else:
            obs += f" Turns left: {self.max_turns - self._turn}."
        return obs + "\n" + self._render(), 0.0, False, self._truncated, self._info()

    def solution(self) -> list[str]:
        """Write the generating grid's digit into every blank cell that does not hold it yet."""
        return [f"\\boxed{{put {self._solution[r][c]} in r{r + 1}c{c + 1}}}" for r, c in sorted(self._blank)
                if self._grid[r][c] != self._solution[r][c]]

    def close(self) -> None:
        """Nothing to release."""
