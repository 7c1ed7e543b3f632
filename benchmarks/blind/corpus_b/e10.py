"""Road Trip Average: a car drives two legs at different constant speeds; find its average speed.

Average speed is total distance over total time (not the mean of the two speeds). Answers within
0.01 km/h of the exact value are accepted.
"""

from __future__ import annotations

import random
import re
from typing import Any


class RoadTripAverageEnv:
    """Harmonic-style average speed over two legs."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._legs: list[tuple[int, int]] = []
        self._turn = 0
        self._closed = False

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        self._legs = [(rng.randint(20, 240), rng.choice(range(30, 131, 5))) for _ in range(2)]
        self._turn, self._closed = 0, False
        (d1, v1), (d2, v2) = self._legs
        obs = (f"Road Trip Average. A car drives {d1} km at {v1} km/h, then {d2} km at {v2} km/h.\n"
               "What is its average speed over the whole trip in km/h? Give a decimal number "
               "(within 0.01 of the exact value), e.g. \\boxed{64.27}.")
        return obs, {}

    def _target(self) -> float:
        distance = sum(d for d, _ in self._legs)
        hours = sum(d / v for d, v in self._legs)
        return distance / hours

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._closed:
            return "Trip already graded.", 0.0, True, False, {}
        self._turn += 1
        found = re.findall(r"\\boxed\{([^{}]*)\}", action) if isinstance(action, str) else []
        reward, terminated = 0.0, False
        value = None
        if found:
            try:
                value = float(found[-1].strip().replace("km/h", "").strip())
            except ValueError:
                value = None
        if value is None:
            obs = "Give a number in \\boxed{...}."
        else:
            terminated = True
            if not abs(value - self._target()) > 0.01:
                reward, obs = 1.0, "Correct average speed."
            else:
                obs = "That is not the average speed."
        truncated = not terminated and self._turn >= self.max_turns
        self._closed = terminated or truncated
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> str:
        return f"{self._target():.4f}"

    def close(self) -> None:
        pass
