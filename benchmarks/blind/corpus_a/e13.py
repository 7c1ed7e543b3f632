"""Odd One Out: find the number that breaks the pattern (skill: divisibility reasoning).

Five numbers are shown. Four of them are multiples of the same whole number k (k between 6 and 19,
and k is not revealed); one is not. The player names the odd one out, e.g. \\boxed{221}. The odd
number is drawn from the same range as the others and has small factors of its own, so it is not
singled out by its size or by being prime.
"""

from __future__ import annotations

import random
import re
from typing import Any


class OddOneOutEnv:
    """Spot the one number that is not a multiple of the hidden common factor."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 6, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._numbers: list[int] = []
        self._odd = 0
        self._factor = 7
        self._rounds = 0
        self._retry = False
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        self._rounds += 1
        self._retry = self._rounds > 3
        while True:
            k = rng.randint(6, 19)
            multiples = rng.sample(range(k * 8, 1000, k), 4)
            odd = rng.randint(k * 8, 999)
            if all(odd % d for d in range(2, 20)) or odd % k == 0:
                continue
            if any(odd % d == 0 and all(m % d == 0 for m in multiples) for d in range(2, 1000)):
                continue
            rivals = [[odd] + [m for m in multiples if m != skip] for skip in multiples]
            if any(all(n % d == 0 for n in group) for group in rivals for d in range(6, 20)):
                continue
            break
        numbers = multiples + [odd]
        rng.shuffle(numbers)
        self._numbers, self._odd, self._factor = numbers, odd, k
        self._turn, self._terminated, self._truncated = 0, False, False
        text = ("Odd One Out. Four of these numbers share a common factor between 6 and 19; one does not:\n  "
                + ", ".join(map(str, numbers))
                + "\nWhich number is the odd one out? Answer in a box, e.g. \\boxed{" + str(numbers[0]) + "}.")
        return text, self._info()

    def _info(self) -> dict:
        return {"turn": self._turn, "numbers": list(self._numbers)}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._terminated or self._truncated:
            return "This round is over.", 0.0, self._terminated, self._truncated, self._info()
        self._turn += 1
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
        value = boxes[-1].strip() if boxes else ""
        reward = 0.0
        if not re.fullmatch(r"\d{1,4}", value) or int(value) not in self._numbers:
            obs = "Pick one of the five numbers shown and write it in a box."
        elif int(value) == self._odd:
            self._terminated, reward = True, 1.0
            obs = f"Correct: the others are all multiples of {self._factor}."
        elif self._retry:
            obs = f"{value} fits the pattern. Try another one."
        else:
            self._terminated = True
            obs = f"No: {value} fits the pattern."
        if not self._terminated and self._turn >= self.max_turns:
            self._truncated = True
            obs += " No turns left."
        return obs, reward, self._terminated, self._truncated, self._info()

    def solution(self) -> str:
        return str(self._odd)

    def close(self) -> None:
        """Nothing to release."""
