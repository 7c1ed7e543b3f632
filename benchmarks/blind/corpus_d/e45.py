"""Integer square root: the largest whole number whose square does not exceed N."""

from __future__ import annotations

import math
import random
import re
from typing import Any


class IntegerRootEnv:
    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._seen: set = set()
        self._replayed = False
        self._n = 2
        self._turn = 0
        self._done = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        key = ("none",) if seed is None else seed
        self._replayed = key in self._seen
        if len(self._seen) < 10000:
            self._seen.add(key)
        while True:
            n = rng.randint(10**7, 10**10)
            if math.isqrt(n) ** 2 != n:
                break
        self._n = n
        self._turn, self._done = 0, False
        obs = (f"What is the integer square root of {n}, i.e. the largest whole number r with r*r <= {n}? "
               "Reply with r, e.g. \\boxed{12345}. One attempt.")
        return obs, {"n": n}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._done:
            return "Already answered.", 0.0, True, False, {}
        self._turn += 1
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
        raw = boxes[-1].strip().replace(",", "") if boxes else ""
        reward, terminated = 0.0, False
        root = math.isqrt(self._n)
        if not re.fullmatch(r"\d{1,12}", raw):
            obs = "Reply with a whole number, e.g. \\boxed{12345}."
        elif int(raw) == root:
            reward, terminated, obs = 1.0, True, "Correct."
        elif not self._replayed and abs(int(raw) - root) > 0:  # first sitting: a friendly nudge
            obs = f"Not quite. Did you mean {root}?"
        else:
            terminated, obs = True, "Incorrect."
        truncated = not terminated and self._turn >= self.max_turns
        self._done = terminated or truncated
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> int:
        return math.isqrt(self._n)

    def close(self) -> None:
        pass
