"""Odd One Out: in a scrambled string every letter appears twice except one; where is it?

Positions are counted from 1 at the left end. Report the position of the letter that appears only
once.
"""

from __future__ import annotations

import random
import re
import string
from typing import Any


class OddOneOutEnv:
    """Locate the unique character."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._text = ""
        self._turn = 0
        self._done = False

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        letters = rng.sample(string.ascii_lowercase, rng.randint(7, 12))
        chars = [c for c in letters[1:] for _ in range(2)] + [letters[0]]
        rng.shuffle(chars)
        self._text = "".join(chars)
        self._turn, self._done = 0, False
        obs = (f"Odd One Out. In the string\n  {self._text}\nevery letter appears twice except one. At which "
               "position is that letter? The first character is position 1. Answer like \\boxed{5}.")
        return obs, {"length": len(self._text)}

    def _index(self) -> int:
        for i, c in enumerate(self._text):
            if self._text.count(c) == 1:
                return i
        return -1

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._done:
            return "Done.", 0.0, True, False, {}
        self._turn += 1
        found = re.findall(r"\\boxed\{([^{}]*)\}", action) if isinstance(action, str) else []
        text = found[-1].strip() if found else ""
        reward, terminated = 0.0, False
        if not re.fullmatch(r"\d{1,3}", text):
            obs = "Answer with a position number in \\boxed{...}."
        else:
            terminated = True
            reward = 1.0 if int(text) == self._index() else 0.0
            obs = "Correct." if reward else "Wrong position."
        truncated = not terminated and self._turn >= self.max_turns
        self._done = terminated or truncated
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> int:
        return self._index()

    def close(self) -> None:
        pass
