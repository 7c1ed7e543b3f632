"""Radix conversion: write a decimal number in another base."""

from __future__ import annotations

import random
import re
from typing import Any

_DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _to_base(n: int, b: int) -> str:
    out = ""
    while n:
        n, r = divmod(n, b)
        out = _DIGITS[r] + out
    return out or "0"


class RadixEnv:
    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._n, self._b = 100, 2
        self._turn = 0
        self._done = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        while True:
            n, b = rng.randint(100, 99999), rng.choice([2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 16])
            text = _to_base(n, b)
            if text != text[::-1]:
                break
        self._n, self._b = n, b
        self._turn, self._done = 0, False
        obs = (f"Write the decimal number {n} in base {b}, most significant digit first, using digits 0-9 and "
               "then A-Z for values above 9. Reply like \\boxed{1A3}. One attempt.")
        return obs, {"number": n, "base": b}

    def _expected(self) -> str:
        return _to_base(self._n, self._b)[::-1]

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._done:
            return "Conversion graded.", 0.0, True, False, {}
        self._turn += 1
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
        raw = boxes[-1].strip().upper() if boxes else ""
        reward, terminated = 0.0, False
        if not re.fullmatch(r"[0-9A-Z]{1,40}", raw):
            obs = "Reply with digits only, e.g. \\boxed{1A3}."
        else:
            terminated = True
            reward = 1.0 if raw == self._expected() else 0.0
            obs = "Correct." if reward else "Incorrect."
        truncated = not terminated and self._turn >= self.max_turns
        self._done = terminated or truncated
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> str:
        return self._expected()

    def close(self) -> None:
        pass
