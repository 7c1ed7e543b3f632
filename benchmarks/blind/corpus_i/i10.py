"""Lantern Grid: switch off a 4x4 grid of lanterns (skill: Logical Reasoning).

Pressing a lantern toggles it and its orthogonal neighbours. The grid starts from all-dark and four
to six distinct lanterns are pressed to light it, so a solution of at most six presses exists; the
budget is twelve turns. Utility commands show the presses you have made and undo the last one (each
takes a turn).
"""

from __future__ import annotations

import random
import re
from typing import Any

_SIZE = 4
_COLS = "ABCD"
_BOX = re.compile(r"\\boxed\{([^{}]*)\}")


def _move_text(action: Any) -> str:
    """The last non-empty \\boxed{...} of a reply, stripped; '' when there is none."""
    if not isinstance(action, str):
        return ""
    found = [box.strip() for box in _BOX.findall(action) if box.strip()]
    return found[-1] if found else ""


class LanternGridEnv:
    """Press lanterns until the whole grid is dark."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 12, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._lit: set[str] = set()
        self._log: list[str] = []
        self._setup: list[str] = []
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Light the grid by pressing a few distinct lanterns from the dark grid."""
        rng = random.Random(seed)
        cells = [f"{c}{r}" for r in range(1, _SIZE + 1) for c in _COLS]
        while True:
            self._lit, self._log = set(), []
            self._setup = rng.sample(cells, rng.randint(4, 6))
            for cell in self._setup:
                self._press(cell)
            if len(self._lit) >= 4:
                break
        self._turn, self._terminated, self._truncated = 0, False, False
        intro = (
            f"Lantern Grid. A {_SIZE}x{_SIZE} grid of lanterns, columns A-D and rows 1-4 ('*' lit, '.' dark).\n"
            "Pressing a lantern, e.g. \\boxed{B3}, toggles it and the lanterns directly above, below, left and right of it.\n"
            "Utility commands: \\boxed{history} lists the presses you have made, \\boxed{undo} takes back your last "
            "press. Every command takes one turn.\n"
            f"Make the whole grid dark within {self.max_turns} turns to win.\n" + self._render()
        )
        return intro, self._info()

    def _press(self, cell: str, record: bool = True) -> None:
        col, row = _COLS.index(cell[0]), int(cell[1])
        for dc, dr in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)):
            c, r = col + dc, row + dr
            if 0 <= c < _SIZE and 1 <= r <= _SIZE:
                self._lit ^= {f"{_COLS[c]}{r}"}
        if record:
            self._log.append(cell)

    def _render(self) -> str:
        lines = ["   " + " ".join(_COLS)]
        for r in range(1, _SIZE + 1):
            lines.append(f"{r}  " + " ".join("*" if f"{c}{r}" in self._lit else "." for c in _COLS))
        return "\n".join(lines)

    def _info(self) -> dict:
        return {"turn": self._turn, "max_turns": self.max_turns, "lit": len(self._lit)}

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict]:
        """Press a lantern or run a utility command; a dark grid wins."""
        if self._terminated or self._truncated:
            return "The game is over; call reset() to play again.", 0.0, self._terminated, self._truncated, self._info()
        self._turn += 1
        reward = 0.0
        text = _move_text(action).upper().replace(" ", "")
        if text == "HISTORY":
            obs = ("Your presses so far: " + ", ".join(self._log) + ".") if self._log else "You have not pressed anything yet."
        elif text == "UNDO":
            if self._log:
                cell = self._log.pop()
                self._press(cell, record=False)
                obs = f"Undone: {cell} pressed again."
            else:
                obs = "There is nothing to undo."
        elif re.fullmatch(r"[A-D][1-4]", text):
            self._press(text)
            obs = f"You press {text}."
            if not self._lit:
                self._terminated, reward = True, 1.0
                return obs + " Every lantern is dark. You win!", reward, True, False, self._info()
        else:
            obs = "Invalid command. Press a lantern such as \\boxed{B3}, or use \\boxed{history} or \\boxed{undo}."
        if self._turn >= self.max_turns:
            self._truncated = True
            obs += " Out of turns."
        else:
            obs += f" Turns left: {self.max_turns - self._turn}."
        return obs + "\n" + self._render(), reward, False, self._truncated, self._info()

    def solution(self) -> list[str]:
        """Light chasing: try each of the 16 press patterns on row 1, press under every lit lantern row by
        row, and keep the shortest pattern that leaves the grid dark."""
        best: list[str] | None = None
        for pattern in range(1 << _SIZE):
            saved = set(self._lit)
            presses = [f"{_COLS[c]}1" for c in range(_SIZE) if pattern >> c & 1]
            for cell in presses:
                self._press(cell, record=False)
            for r in range(1, _SIZE):
                for c in _COLS:
                    if f"{c}{r}" in self._lit:
                        presses.append(f"{c}{r + 1}")
                        self._press(f"{c}{r + 1}", record=False)
            if not self._lit and (best is None or len(presses) < len(best)):
                best = presses
            self._lit = saved
        return [f"\\boxed{{{cell}}}" for cell in best or []]

    def close(self) -> None:
        """Nothing to release."""
