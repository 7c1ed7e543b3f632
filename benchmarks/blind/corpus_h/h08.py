"""Queen's Court: complete an n-queens arrangement around one fixed queen (skill: Constraint Search).

The board is 7x7 or 8x8 and one queen is already placed (taken from a real solution, so the
board can always be completed). The player places the remaining queens one per turn on squares that
no queen on the board attacks (same row, same column or same diagonal) and may remove their own
queens to back out of a dead end. Greedy placement usually paints itself into a corner, so the
player has to look ahead.
"""

from __future__ import annotations

import random
import re
from typing import Any

_BOX = re.compile(r"\\boxed\{([^{}]*)\}")
_PLACE = re.compile(r"^(?:place\s+)?(?:q(?:ueen)?\s+)?(?:at\s+)?([0-9]{1,2})\s*,\s*([0-9]{1,2})$")
_REMOVE = re.compile(r"^remove\s+(?:q(?:ueen)?\s+)?(?:at\s+|from\s+)?([0-9]{1,2})\s*,\s*([0-9]{1,2})$")


def _solutions(n: int) -> list[tuple[int, ...]]:
    """Every n-queens solution as a tuple: entry r is the column of the queen in row r."""
    found: list[tuple[int, ...]] = []

    def extend(cols: tuple[int, ...]) -> None:
        row = len(cols)
        if row == n:
            found.append(cols)
            return
        for col in range(n):
            if all(col != c and abs(col - c) != row - r for r, c in enumerate(cols)):
                extend(cols + (col,))

    extend(())
    return found


def _attacks(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Whether queens on squares a and b attack each other."""
    (r1, c1), (r2, c2) = a, b
    return r1 == r2 or c1 == c2 or r1 - r2 == c1 - c2


class QueensCourtEnv:
    """Place queens one at a time until n mutually safe queens stand on the board."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 14, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._n = 6
        self._given = (0, 0)
        self._queens: list[tuple[int, int]] = []
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Pick the board size and one queen of a random solution as the fixed queen."""
        rng = random.Random(seed)
        self._n = rng.choice((7, 8))
        full = rng.choice(_solutions(self._n))
        row = rng.randrange(self._n)
        self._given = (row, full[row])
        self._queens = [self._given]
        self._turn, self._terminated, self._truncated = 0, False, False
        n = self._n
        intro = (
            f"Queen's Court. Place {n} queens on the {n}x{n} board so that no two attack each other "
            "(same row, same column or same diagonal). One queen (marked G) is fixed.\n"
            "Each turn either place a queen on a square no queen attacks, e.g. \\boxed{place Q at 3,1} "
            "(row 3, column 1; rows and columns count from 1 at the top left), or take back one of your "
            "own queens with \\boxed{remove 3,1}.\n"
            f"Stand {n} queens on the board within {self.max_turns} turns to win.\n" + self._render()
        )
        return intro, self._info()

    def _render(self) -> str:
        n = self._n
        lines = ["    " + " ".join(str(c + 1) for c in range(n))]
        for r in range(n):
            cells = ["G" if (r, c) == self._given else "Q" if (r, c) in self._queens else "." for c in range(n)]
            lines.append(f" {r + 1:>2} " + " ".join(cells))
        return "\n".join(lines)

    def _info(self) -> dict:
        return {"turn": self._turn, "max_turns": self.max_turns, "queens": len(self._queens), "size": self._n}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        """Place or remove one queen; n safe queens win, running out of turns truncates."""
        if self._terminated or self._truncated:
            return "The game is over; call reset() to play again.", 0.0, self._terminated, self._truncated, self._info()
        self._turn += 1
        boxes = [b for b in _BOX.findall(action) if b.strip()] if isinstance(action, str) else []
        text = boxes[-1].strip().lower() if boxes else ""
        place, remove = _PLACE.match(text), _REMOVE.match(text)
        match = place or remove
        square = (int(match.group(1)) - 1, int(match.group(2)) - 1) if match else None
        if square is None:
            obs = "Invalid move. Use \\boxed{place Q at ROW,COL} or \\boxed{remove ROW,COL}."
        elif not (0 <= square[0] < self._n and 0 <= square[1] < self._n):
            obs = f"There is no square {square[0] + 1},{square[1] + 1} on a {self._n}x{self._n} board."
        elif remove:
            if square == self._given:
                obs = "The fixed queen G cannot be removed."
            elif square not in self._queens:
                obs = f"There is no queen on {square[0] + 1},{square[1] + 1}."
            else:
                self._queens.remove(square)
                obs = f"Queen removed from {square[0] + 1},{square[1] + 1}."
        elif square in self._queens:
            obs = f"A queen already stands on {square[0] + 1},{square[1] + 1}."
        else:
            attacker = next((q for q in self._queens if _attacks(q, square)), None)
            if attacker is not None:
                obs = (f"The queen on {attacker[0] + 1},{attacker[1] + 1} attacks {square[0] + 1},{square[1] + 1}; "
                       "choose a safe square.")
            else:
                self._queens.append(square)
                obs = f"Queen placed on {square[0] + 1},{square[1] + 1}."
                if len(self._queens) == self._n:
                    self._terminated = True
                    return obs + " The court is complete!\n" + self._render(), 1.0, True, False, self._info()
        if self._turn >= self.max_turns:
            self._truncated = True
            obs += " Out of turns."
        else:
            obs += f" Queens: {len(self._queens)}/{self._n}. Turns left: {self.max_turns - self._turn}."
        return obs + "\n" + self._render(), 0.0, False, self._truncated, self._info()

    def solution(self) -> list[str]:
        """Remove the player's queens, then place a full solution that keeps the fixed queen."""
        row, col = self._given
        full = next(s for s in _solutions(self._n) if s[row] == col)
        moves = [f"\\boxed{{remove {r + 1},{c + 1}}}" for r, c in self._queens if (r, c) != self._given]
        moves += [f"\\boxed{{place Q at {r + 1},{c + 1}}}" for r, c in enumerate(full) if r != row]
        return moves

    def close(self) -> None:
        """Nothing to release."""
