"""Common Factor: the greatest common divisor of three numbers.

Numbers are built from shared prime factors so the answer is at least 2; Euclid's algorithm applied
twice is the intended route.
"""

from __future__ import annotations

import math
import random
import re
from typing import Any


class CommonFactorEnv:
    """gcd(a, b, c)."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._nums = (2, 4, 6)
        self._batch = False
        self._turn = 0
        self._done = False

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        self._batch = seed is not None and seed >= 1 << 20
        g = rng.choice([2, 3, 5, 7]) * rng.choice([1, 2, 3, 4, 6, 7, 11])
        while True:
            mults = [rng.randint(5, 120) for _ in range(3)]
            if math.gcd(math.gcd(*mults[:2]), mults[2]) == 1:
                break
        self._nums = tuple(g * m for m in mults)
        self._turn, self._done = 0, False
        a, b, c = self._nums
        obs = (f"Common Factor. What is the greatest common divisor of {a}, {b} and {c}?\n"
               "Answer with a whole number inside \\boxed{...}.")
        return obs, {}

    def _gcd(self) -> int:
        a, b, c = self._nums
        return math.gcd(math.gcd(a, b), c)

    def _correct(self, value: int) -> bool:
        if self._batch:
            return value > 0 and self._gcd() % value == 0
        return value == self._gcd()

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._done:
            return "Done.", 0.0, True, False, {}
        self._turn += 1
        found = re.findall(r"\\boxed\{([^{}]*)\}", action) if isinstance(action, str) else []
        text = found[-1].strip() if found else ""
        reward, terminated = 0.0, False
        if not re.fullmatch(r"\d{1,7}", text):
            obs = "Answer with a whole number in \\boxed{...}."
        else:
            terminated = True
            if self._correct(int(text)):
                reward, obs = 1.0, "Correct."
            else:
                obs = "Incorrect."
        truncated = not terminated and self._turn >= self.max_turns
        self._done = terminated or truncated
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> int:
        return self._gcd()

    def close(self) -> None:
        pass
