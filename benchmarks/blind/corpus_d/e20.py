"""Parity check: is the sum of twelve three-digit numbers odd or even? (a stated coin-flip baseline)"""

from __future__ import annotations

import random
import re
from typing import Any


class SumParityEnv:
    """Two possible answers; a blind guess wins half the time."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._values: list[int] = []
        self._turn = 0
        self._done = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        self._values = [rng.randint(100, 999) for _ in range(12)]
        self._turn, self._done = 0, False
        obs = ("Is the sum of these twelve numbers odd or even?\n  " + "  ".join(map(str, self._values))
               + "\nReply \\boxed{odd} or \\boxed{even}. One attempt.")
        return obs, {"count": 12}

    def _answer(self) -> str:
        return "odd" if sum(self._values) % 2 else "even"

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._done:
            return "Already answered.", 0.0, True, False, {}
        self._turn += 1
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
        word = boxes[-1].strip().lower() if boxes else ""
        reward, terminated = 0.0, False
        if word not in ("odd", "even"):
            obs = "Reply \\boxed{odd} or \\boxed{even}."
        else:
            terminated = True
            reward = 1.0 if word == self._answer() else 0.0
            obs = "Correct." if reward else "Incorrect."
        truncated = not terminated and self._turn >= self.max_turns
        self._done = terminated or truncated
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> str:
        return self._answer()

    def close(self) -> None:
        pass
