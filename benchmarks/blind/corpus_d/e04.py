"""Primality call: decide whether an odd number with no small factors is prime or composite."""

from __future__ import annotations

import random
import re
from typing import Any


def _is_prime(n: int) -> bool:
    if n < 2:
        return False
    f = 2
    while f * f <= n:
        if n % f == 0:
            return False
        f += 1
    return True


class PrimeCallEnv:
    """A two-way judgement: blind guessing wins half the time, which the task states openly."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._n = 1009
        self._prime = True
        self._turn = 0
        self._done = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        want_prime = rng.random() < 0.5
        while True:
            n = rng.randrange(1001, 99999, 2)
            if any(n % p == 0 for p in (3, 5)):
                continue
            if _is_prime(n) == want_prime:
                break
        self._n, self._prime = n, want_prime
        self._turn, self._done = 0, False
        obs = (f"Is {n} prime or composite? It is odd and divisible by neither 3 nor 5, so trial division "
               "has to go further. Reply \\boxed{prime} or \\boxed{composite}. One attempt.")
        return obs, {"n": n}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._done:
            return "Already judged.", 0.0, True, False, {}
        self._turn += 1
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
        word = boxes[-1].strip().lower() if boxes else ""
        reward, terminated = 0.0, False
        if word not in ("prime", "composite"):
            obs = "Reply \\boxed{prime} or \\boxed{composite}."
        else:
            terminated = True
            reward = 1.0 if (word == "prime") == self._prime else 0.0
            obs = "Correct." if reward else "Incorrect."
        truncated = not terminated and self._turn >= self.max_turns
        self._done = terminated or truncated
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> str:
        return "prime" if self._prime else "composite"

    def close(self) -> None:
        pass
