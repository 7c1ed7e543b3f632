"""Modular Inverse: solve a * x = 1 (mod m) (skill: number theory).

The modulus m is a prime between 101 and 997 and a is between 2 and m - 2, so the inverse exists and is
unique in 1..m-1. The player reports x, e.g. \\boxed{58}. A hint names a method that works (the
extended Euclidean algorithm) without doing any of the computation for this instance.
"""

from __future__ import annotations

import random
import re
from typing import Any


def _is_prime(n: int) -> bool:
    return n > 1 and all(n % d for d in range(2, int(n ** 0.5) + 1))


_PRIMES = [p for p in range(101, 998) if _is_prime(p)]


class ModularInverseEnv:
    """Find the multiplicative inverse of a modulo a prime m."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._a = 2
        self._m = 101
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        self._m = rng.choice(_PRIMES)
        self._a = rng.randint(2, self._m - 2)
        self._turn, self._terminated, self._truncated = 0, False, False
        text = (f"Modular Inverse. Find the whole number x with 1 <= x <= {self._m - 1} such that "
                f"{self._a} * x leaves remainder 1 when divided by {self._m}. Answer in a box, e.g. \\boxed{{17}}.")
        return text, {"turn": 0, "a": self._a, "m": self._m}

    def hint(self) -> str:
        return ("Run the extended Euclidean algorithm on a and m: keep dividing and writing each remainder "
                "as a combination of a and m. When the remainder reaches 1, the coefficient of a is the "
                "inverse; reduce it modulo m if it is negative.")

    def _inverse(self) -> int:
        return pow(self._a, -1, self._m)

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._terminated or self._truncated:
            return "Episode over.", 0.0, self._terminated, self._truncated, {"turn": self._turn}
        self._turn += 1
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
        value = boxes[-1].strip() if boxes else ""
        reward = 0.0
        if not re.fullmatch(r"\d{1,4}", value):
            obs = "Answer with a whole number in a box, e.g. \\boxed{17}."
        else:
            self._terminated = True
            if int(value) == self._inverse():
                reward, obs = 1.0, "Correct."
            else:
                obs = f"No: {self._a} * {int(value)} mod {self._m} = {self._a * int(value) % self._m}."
        if not self._terminated and self._turn >= self.max_turns:
            self._truncated = True
            obs += " No turns left."
        return obs, reward, self._terminated, self._truncated, {"turn": self._turn}

    def solution(self) -> str:
        return str(self._inverse())

    def close(self) -> None:
        """Nothing to release."""
