"""Cube-root estimate, multiple choice: exactly one option lies within the stated 0.5% tolerance."""

from __future__ import annotations

import random
import re
from typing import Any


class CubeRootChoiceEnv:
    """Five options; a blind pick wins one time in five."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._answer = "A"
        self._turn = 0
        self._done = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        n = rng.randint(2000, 900000)
        root = n ** (1 / 3)
        good = root * (1 + rng.uniform(-0.004, 0.004))
        factors = rng.sample([0.88, 0.91, 0.94, 0.965, 1.035, 1.06, 1.09, 1.12], 4)
        options = [good] + [root * f for f in factors]
        order = list(range(5))
        rng.shuffle(order)
        shown = [options[i] for i in order]
        self._answer = "ABCDE"[order.index(0)]
        self._turn, self._done = 0, False
        rows = "\n".join(f"  ({'ABCDE'[i]}) {v:.2f}" for i, v in enumerate(shown))
        obs = (f"Which option is within 0.5% of the cube root of {n}?\n{rows}\n"
               "Exactly one option is that close; the others are off by at least 3%. Reply with its letter, "
               "e.g. \\boxed{B}. One attempt.")
        return obs, {"n": n}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._done:
            return "Already answered.", 0.0, True, False, {}
        self._turn += 1
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
        pick = boxes[-1].strip().upper().strip("()") if boxes else ""
        reward, terminated = 0.0, False
        if pick not in list("ABCDE"):
            obs = "Reply with one letter A-E, e.g. \\boxed{B}."
        else:
            terminated = True
            reward = 1.0 if pick == self._answer else 0.0
            obs = "Correct." if reward else "Incorrect."
        truncated = not terminated and self._turn >= self.max_turns
        self._done = terminated or truncated
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> str:
        return self._answer

    def close(self) -> None:
        pass
