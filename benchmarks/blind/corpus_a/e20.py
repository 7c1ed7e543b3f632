"""Next Term: continue a well-known integer sequence (skill: pattern recognition).

The task bank is deliberately small: eight classic sequences (squares, cubes, triangular numbers,
pronic numbers, powers of two, Fibonacci numbers, primes and factorials), each shown from one of
three starting points, for 24 tasks in all. Five consecutive terms are shown and the player gives the
next one, e.g. \\boxed{36}. One answer per episode; the 24 answers are all different, so no single
guess wins more than one task in 24.
"""

from __future__ import annotations

import random
import re
from typing import Any


def _primes(count: int) -> list[int]:
    found: list[int] = []
    n = 2
    while len(found) < count:
        if all(n % p for p in found if p * p <= n):
            found.append(n)
        n += 1
    return found


def _fibonacci(count: int) -> list[int]:
    seq = [1, 2]
    while len(seq) < count:
        seq.append(seq[-1] + seq[-2])
    return seq


def _factorials(count: int) -> list[int]:
    seq, value = [], 1
    for n in range(1, count + 1):
        value *= n
        seq.append(value)
    return seq


_SEQUENCES: dict[str, list[int]] = {
    "squares": [n * n for n in range(1, 12)],
    "cubes": [n ** 3 for n in range(1, 12)],
    "triangular": [n * (n + 1) // 2 for n in range(1, 12)],
    "pronic": [n * (n + 1) for n in range(1, 12)],
    "powers of two": [2 ** n for n in range(1, 12)],
    "fibonacci": _fibonacci(11),
    "primes": _primes(11),
    "factorials": _factorials(11),
}
_STARTS = (1, 3, 5)


class NextTermEnv:
    """Give the next term of one of 24 fixed sequence excerpts."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._shown: list[int] = []
        self._answer = 0
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        name = rng.choice(sorted(_SEQUENCES))
        start = rng.choice(_STARTS)
        terms = _SEQUENCES[name]
        self._shown, self._answer = terms[start:start + 5], terms[start + 5]
        self._turn, self._terminated, self._truncated = 0, False, False
        text = ("Next Term. What number comes next in this sequence?\n  "
                + ", ".join(map(str, self._shown)) + ", ...\nAnswer in a box, e.g. \\boxed{100}.")
        return text, {"turn": 0}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._terminated or self._truncated:
            return "Episode over.", 0.0, self._terminated, self._truncated, {"turn": self._turn}
        self._turn += 1
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
        value = boxes[-1].strip().replace(",", "") if boxes else ""
        reward = 0.0
        if not re.fullmatch(r"\d{1,9}", value):
            obs = "Answer with a whole number in a box, e.g. \\boxed{100}."
        else:
            self._terminated = True
            if int(value) == self._answer:
                reward, obs = 1.0, "Correct!"
            else:
                obs = "Not the next term."
        if not self._terminated and self._turn >= self.max_turns:
            self._truncated = True
            obs += " No turns left."
        return obs, reward, self._terminated, self._truncated, {"turn": self._turn}

    def solution(self) -> str:
        return str(self._answer)

    def close(self) -> None:
        """Nothing to release."""
