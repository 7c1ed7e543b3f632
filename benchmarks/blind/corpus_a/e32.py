"""Ride Time: how long does a bike ride take? (skill: rates and unit handling).

A cyclist rides a route made of two or three stretches; for each stretch the observation gives its
length in kilometres and the cyclist's steady speed on it in km/h. The player reports the total
riding time in minutes, e.g. \\boxed{95}. Distances and speeds are chosen so that every stretch takes
a whole number of minutes.
"""

from __future__ import annotations

import random
import re
from fractions import Fraction
from typing import Any

_SPEEDS = [12, 15, 18, 20, 24, 30]


class RideTimeEnv:
    """Total riding time over several stretches at different speeds."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._stretches: list[tuple[Fraction, int]] = []
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        stretches = []
        for _ in range(rng.randint(2, 3)):
            speed = rng.choice(_SPEEDS)
            minutes = rng.randint(2, 18) * 5
            stretches.append((Fraction(speed * minutes, 60), speed))
        self._stretches = stretches
        self._turn, self._terminated, self._truncated = 0, False, False
        lines = [f"  Stretch {i}: {float(d):g} km at {v} km/h" for i, (d, v) in enumerate(stretches, 1)]
        text = ("Ride Time. A cyclist rides these stretches one after another without stopping:\n"
                + "\n".join(lines) + "\nHow long does the whole ride take, in minutes? Answer with a whole "
                "number in a box, e.g. \\boxed{95}.")
        return text, {"turn": 0, "stretches": len(stretches)}

    def _ride_time(self) -> int:
        hours = sum(d / v for d, v in self._stretches)
        return int(hours * 3600)

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._terminated or self._truncated:
            return "Episode over.", 0.0, self._terminated, self._truncated, {"turn": self._turn}
        self._turn += 1
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
        value = re.sub(r"\s*(minutes|mins|min)$", "", boxes[-1].strip().lower()) if boxes else ""
        reward = 0.0
        if not re.fullmatch(r"\d{1,6}", value):
            obs = "Answer with a whole number in a box, e.g. \\boxed{95}."
        else:
            self._terminated = True
            if int(value) == self._ride_time():
                reward, obs = 1.0, "Correct."
            else:
                obs = "That is not the riding time."
        if not self._terminated and self._turn >= self.max_turns:
            self._truncated = True
            obs += " No turns left."
        return obs, reward, self._terminated, self._truncated, {"turn": self._turn}

    def solution(self) -> str:
        return str(self._ride_time())

    def close(self) -> None:
        """Nothing to release."""
