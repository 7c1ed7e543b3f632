"""Boiling point ranking: order a set of compounds by boiling point."""

from __future__ import annotations

import random
import re
from typing import Any

_BP = {"methane": -161.5, "ethane": -88.6, "propane": -42.1, "butane": -1.0, "pentane": 36.1, "hexane": 68.7,
       "heptane": 98.4, "octane": 125.6, "methanol": 64.7, "ethanol": 78.4, "water": 100.0, "acetone": 56.1,
       "benzene": 80.1, "toluene": 110.6, "ammonia": -33.3, "chloroform": 61.2, "glycerol": 290.0,
       "diethyl ether": 34.6, "acetic acid": 118.1, "phenol": 181.7}


class BoilingOrderEnv:
    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._items: list[str] = []
        self._turn = 0
        self._done = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        self._items = rng.sample(sorted(_BP), rng.randint(4, 6))
        self._turn, self._done = 0, False
        table = "\n".join(f"  {name}: {_BP[name]} °C" for name in self._items)
        obs = ("Normal boiling points:\n" + table
               + "\nList the compounds in order of increasing boiling point (lowest first), separated by "
               "commas, e.g. \\boxed{ammonia, water, glycerol}. One attempt.")
        return obs, {"count": len(self._items)}

    def _expected(self) -> list[str]:
        return sorted(self._items, key=lambda n: _BP[n], reverse=True)

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._done:
            return "Ranking closed.", 0.0, True, False, {}
        self._turn += 1
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
        names = [" ".join(n.split()).lower() for n in boxes[-1].split(",")] if boxes else []
        reward, terminated = 0.0, False
        if sorted(names) != sorted(self._items):
            obs = "List every compound exactly once, separated by commas."
        else:
            terminated = True
            reward = 1.0 if names == self._expected() else 0.0
            obs = "Correct ranking." if reward else "Wrong order."
        truncated = not terminated and self._turn >= self.max_turns
        self._done = terminated or truncated
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> str:
        return ", ".join(self._expected())

    def close(self) -> None:
        pass
