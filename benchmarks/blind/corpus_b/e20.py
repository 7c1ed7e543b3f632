"""Unit Drill: convert a quantity between imperial and metric units, to two decimal places.

Conversions: miles to kilometres, pounds to kilograms, Fahrenheit to Celsius, US gallons to litres,
inches to centimetres. Three attempts; feedback after each wrong attempt helps calibrate rounding.
"""

from __future__ import annotations

import random
import re
from typing import Any

_CONVERSIONS = [
    ("miles", "kilometres", lambda x: x * 1.609344),
    ("pounds", "kilograms", lambda x: x * 0.45359237),
    ("degrees Fahrenheit", "degrees Celsius", lambda x: (x - 32) * 5 / 9),
    ("US gallons", "litres", lambda x: x * 3.785411784),
    ("inches", "centimetres", lambda x: x * 2.54),
]


class UnitDrillEnv:
    """Unit conversion with a few attempts."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._kind = 0
        self._value = 1.0
        self._turn = 0
        self._over = False

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        self._kind = rng.randrange(len(_CONVERSIONS))
        self._value = round(rng.uniform(1, 250), 1)
        self._turn, self._over = 0, False
        src, dst, _ = _CONVERSIONS[self._kind]
        obs = (f"Unit Drill. Convert {self._value} {src} to {dst}, rounded to two decimals.\n"
               f"Answer like \\boxed{{12.34}}. You have {self.max_turns} attempts.")
        return obs, {}

    def _target(self) -> float:
        return round(_CONVERSIONS[self._kind][2](self._value), 2)

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._over:
            return "Drill finished.", 0.0, True, False, {}
        self._turn += 1
        found = re.findall(r"\\boxed\{([^{}]*)\}", action) if isinstance(action, str) else []
        text = found[-1].strip() if found else ""
        reward, terminated = 0.0, False
        if not re.fullmatch(r"-?\d+(\.\d+)?", text):
            obs = "Answer with a decimal number in \\boxed{...}."
        elif abs(float(text) - self._target()) < 0.0051:
            reward, terminated, obs = 1.0, True, "Correct conversion."
        else:
            obs = (f"Not quite: you gave {text}, the reference value rounds to {self._target():.2f}. "
                   f"Attempts left: {max(0, self.max_turns - self._turn)}.")
        truncated = not terminated and self._turn >= self.max_turns
        self._over = terminated or truncated
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> str:
        return f"{self._target():.2f}"

    def close(self) -> None:
        pass
