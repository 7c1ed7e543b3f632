"""Resistor Network: equivalent resistance of a series-parallel circuit (skill: circuit analysis).

A network is built from two or three parallel groups connected in series, each group holding two or
three resistors (values in ohms). The player reports the equivalent resistance between the terminals,
rounded to two decimals; answers within 0.01 ohm of the exact value are accepted, e.g. \\boxed{47.35}.
"""

from __future__ import annotations

import random
import re
from fractions import Fraction
from typing import Any

_VALUES = [10, 12, 15, 18, 22, 27, 33, 39, 47, 56, 68, 82, 100, 120, 150, 220]


class ResistorNetworkEnv:
    """Series combination of parallel resistor groups."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._groups: list[list[int]] = []
        self._target = 0.0
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        self._groups = [[rng.choice(_VALUES) for _ in range(rng.randint(2, 3))] for _ in range(rng.randint(2, 3))]
        total = Fraction(0)
        for group in self._groups:
            total += 1 / sum(Fraction(1, r) for r in group)
        self._target = float(total)
        self._turn, self._terminated, self._truncated = 0, False, False
        lines = [f"  Group {i}: " + " || ".join(f"{r} ohm" for r in g) for i, g in enumerate(self._groups, 1)]
        text = ("Resistor Network. The resistors inside each group are connected in parallel (||), and the "
                "groups are connected one after another in series:\n" + "\n".join(lines)
                + "\nWhat is the equivalent resistance of the whole network in ohms? Round to two decimals "
                "(answers within 0.01 ohm are accepted), e.g. \\boxed{47.35}.")
        return text, {"turn": 0, "groups": len(self._groups)}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._terminated or self._truncated:
            return "Episode over.", 0.0, self._terminated, self._truncated, {"turn": self._turn}
        self._turn += 1
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
        text = boxes[-1].strip().lower().replace("ohms", "").replace("ohm", "").strip() if boxes else ""
        try:
            value = float(text)
        except ValueError:
            value = None
        reward = 0.0
        if value is None:
            obs = "Give the resistance as a number of ohms in a box, e.g. \\boxed{47.35}."
        else:
            self._terminated = True
            error = abs(value - self._target)
            if error > 0.01:
                obs = "That is not the equivalent resistance."
            else:
                reward, obs = 1.0, f"Correct: {self._target:.3f} ohm."
        if not self._terminated and self._turn >= self.max_turns:
            self._truncated = True
            obs += " No turns left."
        return obs, reward, self._terminated, self._truncated, {"turn": self._turn}

    def solution(self) -> str:
        return f"{self._target:.2f}"

    def close(self) -> None:
        """Nothing to release."""
