"""Either Or: count the integers from 1 to N divisible by a or by b.

Inclusion-exclusion: floor(N/a) + floor(N/b) - floor(N/lcm(a, b)). A hint is available that gives a
sanity check on the size of the answer.
"""

from __future__ import annotations

import math
import random
import re
from typing import Any


class EitherOrEnv:
    """Inclusion-exclusion counting."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._n, self._a, self._b = 100, 3, 5
        self._turn = 0
        self._done = False

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        self._n = rng.randint(200, 5000)
        self._a, self._b = rng.sample([4, 6, 7, 9, 10, 12, 14, 15, 21], 2)
        self._turn, self._done = 0, False
        obs = (f"Either Or. How many integers from 1 to {self._n} are divisible by {self._a} or by {self._b} "
               "(or both)? Answer like \\boxed{123}.")
        return obs, {}

    def _answer(self) -> int:
        lcm = self._a * self._b // math.gcd(self._a, self._b)
        return self._n // self._a + self._n // self._b - self._n // lcm

    def hint(self) -> str:
        value = self._answer()
        low = value - value % 11
        return (f"Sanity check: the count lies between {low} and {low + 10}, and it leaves remainder "
                f"{value % 11} when divided by 11.")

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._done:
            return "Answered.", 0.0, True, False, {}
        self._turn += 1
        found = re.findall(r"\\boxed\{([^{}]*)\}", action) if isinstance(action, str) else []
        text = found[-1].strip() if found else ""
        reward, terminated = 0.0, False
        if not re.fullmatch(r"\d{1,6}", text):
            obs = "Answer with a whole number in \\boxed{...}."
        else:
            terminated = True
            reward = 1.0 if int(text) == self._answer() else 0.0
            obs = "Correct." if reward else "Incorrect."
        truncated = not terminated and self._turn >= self.max_turns
        self._done = terminated or truncated
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> int:
        return self._answer()

    def close(self) -> None:
        pass
