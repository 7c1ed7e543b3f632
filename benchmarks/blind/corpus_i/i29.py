"""Sonar Sweep: locate a submarine on a 10x10 chart from range readings (skill: Deduction).

The chart has columns A-J and rows 1-10 and hides one submarine. Each ping names a square and
returns the submarine's distance in steps along rows and columns; pinging the submarine's own square
is a hit. Three islands are marked on the chart and the submarine is never under one. Two pings in opposite corners of a row fix the position, so a careful player needs three
pings; the budget is six. A bare column letter pings that column in the row of the previous ping.
"""

from __future__ import annotations

import random
import re
from typing import Any

_SIZE = 10
_LETTERS = "ABCDEFGHIJ"
_BOX = re.compile(r"\\boxed\{([^{}]*)\}")


def _move_text(action: Any) -> str:
    """The last non-empty \\boxed{...} of a reply, stripped; '' when there is none."""
    if not isinstance(action, str):
        return ""
    found = [box.strip() for box in _BOX.findall(action) if box.strip()]
    return found[-1] if found else ""


class SonarSweepEnv:
    """Ping squares until one of them is the submarine's."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 6, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._sub = (0, 0)
        self._islands: list[tuple[int, int]] = []
        self._pings: list[tuple[int, int]] = []
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Hide the submarine."""
        rng = random.Random(seed)
        cells = [(c, r) for c in range(_SIZE) for r in range(_SIZE)]
        self._islands = sorted(rng.sample(cells, 3))
        self._sub = rng.choice([cell for cell in cells if cell not in self._islands])
        self._pings = []
        self._turn, self._terminated, self._truncated = 0, False, False
        intro = (
            f"Sonar Sweep. A submarine hides on a {_SIZE}x{_SIZE} chart: columns A-J, rows 1-10. Islands at "
            + ", ".join(f"{_LETTERS[c]}{r + 1}" for c, r in self._islands) + " (the submarine is never under an island).\n"
            "Each turn ping one square, e.g. \\boxed{D7}. Sonar reports how many steps (along rows and columns) "
            "the submarine is from that square; pinging its own square is a hit.\n"
            "Shortcut: a bare column letter, e.g. \\boxed{H}, pings that column in the row of your previous ping.\n"
            f"Hit the submarine within {self.max_turns} pings to win."
        )
        return intro, self._info()

    def _info(self) -> dict:
        return {"turn": self._turn, "max_turns": self.max_turns, "pings": len(self._pings)}

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict]:
        """Ping one square; a hit wins."""
        if self._terminated or self._truncated:
            return "The game is over; call reset() to play again.", 0.0, self._terminated, self._truncated, self._info()
        self._turn += 1
        reward = 0.0
        ping = re.fullmatch(r"([A-Ja-j])\s*(\d{1,2})?", _move_text(action))
        cell = None
        if ping is None or (ping.group(2) is not None and not 1 <= int(ping.group(2)) <= _SIZE):
            obs = "Invalid ping. Write a column A-J and a row 1-10, e.g. \\boxed{D7}, or a bare column letter."
        elif ping.group(2) is None:
            last = self._pings[-1] if self._pings else self._sub
            if last is None:
                obs = "There is no previous ping yet: give a full square such as \\boxed{D7}."
            else:
                cell = (_LETTERS.index(ping.group(1).upper()), last[1])
        else:
            cell = (_LETTERS.index(ping.group(1).upper()), int(ping.group(2)) - 1)
        if cell is not None:
            name = f"{_LETTERS[cell[0]]}{cell[1] + 1}"
            if cell == self._sub:
                self._terminated, reward = True, 1.0
                return f"Ping {name}: direct hit! Submarine found. You win!", reward, True, False, self._info()
            self._pings.append(cell)
            away = abs(cell[0] - self._sub[0]) + abs(cell[1] - self._sub[1])
            obs = f"Ping {name}: the submarine is {away} steps away."
        if self._turn >= self.max_turns:
            self._truncated = True
            obs += " Out of pings."
        else:
            obs += f" Pings left: {self.max_turns - self._turn}."
        return obs, reward, False, self._truncated, self._info()

    def solution(self) -> list[str]:
        """Ping the submarine's square."""
        return [f"\\boxed{{{_LETTERS[self._sub[0]]}{self._sub[1] + 1}}}"]

    def close(self) -> None:
        """Nothing to release."""
