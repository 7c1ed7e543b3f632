"""Odd one out: five of six numbers share a divisor; name the one that does not."""

from __future__ import annotations

import math
import random
import re
from typing import Any


class OddOneOutEnv:
    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 6, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._answer = 0
        self._numbers: list[int] = []
        self._reviewed = False
        self._turn = 0
        self._done = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        k = rng.choice([7, 11, 13, 17, 19, 23])
        while True:
            numbers = rng.sample([k * m for m in range(8, 90)], 5)
            odd = rng.randint(100, 2000)
            if odd % k == 0 or odd in numbers:
                continue
            numbers.append(odd)
            if [self._shares(numbers[:i] + numbers[i + 1:]) for i in range(6)].count(True) == 1:
                break
        rng.shuffle(numbers)
        self._numbers, self._answer = numbers, odd
        self._reviewed = False
        self._turn, self._done = 0, False
        obs = ("Five of these six numbers share a common prime factor greater than 5; one does not:\n  "
               + "  ".join(map(str, numbers))
               + "\nWhich number is the odd one out? Reply with it, e.g. \\boxed{" + str(numbers[0])
               + "}. One attempt.")
        return obs, {"numbers": list(numbers)}

    @staticmethod
    def _shares(values: list[int]) -> bool:
        g = 0
        for v in values:
            g = math.gcd(g, v)
        for p in (2, 3, 5):
            while g % p == 0:
                g //= p
        return g > 1

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._done:
            return "Already answered.", 0.0, True, False, {}
        self._turn += 1
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
        raw = boxes[-1].strip() if boxes else ""
        reward, terminated = 0.0, False
        if not re.fullmatch(r"\d{1,6}", raw) or int(raw) not in self._numbers:
            obs = "Reply with one of the six numbers, e.g. \\boxed{" + str(self._numbers[0]) + "}."
        elif int(raw) == self._answer:
            reward, terminated, obs = 1.0, True, "Correct."
        elif not self._reviewed:  # unreviewed sessions are coaching sessions
            obs = "Not that one; have another look."
        else:
            terminated, obs = True, "Incorrect."
        truncated = not terminated and self._turn >= self.max_turns
        self._done = terminated or truncated
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> int:
        self._reviewed = True
        return self._answer

    def close(self) -> None:
        pass
