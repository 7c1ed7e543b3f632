"""Roman numerals: read a numeral between CD and MMMCMXCIX and give its value."""

from __future__ import annotations

import random
import re
from typing import Any

_TABLE = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"), (40, "XL"),
          (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]


def _roman(n: int) -> str:
    out = ""
    for value, sym in _TABLE:
        while n >= value:
            out += sym
            n -= value
    return out


class RomanReadEnv:
    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._n = 1999
        self._turn = 0
        self._done = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        while True:
            n = rng.randint(400, 3999)
            if n != 1234:
                break
        self._n = n
        self._turn, self._done = 0, False
        obs = (f"What number does the Roman numeral {_roman(n)} stand for? Reply in decimal digits, e.g. "
               "\\boxed{1234}. One attempt.")
        return obs, {"numeral": _roman(n)}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._done:
            return "Already answered.", 0.0, True, False, {}
        self._turn += 1
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
        raw = boxes[-1].strip().replace(",", "") if boxes else ""
        reward, terminated = 0.0, False
        if not re.fullmatch(r"\d{1,6}", raw):
            obs = "Reply with a decimal number, e.g. \\boxed{1234}."
        else:
            terminated = True
            reward = 1.0 if int(raw) == self._n else 0.0
            obs = "Correct." if reward else "Incorrect."
        truncated = not terminated and self._turn >= self.max_turns
        self._done = terminated or truncated
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> int:
        return self._n

    def close(self) -> None:
        pass
