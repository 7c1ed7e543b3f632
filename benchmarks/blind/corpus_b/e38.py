"""Cannon Range: how far does a projectile fly on flat ground?

Launch speed v (m/s) and angle theta (degrees) are given; ignore air resistance, g = 9.81 m/s^2.
Range R = v^2 sin(2 theta) / g. Answers within 1% are accepted.
"""

from __future__ import annotations

import math
import random
import re
from typing import Any


class CannonRangeEnv:
    """Projectile range with a 1% tolerance."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._v = 20
        self._theta = 45
        self._turn = 0
        self._done = False

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        self._v = rng.randint(10, 90)
        self._theta = rng.choice([a for a in range(10, 81) if a != 45])
        self._turn, self._done = 0, False
        obs = (f"Cannon Range. A ball is launched at {self._v} m/s, {self._theta} degrees above the horizontal, "
               "over flat ground (g = 9.81 m/s^2, no air resistance).\nHow far away does it land, in metres? "
               "Answers within 1% count, e.g. \\boxed{112.4}.")
        return obs, {}

    def _target(self) -> float:
        return self._v ** 2 * math.sin(math.radians(2 * self._theta)) / 9.81

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._done:
            return "Already graded.", 0.0, True, False, {}
        self._turn += 1
        found = re.findall(r"\\boxed\{([^{}]*)\}", action) if isinstance(action, str) else []
        text = found[-1].strip().removesuffix("m").strip() if found else ""
        try:
            value = float(text)
        except ValueError:
            value = None
        reward, terminated = 0.0, False
        if value is None:
            obs = "Give a distance in metres in \\boxed{...}."
        else:
            terminated = True
            if abs(value - self._target()) <= 0.01 * abs(value):
                reward, obs = 1.0, "Within tolerance - well aimed."
            else:
                obs = "Not within 1%."
        truncated = not terminated and self._turn >= self.max_turns
        self._done = terminated or truncated
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> str:
        return f"{self._target():.2f}"

    def close(self) -> None:
        pass
