"""Depot pick: which of six labelled depots lies farthest (straight line) from the dispatch office?"""

from __future__ import annotations

import math
import random
import re
from typing import Any


class FarthestDepotEnv:
    """Pick one label from a list of six; a blind pick wins one time in six."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._answer = "A"
        self._turn = 0
        self._done = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        while True:
            office = (rng.randint(-20, 20), rng.randint(-20, 20))
            depots = [(rng.randint(-40, 40), rng.randint(-40, 40)) for _ in range(6)]
            dist = sorted((math.dist(office, d), i) for i, d in enumerate(depots))
            if dist[-1][0] - dist[-2][0] >= 1.0:
                break
        self._answer = "ABCDEF"[dist[-1][1]]
        self._turn, self._done = 0, False
        rows = "\n".join(f"  depot {'ABCDEF'[i]} at ({x}, {y})" for i, (x, y) in enumerate(depots))
        obs = (f"The dispatch office is at ({office[0]}, {office[1]}) (km grid).\n{rows}\n"
               "Which depot is farthest from the office in a straight line? Reply with its letter, e.g. "
               "\\boxed{C}. One attempt.")
        return obs, {"depots": 6}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._done:
            return "Already answered.", 0.0, True, False, {}
        self._turn += 1
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
        pick = boxes[-1].strip().upper() if boxes else ""
        reward, terminated = 0.0, False
        if pick not in list("ABCDEF"):
            obs = "Reply with a single depot letter A-F, e.g. \\boxed{C}."
        else:
            terminated = True
            reward = 1.0 if pick == self._answer else 0.0
            obs = "Correct." if reward else "Not the farthest depot."
        truncated = not terminated and self._turn >= self.max_turns
        self._done = terminated or truncated
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> str:
        return self._answer

    def close(self) -> None:
        pass
