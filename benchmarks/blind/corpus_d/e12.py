"""Coordinate geometry: the fourth vertex of a parallelogram."""

from __future__ import annotations

import random
import re
from typing import Any


class ParallelogramEnv:
    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._answer = (0, 0)
        self._turn = 0
        self._done = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        while True:
            p, q, r = [(rng.randint(-9, 9), rng.randint(-9, 9)) for _ in range(3)]
            if (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0]) != 0:
                break
        self._points = (p, q, r)
        completions = [(p[0] + r[0] - q[0], p[1] + r[1] - q[1]),
                       (p[0] + q[0] - r[0], p[1] + q[1] - r[1]),
                       (q[0] + r[0] - p[0], q[1] + r[1] - p[1])]
        self._answer = rng.choice(completions)
        self._turn, self._done = 0, False
        obs = (f"Three vertices of a parallelogram are P{p}, Q{q} and R{r}. Find the fourth vertex S. "
               "Reply with its coordinates, e.g. \\boxed{(3, -2)}. One attempt.")
        return obs, {"points": [list(p), list(q), list(r)]}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._done:
            return "Answer already graded.", 0.0, True, False, {}
        self._turn += 1
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
        nums = re.fullmatch(r"\s*\(?\s*(-?\d{1,4})\s*,\s*(-?\d{1,4})\s*\)?\s*", boxes[-1]) if boxes else None
        reward, terminated = 0.0, False
        if nums is None:
            obs = "Reply with a point such as \\boxed{(3, -2)}."
        else:
            terminated = True
            reward = 1.0 if (int(nums.group(1)), int(nums.group(2))) == self._answer else 0.0
            obs = "Correct vertex." if reward else "That is not the expected vertex."
        truncated = not terminated and self._turn >= self.max_turns
        self._done = terminated or truncated
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> str:
        return f"({self._answer[0]}, {self._answer[1]})"

    def close(self) -> None:
        pass
