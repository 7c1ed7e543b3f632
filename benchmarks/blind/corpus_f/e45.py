"""FactorHuntEnv: the smallest prime factor of five odd composites; partial credit per number.

Every number has no factor below 7, so the easy tests (2, 3, 5) never settle it. The smallest prime
factor of each number is drawn uniformly from 7, 11, 13, 17, 19 and 23. The reward is the share of
numbers whose factor is right; 1.0 only for all five.
"""

from __future__ import annotations

import random
import re
from typing import Any

_BOX = re.compile(r"\\boxed\{([^{}]*)\}")
_FACTORS = (7, 11, 13, 17, 19, 23)


def _smallest_factor(n: int) -> int:
    return next(d for d in range(2, n + 1) if n % d == 0)


class FactorHuntEnv:
    """Five smallest prime factors; reward = right factors / 5."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._numbers: list[int] = []
        self._factors: list[int] = []
        self._turn = 0
        self._status = (False, False)
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        rng = random.Random(seed)
        numbers: list[int] = []
        for _ in range(5):
            p = rng.choice(_FACTORS)
            partners = [q for q in range(p, 999 // p + 1) if q % 2 and _smallest_factor(q) >= p and p * q not in numbers]
            numbers.append(p * rng.choice(partners))
        self._numbers = numbers
        self._factors = [_smallest_factor(n) for n in numbers]
        self._turn, self._status = 0, (False, False)
        text = (
            f"For each number, give its smallest prime factor: {', '.join(map(str, numbers))}.\n"
            "Answer with five numbers in the same order, in one box, e.g. \\boxed{11, 7, 23, 13, 7}. Each right "
            "factor scores 0.2; all five right scores 1.0. One scored answer; boxing two different answers scores 0."
        )
        return text, {"count": 5}

    @staticmethod
    def _parse(content: str) -> tuple[int, ...] | None:
        parts = [p for p in re.split(r"[\s,;]+", content.strip()) if p]
        if len(parts) != 5 or not all(re.fullmatch(r"\d{1,4}", p) for p in parts):
            return None
        return tuple(int(p) for p in parts)

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict[str, Any]]:
        if any(self._status):
            return "Already scored; call reset().", 0.0, *self._status, {}
        self._turn += 1
        answers = [a for a in (self._parse(c) for c in _BOX.findall(action if isinstance(action, str) else ""))
                   if a is not None]
        reward, terminated = 0.0, False
        if not answers:
            obs = "Give five whole numbers in one box, e.g. \\boxed{11, 7, 23, 13, 7}."
        elif len(set(answers)) > 1:
            obs, terminated = "Two different answers were boxed; this scores 0.", True
        else:
            hits = sum(a == b for a, b in zip(answers[0], self._factors))
            terminated = True
            reward = 1.0 if hits == 5 else hits / 5
            obs = "All five factors are right!" if hits == 5 else f"{hits} of 5 factors are right."
        truncated = not terminated and self._turn >= self.max_turns
        self._status = (terminated, truncated)
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> str:
        return ", ".join(map(str, self._factors))

    def hint(self) -> str:
        return "Try 7, 11, 13, ... in turn; none of the numbers is divisible by 2, 3 or 5."

    def close(self) -> None:
        """Nothing to release."""
