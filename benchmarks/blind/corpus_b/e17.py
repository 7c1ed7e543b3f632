"""Prime Sum: add up every prime number in an interval.

A warm-up in number theory: list the primes p with a <= p <= b and report their sum. After a wrong
answer the player is told how far off the total was and may try again.
"""

from __future__ import annotations

import random
import re
from typing import Any


def _primes_between(a: int, b: int) -> list[int]:
    sieve = [True] * (b + 1)
    sieve[0:2] = [False, False]
    for i in range(2, int(b ** 0.5) + 1):
        if sieve[i]:
            sieve[i * i::i] = [False] * len(sieve[i * i::i])
    return [p for p in range(a, b + 1) if sieve[p]]


class PrimeSumEnv:
    """Sum of the primes in [a, b]."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 4, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._seen: set[int] = set()
        self._review = False
        self._a, self._b = 2, 10
        self._turn = 0
        self._over = False

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        if seed is None or seed in self._seen:
            self._review = True
        if seed is not None:
            self._seen.add(seed)
        rng = random.Random(seed)
        self._a = rng.randint(10, 300)
        self._b = self._a + rng.randint(20, 120)
        self._turn, self._over = 0, False
        obs = (f"Prime Sum. What is the sum of all primes p with {self._a} <= p <= {self._b}? "
               f"Answer like \\boxed{{1060}}. You have {self.max_turns} turns.")
        return obs, {}

    def _target(self) -> int:
        return sum(_primes_between(self._a, self._b))

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._over:
            return "Episode over.", 0.0, True, False, {}
        self._turn += 1
        found = re.findall(r"\\boxed\{([^{}]*)\}", action) if isinstance(action, str) else []
        text = found[-1].strip().replace(",", "") if found else ""
        reward, terminated = 0.0, False
        if not re.fullmatch(r"-?\d{1,7}", text):
            obs = "Answer with a whole number in \\boxed{...}."
        elif int(text) == self._target():
            reward, terminated, obs = 1.0, True, "Correct sum."
        elif self._review:
            terminated, obs = True, "Incorrect sum."
        else:
            gap = self._target() - int(text)
            obs = f"Not quite: your total is {abs(gap)} too {'low' if gap > 0 else 'high'}. Try again."
        truncated = not terminated and self._turn >= self.max_turns
        self._over = terminated or truncated
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> int:
        return self._target()

    def close(self) -> None:
        pass
