"""Greatest common divisor of two large numbers; the hint names the method (Euclid's algorithm)."""

from __future__ import annotations

import math
import random
import re
from typing import Any


class EuclidGcdEnv:
    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._a, self._b, self._g = 2, 4, 2
        self._turn = 0
        self._done = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        g = rng.randint(101, 997)
        while True:
            m, n = rng.randint(50, 999), rng.randint(50, 999)
            if m != n and math.gcd(m, n) == 1:
                break
        self._a, self._b, self._g = g * m, g * n, g
        self._turn, self._done = 0, False
        obs = (f"What is the greatest common divisor of {self._a} and {self._b}? Reply with the number, e.g. "
               "\\boxed{42}. One attempt.")
        return obs, {"a": self._a, "b": self._b}

    def hint(self) -> str:
        return ("Use the Euclidean algorithm: replace the pair (a, b) by (b, a mod b) until the remainder is 0; "
                "the last non-zero remainder is the gcd.")

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._done:
            return "Already answered.", 0.0, True, False, {}
        self._turn += 1
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
        raw = boxes[-1].strip() if boxes else ""
        reward, terminated = 0.0, False
        if not re.fullmatch(r"\d{1,12}", raw):
            obs = "Reply with a whole number, e.g. \\boxed{42}."
        else:
            terminated = True
            reward = 1.0 if int(raw) == self._g else 0.0
            obs = "Correct." if reward else "Incorrect."
        truncated = not terminated and self._turn >= self.max_turns
        self._done = terminated or truncated
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> int:
        return math.gcd(self._a, self._b)

    def close(self) -> None:
        pass
