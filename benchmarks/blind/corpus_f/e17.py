"""HigherLowerEnv: find a secret whole number from "higher"/"lower" feedback within seven guesses.

The range's upper end varies per episode (40-63), so bisection always fits in six guesses and the
seventh is slack. Guesses are read leniently: surrounding spaces, a leading "guess" and any case are
fine. A reply that boxes two different numbers is not a guess (it uses the turn, without feedback).
"""

from __future__ import annotations

import random
import re
from typing import Any

_BOX = re.compile(r"\\boxed\{([^{}]*)\}")
_GUESS = re.compile(r"^(?:guess\s*)?(-?\d{1,6})$")


class HigherLowerEnv:
    """Bisection game with feedback."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 7, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._upper = 50
        self._secret = 1
        self._turn = 0
        self._log: list[str] = []
        self._status = (False, False)
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        rng = random.Random(seed)
        self._upper = rng.randint(40, 63)
        self._secret = rng.randint(1, self._upper)
        self._turn, self._log, self._status = 0, [], (False, False)
        text = (
            f"I picked a whole number from 1 to {self._upper}. Guess it in at most {self.max_turns} turns.\n"
            "Write one guess per reply in a box, e.g. \\boxed{17}. After a wrong guess I say whether my "
            "number is higher or lower. Box only one number per reply."
        )
        return text, {"upper": self._upper, "turns_left": self.max_turns}

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict[str, Any]]:
        if any(self._status):
            return "The game is over; call reset().", 0.0, *self._status, {"turns_left": 0}
        self._turn += 1
        guesses = []
        for content in _BOX.findall(action if isinstance(action, str) else ""):
            match = _GUESS.match(content.strip().lower())
            if match:
                guesses.append(int(match.group(1)))
        reward, terminated = 0.0, False
        if not guesses:
            obs = f"No guess found. Box one whole number from 1 to {self._upper}, e.g. \\boxed{{17}}."
        elif len(set(guesses)) > 1:
            obs = "You boxed several different numbers; box exactly one guess."
        elif not 1 <= guesses[0] <= self._upper:
            obs = f"{guesses[0]} is outside 1-{self._upper}."
        elif guesses[0] == self._secret:
            obs, reward, terminated = f"Yes, it is {self._secret}!", 1.0, True
        else:
            hint = "higher" if self._secret > guesses[0] else "lower"
            self._log.append(f"{guesses[0]}: {hint}")
            obs = f"My number is {hint} than {guesses[0]}. So far: " + "; ".join(self._log) + "."
        truncated = not terminated and self._turn >= self.max_turns
        if truncated:
            obs += f" Out of turns: it was {self._secret}."
        self._status = (terminated, truncated)
        return obs, reward, terminated, truncated, {"turns_left": self.max_turns - self._turn}

    def solution(self) -> list[str]:
        low, high, moves = 1, self._upper, []
        while True:
            guess = (low + high) // 2
            moves.append(str(guess))
            if guess == self._secret:
                return moves
            low, high = (guess + 1, high) if self._secret > guess else (low, guess - 1)

    def hint(self) -> str:
        return "Always guess the middle of the numbers still possible."

    def close(self) -> None:
        """Nothing to release."""
