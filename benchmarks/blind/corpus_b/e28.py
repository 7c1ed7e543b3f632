"""Clock Arithmetic: evaluate (a * b + c) mod m.

Modular arithmetic practice with a modulus between 20 and 60; the answer is the least non-negative
residue.
"""

from __future__ import annotations

import random
import re
from typing import Any


class ClockArithmeticEnv:
    """Single modular-arithmetic question."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._a = self._b = self._c = 1
        self._m = 20
        self._turn = 0
        self._over = False

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        self._a, self._b = rng.randint(100, 9999), rng.randint(100, 9999)
        self._c, self._m = rng.randint(1, 999), rng.randint(20, 60)
        self._turn, self._over = 0, False
        obs = (f"Clock Arithmetic. Compute ({self._a} * {self._b} + {self._c}) mod {self._m}.\n"
               f"Give the least non-negative residue (0 to {self._m - 1}), e.g. \\boxed{{7}}.")
        return obs, {"modulus": self._m}

    def _answer(self) -> int:
        return (self._a * self._b + self._c) % self._m

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._over:
            return "Already graded.", 0.0, True, False, {}
        self._turn += 1
        found = re.findall(r"\\boxed\{([^{}]*)\}", action) if isinstance(action, str) else []
        numbers = re.findall(r"-?\d+", found[-1]) if found else []
        reward, terminated = 0.0, False
        if not numbers:
            obs = "Give the residue as a whole number in \\boxed{...}."
        else:
            terminated = True
            if any(int(n) == self._answer() for n in numbers):
                reward, obs = 1.0, "Correct residue."
            else:
                obs = "Wrong residue."
        truncated = not terminated and self._turn >= self.max_turns
        self._over = terminated or truncated
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> int:
        return self._answer()

    def close(self) -> None:
        pass
