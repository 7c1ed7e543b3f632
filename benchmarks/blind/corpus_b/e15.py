"""Cooling Cup: Newton's law of cooling for a cup of tea left in a room.

T(t) = T_room + (T_0 - T_room) * exp(-k t). Given the starting temperature, the room temperature,
the cooling constant and the elapsed time, report the temperature. Answers within 0.5% of the exact
value count as correct, so rounding to one decimal is enough.
"""

from __future__ import annotations

import math
import random
import re
from typing import Any


class CoolingCupEnv:
    """Exponential cooling with a stated relative tolerance."""

    reward_range = (0.0, 1.0)
    TOLERANCE = 0.005

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._t0 = 90.0
        self._room = 20.0
        self._k = 0.05
        self._minutes = 10
        self._turn = 0
        self._done = False

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        self._t0 = float(rng.randint(70, 95))
        self._room = float(rng.randint(15, 25))
        self._minutes = rng.randint(5, 30)
        factor = rng.uniform(0.25, 0.75)
        self._k = round(-math.log(factor) / self._minutes, 4)
        self._turn, self._done = 0, False
        obs = (f"Cooling Cup. Tea at {self._t0:.0f} C is left in a {self._room:.0f} C room. Its cooling constant is "
               f"k = {self._k} per minute (Newton's law of cooling).\nWhat is its temperature after {self._minutes} "
               "minutes, in C? Answers within 0.5% are accepted, e.g. \\boxed{12.3}.")
        return obs, {}

    def _target(self) -> float:
        return self._room + (self._t0 - self._room) * math.exp(-self._k * self._minutes)

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._done:
            return "Already graded.", 0.0, True, False, {}
        self._turn += 1
        found = re.findall(r"\\boxed\{([^{}]*)\}", action) if isinstance(action, str) else []
        text = found[-1].strip().rstrip("C").strip() if found else ""
        reward, terminated = 0.0, False
        value = float(text) if re.fullmatch(r"-?\d+(\.\d+)?", text) else None
        if value is None:
            obs = "Give the temperature as a decimal number in \\boxed{...}."
        else:
            terminated = True
            target = self._target()
            if abs(value - target) <= self.TOLERANCE * abs(target):
                reward, obs = 1.0, f"Correct (exact value {target:.3f} C)."
            else:
                obs = "Outside the tolerance."
        truncated = not terminated and self._turn >= self.max_turns
        self._done = terminated or truncated
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> str:
        return f"{self._target():.2f}"

    def close(self) -> None:
        pass
