"""Higher or Lower: find a secret number by bisection (skill: efficient search).

A secret whole number lies between 1 and N. Each guess is answered with "higher", "lower" or a win.
The seed doubles as the level number: level 0 uses the range 1..100 and each further level widens the
range a little, so later levels need more careful halving. Twelve guesses are allowed.
"""

from __future__ import annotations

import random
import re
from typing import Any


class HigherOrLowerEnv:
    """Classic higher/lower guessing with a level-dependent range."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 12, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._upper = 100
        self._secret = 1
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        level = abs(int(seed)) if seed is not None else 0
        self._upper = 100 + level // 8
        self._secret = rng.randint(1, self._upper)
        self._turn, self._terminated, self._truncated = 0, False, False
        text = (f"Higher or Lower (level {level}). I picked a whole number from 1 to {self._upper}. "
                "Guess it by writing a number in a box, e.g. \\boxed{50}; I will answer higher or lower. "
                f"You have {self.max_turns} guesses.")
        return text, self._info()

    def _info(self) -> dict:
        return {"turn": self._turn, "upper": self._upper, "guesses_left": self.max_turns - self._turn}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._terminated or self._truncated:
            return "Game over.", 0.0, self._terminated, self._truncated, self._info()
        self._turn += 1
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
        value = boxes[-1].strip() if boxes else ""
        reward = 0.0
        if not re.fullmatch(r"\d{1,12}", value):
            obs = "Guess a whole number in a box, e.g. \\boxed{50}."
        else:
            guess = int(value)
            if guess == self._secret:
                self._terminated, reward = True, 1.0
                obs = f"{guess} is right!"
            elif guess < self._secret:
                obs = f"{guess}: higher."
            else:
                obs = f"{guess}: lower."
        if not self._terminated and self._turn >= self.max_turns:
            self._truncated = True
            obs += f" Out of guesses; the number was {self._secret}."
        return obs, reward, self._terminated, self._truncated, self._info()

    def solution(self) -> list[str]:
        low, high, moves = 1, self._upper, []
        while low <= high:
            mid = (low + high) // 2
            moves.append(f"\\boxed{{{mid}}}")
            if mid == self._secret:
                break
            if mid < self._secret:
                low = mid + 1
            else:
                high = mid - 1
        return moves

    def close(self) -> None:
        """Nothing to release."""
