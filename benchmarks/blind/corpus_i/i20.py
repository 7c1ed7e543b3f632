"""Latin Square: complete a 5x5 grid so every row and column holds 1-5 once (skill: Constraint Solving).

A random 5x5 Latin square is drawn and ten of its cells are emptied. Each turn the player writes a
value into an empty (or previously written) cell; given cells are fixed. Out-of-range rows, columns
and values are refused with an explanation. A full grid with no repeat in any row or column wins
(any valid completion counts). Ten placements are needed; the budget is fourteen.
"""

from __future__ import annotations

import random
import re
from typing import Any

_N = 5
_ROWS = "ABCDE"
_BOX = re.compile(r"\\boxed\{([^{}]*)\}")


def _move_text(action: Any) -> str:
    """The last non-empty \\boxed{...} of a reply, stripped; '' when there is none."""
    if not isinstance(action, str):
        return ""
    found = [box.strip() for box in _BOX.findall(action) if box.strip()]
    return found[-1] if found else ""


class LatinSquareEnv:
    """Fill the empty cells; rows and columns must each hold 1-5 exactly once."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 14, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._grid: list[list[int]] = []
        self._given: set[tuple[int, int]] = set()
        self._answer: list[list[int]] = []
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Shuffle rows, columns and symbols of a cyclic square, then empty ten cells."""
        rng = random.Random(seed)
        rows, cols, symbols = list(range(_N)), list(range(_N)), list(range(1, _N + 1))
        rng.shuffle(rows)
        rng.shuffle(cols)
        rng.shuffle(symbols)
        self._answer = [[symbols[(rows[r] + cols[c]) % _N] for c in range(_N)] for r in range(_N)]
        holes = set(rng.sample([(r, c) for r in range(_N) for c in range(_N)], 10))
        self._grid = [[0 if (r, c) in holes else self._answer[r][c] for c in range(_N)] for r in range(_N)]
        self._given = {(r, c) for r in range(_N) for c in range(_N) if (r, c) not in holes}
        self._turn, self._terminated, self._truncated = 0, False, False
        intro = (
            f"Latin Square. Fill the {_N}x{_N} grid so that every row and every column holds each of 1-{_N} exactly once.\n"
            f"Rows are A-E, columns 1-{_N}; '.' is an empty cell. Write a value with \\boxed{{B3 4}} (row B, column 3, "
            "value 4). Given cells cannot be changed; your own entries can be overwritten.\n"
            f"Complete a valid grid within {self.max_turns} turns to win.\n" + self._render()
        )
        return intro, self._info()

    def _render(self) -> str:
        lines = ["   " + " ".join(str(c + 1) for c in range(_N))]
        for r in range(_N):
            lines.append(f"{_ROWS[r]}  " + " ".join(str(v) if v else "." for v in self._grid[r]))
        return "\n".join(lines)

    def _valid(self) -> bool:
        full = set(range(1, _N + 1))
        return all(set(row) == full for row in self._grid) and all(
            {self._grid[r][c] for r in range(_N)} == full for c in range(_N))

    def _info(self) -> dict:
        return {"turn": self._turn, "max_turns": self.max_turns,
                "empty": sum(v == 0 for row in self._grid for v in row)}

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict]:
        """Write one value; a complete valid grid wins."""
        if self._terminated or self._truncated:
            return "The game is over; call reset() to play again.", 0.0, self._terminated, self._truncated, self._info()
        self._turn += 1
        reward = 0.0
        move = re.fullmatch(r"([A-Za-z])\s*(-?\d{1,4})\s*[ =:,]\s*(-?\d{1,4})", _move_text(action))
        if move is None:
            obs = "Invalid move. Write a row letter, a column number and a value, e.g. \\boxed{B3 4}."
        else:
            letter, col, value = move.group(1).upper(), int(move.group(2)), int(move.group(3))
            if letter not in _ROWS:
                obs = f"There is no row {letter}: rows are A to {_ROWS[-1]}."
            elif not 1 <= col <= _N:
                obs = f"There is no column {col}: columns are 1 to {_N}."
            elif not 1 <= value <= _N:
                obs = f"{value} is not allowed: values are 1 to {_N}."
            elif (_ROWS.index(letter), col - 1) in self._given:
                obs = f"{letter}{col} is a given cell and cannot be changed."
            else:
                r, c = _ROWS.index(letter), col - 1
                self._grid[r][c] = value
                clash = [f"row {letter}" for cc in range(_N) if cc != c and self._grid[r][cc] == value]
                clash += [f"column {col}" for rr in range(_N) if rr != r and self._grid[rr][c] == value]
                obs = f"{letter}{col} = {value}." + (f" Warning: {value} repeats in {' and '.join(clash)}." if clash else "")
                if self._valid():
                    self._terminated, reward = True, 1.0
                    return obs + " The square is complete and valid. You win!", reward, True, False, self._info()
        if self._turn >= self.max_turns:
            self._truncated = True
            obs += " Out of turns."
        else:
            obs += f" Turns left: {self.max_turns - self._turn}."
        return obs + "\n" + self._render(), reward, False, self._truncated, self._info()

    def solution(self) -> list[str]:
        """Write the drawn square's value into every cell that differs from it."""
        return [f"\\boxed{{{_ROWS[r]}{c + 1} {self._answer[r][c]}}}" for r in range(_N) for c in range(_N)
                if self._grid[r][c] != self._answer[r][c]]

    def close(self) -> None:
        """Nothing to release."""
