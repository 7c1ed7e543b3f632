"""High-Low: find a secret number from 1 to N (60-120, drawn per episode) with higher/lower answers (skill: Binary Search).

Each guess is answered "higher", "lower" or "correct". Repeating an old guess simply repeats its
answer. A documented status command prints the range of numbers still possible given the answers so
far (public information the player could work out alone) and the turns left. Every reply uses one of
the eight turns, and binary search needs at most seven guesses.
"""

from __future__ import annotations

import random
import re
from typing import Any

_LOW = 1
_BOX = re.compile(r"\\boxed\{([^{}]*)\}")
_GUESS = re.compile(r"^(?:guess\s+)?(-?[0-9]{1,9})$")


class HighLowEnv:
    """Guess the secret number."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 8, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._secret = _LOW
        self._high = 100
        self._lo, self._hi = _LOW, 100
        self._answers: dict[int, str] = {}
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Draw the secret number."""
        rng = random.Random(seed)
        self._high = rng.randint(60, 120)
        self._secret = rng.randint(_LOW, self._high)
        self._lo, self._hi = _LOW, self._high
        self._answers = {}
        self._turn, self._terminated, self._truncated = 0, False, False
        intro = (
            f"High-Low. I am thinking of a whole number from {_LOW} to {self._high}.\n"
            "Each turn guess it, e.g. \\boxed{guess 50} or just \\boxed{50}; I answer higher, lower or correct. "
            "\\boxed{status} shows the range still possible and the turns left (it also uses a turn).\n"
            f"Find the number within {self.max_turns} turns to win."
        )
        return intro, self._info()

    def _info(self) -> dict:
        return {"turn": self._turn, "max_turns": self.max_turns}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        """Answer a guess or a status request; the right number wins."""
        if self._terminated or self._truncated:
            return "The game is over; call reset() to play again.", 0.0, self._terminated, self._truncated, self._info()
        self._turn += 1
        boxes = [b for b in _BOX.findall(action) if b.strip()] if isinstance(action, str) else []
        text = boxes[-1].strip().lower() if boxes else ""
        match = _GUESS.match(text)
        if text == "status":
            obs = f"Still possible: {self._lo} to {self._hi}."
        elif match is None:
            obs = "Invalid move. Write \\boxed{guess N} with a whole number N in the range, or \\boxed{status}."
        else:
            guess = int(match.group(1))
            if not _LOW <= guess <= self._high:
                obs = f"{guess} is outside {_LOW}-{self._high}; guess a number in that range."
            elif guess == self._secret:
                self._terminated = True
                return f"{guess} is correct!", 1.0, True, False, self._info()
            elif guess in self._answers:
                obs = f"You already guessed {guess}: the number is {self._answers[guess]} than {guess}."
            else:
                direction = "higher" if self._secret > guess else "lower"
                self._answers[guess] = direction
                if direction == "higher":
                    self._lo = max(self._lo, guess + 1)
                else:
                    self._hi = min(self._hi, guess - 1)
                obs = f"{guess}: the number is {direction}."
        if self._turn >= self.max_turns:
            self._truncated = True
            obs += " Out of turns."
        else:
            obs += f" Turns left: {self.max_turns - self._turn}."
        return obs, 0.0, False, self._truncated, self._info()

    def solution(self) -> list[str]:
        """Binary search over the range still possible."""
        lo, hi, moves = self._lo, self._hi, []
        while True:
            mid = (lo + hi) // 2
            moves.append(f"\\boxed{{guess {mid}}}")
            if mid == self._secret:
                return moves
            lo, hi = (mid + 1, hi) if self._secret > mid else (lo, mid - 1)

    def close(self) -> None:
        """Nothing to release."""
