"""Lantern Grid: switch off a 3x3 grid of lanterns (skill: Logical Reasoning).

Pressing a lantern toggles it and its orthogonal neighbours (Lights Out rules). The start position is
made by pressing four to six distinct lanterns of a dark grid, so it is always solvable, and on a 3x3
grid every position has exactly one set of presses that clears it. The budget is eight presses and
the grid is shown after every move: the player has to work out which lanterns to press, since random
pressing almost never darkens the grid.
"""

from __future__ import annotations

import random
import re
from typing import Any

_N = 3
_COLS = "ABC"
_BOX = re.compile(r"\\boxed\{([^{}]*)\}")
_PRESS = re.compile(r"^(?:press\s+)?([a-c])\s*([0-9]{1,2})$")


def _toggle(lit: set[tuple[int, int]], cell: tuple[int, int]) -> None:
    r, c = cell
    for dr, dc in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)):
        nr, nc = r + dr, c + dc
        if 0 <= nr < _N and 0 <= nc < _N:
            lit ^= {(nr, nc)}


class LanternGridEnv:
    """Press lanterns until none is lit."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 8, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._lit: set[tuple[int, int]] = set()
        self._presses: list[tuple[int, int]] = []
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Press 4-6 distinct lanterns of a dark grid; pressing them again clears it."""
        rng = random.Random(seed)
        cells = [(r, c) for r in range(_N) for c in range(_N)]
        while True:
            presses = rng.sample(cells, rng.randint(4, 6))
            lit: set[tuple[int, int]] = set()
            for cell in presses:
                _toggle(lit, cell)
            if lit:
                break
        self._lit, self._presses = lit, sorted(presses)
        self._turn, self._terminated, self._truncated = 0, False, False
        intro = (
            "Lantern Grid. Lit lanterns are '*', dark ones '.'. Columns are A-C, rows 1-3.\n"
            "Pressing a lantern toggles it and the lanterns directly above, below, left and right of it. "
            "Press one lantern per turn, e.g. \\boxed{B2}.\n"
            f"Darken every lantern within {self.max_turns} presses to win.\n" + self._render()
        )
        return intro, self._info()

    def _render(self) -> str:
        lines = ["   A B C"]
        for r in range(_N):
            lines.append(f" {r + 1} " + " ".join("*" if (r, c) in self._lit else "." for c in range(_N)))
        return "\n".join(lines)

    def _info(self) -> dict:
        return {"turn": self._turn, "max_turns": self.max_turns, "lit": len(self._lit)}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        """Press one lantern; a dark grid wins, running out of presses truncates."""
        if self._terminated:
            return "The game is over; call reset() to play again.", 0.0, self._terminated, self._truncated, self._info()
        self._turn += 1
        boxes = [b for b in _BOX.findall(action) if b.strip()] if isinstance(action, str) else []
        match = _PRESS.match(boxes[-1].strip().lower()) if boxes else None
        if match is None or not 1 <= int(match.group(2)) <= _N:
            obs = "Invalid move. Name one lantern, a column A-C and a row 1-3, e.g. \\boxed{B2}."
        else:
            cell = (int(match.group(2)) - 1, _COLS.index(match.group(1).upper()))
            _toggle(self._lit, cell)
            obs = f"You press {match.group(1).upper()}{cell[0] + 1}."
            if not self._lit:
                self._terminated = True
                return obs + " Every lantern is dark!\n" + self._render(), 1.0, True, False, self._info()
        if self._turn >= self.max_turns:
            self._truncated = True
            obs += " Out of presses."
        else:
            obs += f" Presses left: {self.max_turns - self._turn}."
        return obs + "\n" + self._render(), 0.0, False, self._truncated, self._info()

    def solution(self) -> list[str]:
        """Press, once each, the lanterns whose presses made the start position."""
        return [f"\\boxed{{{_COLS[c]}{r + 1}}}" for r, c in self._presses]

    def close(self) -> None:
        """Nothing to release."""
