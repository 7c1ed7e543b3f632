"""LinearSolveEnv: solve a*x + b = c for a whole number x (skill: algebra).

Building a puzzle is cheap here, but the generator rejects draws until the solution is a whole number
in range, so an instance keeps the last few puzzles it built and deals from them once it has enough.
"""

from __future__ import annotations

import random
import re
from typing import Any

_BOX = re.compile(r"\\boxed\{([^{}]*)\}")
_KEEP = 4


class LinearSolveEnv:
    """Solve a linear equation."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._built: list[tuple[int, int, int]] = []
        self._puzzle = (2, 1, 5)
        self._turn = 0
        self._status = (False, False)
        self.reset()

    @staticmethod
    def _make(rng: random.Random) -> tuple[int, int, int]:
        while True:
            a, x, b = rng.randint(2, 19), rng.randint(-40, 60), rng.randint(-200, 200)
            if x not in (0, 1) and b != 0:
                return a, b, a * x + b

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        rng = random.Random(seed)
        if len(self._built) >= _KEEP:
            self._puzzle = self._built[rng.randrange(len(self._built))]
        else:
            self._puzzle = self._make(rng)
            self._built.append(self._puzzle)
        a, b, c = self._puzzle
        self._turn, self._status = 0, (False, False)
        sign = "+" if b > 0 else "-"
        text = (f"Solve for x: {a}x {sign} {abs(b)} = {c}. x is a whole number; box it, e.g. \\boxed{{-3}}. "
                "One answer is judged.")
        return text, {"degree": 1}

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict[str, Any]]:
        if any(self._status):
            return "Already judged; call reset().", 0.0, *self._status, {}
        self._turn += 1
        boxes = _BOX.findall(action if isinstance(action, str) else "")
        content = boxes[-1].replace(" ", "") if boxes else ""
        content = content[2:] if content.lower().startswith("x=") else content
        a, b, c = self._puzzle
        x = (c - b) // a
        reward, terminated = 0.0, False
        if not re.fullmatch(r"-?\d{1,6}", content):
            obs = "Box a whole number, e.g. \\boxed{-3}."
        elif int(content) == x:
            obs, reward, terminated = "Correct!", 1.0, True
        else:
            obs, terminated = f"Wrong; x = {x}.", True
        truncated = not terminated and self._turn >= self.max_turns
        self._status = (terminated, truncated)
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> int:
        a, b, c = self._puzzle
        return (c - b) // a

    def close(self) -> None:
        """Nothing to release."""
