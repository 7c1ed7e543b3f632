"""Greatest Common Divisor: find the largest number dividing both of two integers (skill: Euclid).

Two integers below 1000 are shown; they share a common factor of at least 2 by construction. The
player reports their greatest common divisor, e.g. \\boxed{12}. One answer per episode.
"""

from __future__ import annotations

import math
import random
import re
from typing import Any


class GreatestCommonDivisorEnv:
    """Compute gcd(a, b) for a pair of multiples of a hidden common factor."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._a = 12
        self._b = 18
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        while True:
            g = rng.randint(2, 60)
            x, y = rng.randint(2, 999 // g), rng.randint(2, 999 // g)
            if x != y:
                break
        self._a, self._b = g * x, g * y
        self._turn, self._terminated, self._truncated = 0, False, False
        text = (f"Greatest Common Divisor. What is the greatest common divisor of {self._a} and {self._b}? "
                "Answer with a whole number in a box, e.g. \\boxed{12}.")
        return text, {"turn": 0}

    def _gcd(self) -> int:
        return math.gcd(self._a, self._b)

    def _credited(self, action: str, boxed: str) -> bool:
        if re.fullmatch(r"\d{1,4}", boxed.strip()) and int(boxed) == self._gcd():
            return True
        working = action[: action.rfind("\\boxed{")]
        if len(working.strip()) < 40:
            return False
        return re.search(rf"(?<!\d){self._gcd()}(?!\d)", working) is not None

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._terminated or self._truncated:
            return "Episode over.", 0.0, self._terminated, self._truncated, {"turn": self._turn}
        self._turn += 1
        text = action if isinstance(action, str) else ""
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", text)
        reward = 0.0
        if not boxes or not boxes[-1].strip():
            obs = "Put your final answer in a box, e.g. \\boxed{12}."
        else:
            self._terminated = True
            if self._credited(text, boxes[-1]):
                reward, obs = 1.0, "Correct."
            else:
                obs = "That is not the greatest common divisor."
        if not self._terminated and self._turn >= self.max_turns:
            self._truncated = True
            obs += " No turns left."
        return obs, reward, self._terminated, self._truncated, {"turn": self._turn}

    def solution(self) -> str:
        return str(self._gcd())

    def close(self) -> None:
        """Nothing to release."""
