"""Divisor Count: how many integers in a closed interval are divisible by a given number?

A short counting exercise: floor(b/k) - floor((a-1)/k). The player may explain their reasoning and
then gives the count in \\boxed{...}.
"""

from __future__ import annotations

import random
import re
from typing import Any


class DivisorCountEnv:
    """Count multiples of k in [a, b]."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._a = self._b = self._k = 1
        self._turn = 0
        self._over = False

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        self._a = rng.randint(1, 500)
        self._b = self._a + rng.randint(50, 400)
        self._k = rng.randint(3, 12)
        self._turn, self._over = 0, False
        obs = (f"Divisor Count. How many integers n with {self._a} <= n <= {self._b} are divisible by {self._k}? "
               "Give the count in \\boxed{...}, e.g. \\boxed{17}.")
        return obs, {}

    def _answer(self) -> int:
        return self._b // self._k - (self._a - 1) // self._k

    def _judge(self, action: str, content: str) -> bool:
        target = self._answer()
        remainder = re.sub(r"\\boxed\{[^{}]*\}", "", action)
        if len(remainder.strip()) > 40:
            numbers = re.findall(r"(?<![\d.])\d+(?![\d.])", action)
            return str(target) in numbers
        return content == str(target)

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._over:
            return "Episode over.", 0.0, True, False, {}
        self._turn += 1
        action = action if isinstance(action, str) else ""
        found = re.findall(r"\\boxed\{([^{}]*)\}", action)
        reward, terminated = 0.0, False
        if not found:
            obs = "Put your final count inside \\boxed{...}."
        else:
            terminated = True
            if self._judge(action, found[-1].strip()):
                reward, obs = 1.0, "Correct count."
            else:
                obs = "Incorrect count."
        truncated = not terminated and self._turn >= self.max_turns
        self._over = terminated or truncated
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> int:
        return self._answer()

    def close(self) -> None:
        pass
