"""Projectile Range: how far does the ball fly? (skill: kinematics).

A ball is launched from flat ground with speed v (m/s) at angle theta above the horizontal; air
resistance is ignored and g = 9.81 m/s^2. The player reports the horizontal distance at which the ball
lands, in metres. Because the answer is a real number, any answer within 0.5 m of the exact range is
accepted; the ranges run from about 10 m to over 200 m, so a blind guess almost never lands inside
that window.
"""

from __future__ import annotations

import math
import random
import re
from typing import Any

_G = 9.81


class ProjectileRangeEnv:
    """Compute the landing distance of a projectile; answers within 0.5 m count."""

    reward_range = (0.0, 1.0)
    TOLERANCE = 0.5

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._range = 0.0
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        speed = rng.randint(12, 48)
        angle = rng.choice([15, 20, 25, 30, 35, 40, 50, 55, 60, 65, 70])
        self._range = speed ** 2 * math.sin(math.radians(2 * angle)) / _G
        self._turn, self._terminated, self._truncated = 0, False, False
        text = (f"Projectile Range. A ball is launched from level ground at {speed} m/s, {angle} degrees above "
                "the horizontal. Ignore air resistance and use g = 9.81 m/s^2. How far from the launch point "
                "does it land, in metres? Any answer within 0.5 m is accepted, e.g. \\boxed{57.3}.")
        return text, {"turn": 0, "speed": speed, "angle": angle}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._terminated or self._truncated:
            return "Episode over.", 0.0, self._terminated, self._truncated, {"turn": self._turn}
        self._turn += 1
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
        text = boxes[-1].strip().lower().replace("m", "").strip() if boxes else ""
        value = None
        if re.fullmatch(r"\d{1,6}(\.\d{1,6})?", text):
            value = float(text)
        reward = 0.0
        if value is None or not math.isfinite(value):
            obs = "Give a distance in metres as a plain decimal number in a box, e.g. \\boxed{57.3}."
        else:
            self._terminated = True
            if abs(value - self._range) <= self.TOLERANCE:
                reward, obs = 1.0, f"Correct: the ball lands {self._range:.2f} m away."
            else:
                obs = "That is not within 0.5 m of the landing distance."
        if not self._terminated and self._turn >= self.max_turns:
            self._truncated = True
            obs += " No turns left."
        return obs, reward, self._terminated, self._truncated, {"turn": self._turn}

    def solution(self) -> str:
        return f"{self._range:.2f}"

    def close(self) -> None:
        """Nothing to release."""
