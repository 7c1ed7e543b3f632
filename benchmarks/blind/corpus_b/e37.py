"""Safe Cracker: open a four-digit safe using the dial's click feedback.

Each attempt enters four digits (repeats allowed). The safe clicks once for every digit that is in
the correct position. Work out the combination within the turn budget.
"""

from __future__ import annotations

import random
import re
from typing import Any


class SafeCrackerEnv:
    """Positional-feedback code breaking."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 40, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._code = "0000"
        self._turn = 0
        self._over = False

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        self._code = "".join(rng.choice("0123456789") for _ in range(4))
        self._turn, self._over = 0, False
        obs = ("Safe Cracker. The combination is four digits (repeats allowed). After each attempt the safe "
               "clicks once per digit in the correct position.\n"
               f"You have {self.max_turns} attempts. Enter like \\boxed{{1234}}.")
        return obs, {}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._over:
            return "The safe is closed for today.", 0.0, True, False, {}
        self._turn += 1
        found = re.findall(r"\\boxed\{([^{}]*)\}", action) if isinstance(action, str) else []
        guess = found[-1].strip() if found else ""
        reward, terminated = 0.0, False
        if not re.fullmatch(r"\d{4}", guess):
            obs = "Enter exactly four digits in \\boxed{...}."
        elif guess == self._code:
            reward, terminated, obs = 1.0, True, "The safe swings open!"
        else:
            clicks = sum(a == b for a, b in zip(guess, self._code))
            obs = f"{guess}: {clicks} click(s)."
        truncated = not terminated and self._turn >= self.max_turns
        self._over = terminated or truncated
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> str:
        return self._code

    def close(self) -> None:
        pass
