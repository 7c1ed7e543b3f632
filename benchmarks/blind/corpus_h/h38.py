"""Lamp Row: light a row of seven lamps with neighbour-toggling switches (skill: Logical Reasoning).

Seven lamps stand in a row, each with a switch. Flipping switch i toggles lamp i and its neighbours
i-1 and i+1 (the end switches toggle two lamps). The row starts from an all-lit row with three to
five distinct switches flipped, so it is always solvable, and for seven lamps the set of switches that
lights the row is unique. Flipping the same switch twice restores the row exactly, as the rules say;
the row is printed after every move. Seven flips are allowed.
"""

from __future__ import annotations

import random
import re
from typing import Any

_N = 7
_BOX = re.compile(r"\\boxed\{([^{}]*)\}")
_FLIP = re.compile(r"^(?:flip|press|switch)?\s*([0-9]{1,3})$")


def _flip(lamps: list[bool], i: int) -> None:
    for j in (i - 1, i, i + 1):
        if 0 <= j < _N:
            lamps[j] = not lamps[j]


class LampRowEnv:
    """Flip switches until all seven lamps are lit."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 7, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._lamps: list[bool] = [True] * _N
        self._flips: list[int] = []
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Flip 3-5 distinct switches of an all-lit row."""
        rng = random.Random(seed)
        while True:
            flips = sorted(rng.sample(range(_N), rng.randint(3, 5)))
            lamps = [True] * _N
            for i in flips:
                _flip(lamps, i)
            if not all(lamps):
                break
        self._lamps, self._flips = lamps, flips
        self._turn, self._terminated, self._truncated = 0, False, False
        intro = (
            "Lamp Row. Seven lamps, numbered 1-7, stand in a row: '*' is lit, '.' is dark.\n"
            "Flipping switch i toggles lamp i and its neighbours i-1 and i+1. Flip one switch per turn, "
            "e.g. \\boxed{flip 4}. Flipping the same switch twice undoes it.\n"
            f"Light all seven lamps within {self.max_turns} flips to win.\n" + self._render()
        )
        return intro, self._info()

    def _render(self) -> str:
        return "Lamps 1-7: " + " ".join("*" if on else "." for on in self._lamps)

    def _info(self) -> dict:
        return {"turn": self._turn, "max_turns": self.max_turns, "lit": sum(self._lamps)}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        """Flip one switch; a fully lit row wins, running out of flips truncates."""
        if self._terminated or self._truncated:
            return "The game is over; call reset() to play again.", 0.0, self._terminated, self._truncated, self._info()
        self._turn += 1
        boxes = [b for b in _BOX.findall(action) if b.strip()] if isinstance(action, str) else []
        match = _FLIP.match(boxes[-1].strip().lower()) if boxes else None
        if match is None:
            obs = "Invalid move. Write \\boxed{flip N} with a switch number from 1 to 7."
        elif not 1 <= int(match.group(1)) <= _N:
            obs = f"There is no switch {int(match.group(1))}; switches are numbered 1 to 7."
        else:
            i = int(match.group(1))
            _flip(self._lamps, i - 1)
            obs = f"You flip switch {i}."
            if all(self._lamps):
                self._terminated = True
                return obs + " Every lamp is lit!\n" + self._render(), 1.0, True, False, self._info()
        if self._turn >= self.max_turns:
            self._truncated = True
            obs += " Out of flips."
        else:
            obs += f" Flips left: {self.max_turns - self._turn}."
        return obs + "\n" + self._render(), 0.0, False, self._truncated, self._info()

    def solution(self) -> list[str]:
        """Flip again each switch that made the start position."""
        return [f"\\boxed{{flip {i + 1}}}" for i in self._flips]

    def close(self) -> None:
        """Nothing to release."""
