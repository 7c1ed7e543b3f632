"""Remainder Riddle: find the smallest positive integer with three given remainders.

x leaves remainder r1 when divided by m1, r2 by m2 and r3 by m3, with pairwise coprime moduli, so a
unique answer exists below m1*m2*m3.
"""

from __future__ import annotations

import math
import random
import re
from typing import Any

_MODULI = [3, 4, 5, 7, 9, 11, 13]


class RemainderRiddleEnv:
    """Chinese-remainder puzzle."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._mods: list[int] = [3, 4, 5]
        self._x = 1
        self._turn = 0
        self._done = False

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        while True:
            mods = sorted(rng.sample(_MODULI, 3))
            if all(math.gcd(a, b) == 1 for i, a in enumerate(mods) for b in mods[i + 1:]):
                break
        self._mods = mods
        self._x = rng.randint(1, math.prod(mods) - 1)
        self._turn, self._done = 0, False
        lines = "\n".join(f"  x mod {m} = {self._x % m}" for m in mods)
        obs = (f"Remainder Riddle. Find the smallest positive integer x with\n{lines}\n"
               "Answer like \\boxed{52}.")
        return obs, {"moduli": list(mods)}

    def hint(self) -> str:
        a, b, _ = self._mods
        return (f"Use the Chinese remainder theorem step by step: first list numbers with the right remainder "
                f"mod {b} and check them mod {a}, then combine that result (period {a * b}) with the last congruence.")

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._done:
            return "Solved already.", 0.0, True, False, {}
        self._turn += 1
        found = re.findall(r"\\boxed\{([^{}]*)\}", action) if isinstance(action, str) else []
        text = found[-1].strip() if found else ""
        reward, terminated = 0.0, False
        if not re.fullmatch(r"\d{1,6}", text):
            obs = "Answer with a positive integer in \\boxed{...}."
        else:
            terminated = True
            reward = 1.0 if int(text) == self._x else 0.0
            obs = "Correct." if reward else "That number does not fit."
        truncated = not terminated and self._turn >= self.max_turns
        self._done = terminated or truncated
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> int:
        return self._x

    def close(self) -> None:
        pass
