"""Race Results: rank runners from fastest to slowest from their finishing times.

Times are given as minutes:seconds for a 10 km race. Give the runners' names in order, fastest
first, separated by commas.
"""

from __future__ import annotations

import random
import re
from typing import Any

_RUNNERS = ["Asha", "Bruno", "Chen", "Dalia", "Emeka", "Freya", "Goran", "Hiro", "Ines", "Jonas"]


class RaceResultsEnv:
    """Order runners by finishing time."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._times: dict[str, int] = {}
        self._turn = 0
        self._done = False

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        names = rng.sample(_RUNNERS, rng.randint(4, 6))
        seconds = rng.sample(range(30 * 60, 60 * 60), len(names))
        self._times = dict(zip(names, seconds))
        self._turn, self._done = 0, False
        rows = "\n".join(f"  {n}: {s // 60}:{s % 60:02d}" for n, s in self._times.items())
        obs = (f"Race Results. Finishing times:\n{rows}\nList the runners from fastest to slowest, comma "
               "separated, e.g. \\boxed{Asha, Bruno, Chen}.")
        return obs, {"runners": len(names)}

    def _order(self) -> list[str]:
        return sorted(self._times, key=lambda n: self._times[n], reverse=True)

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._done:
            return "Results posted.", 0.0, True, False, {}
        self._turn += 1
        found = re.findall(r"\\boxed\{([^{}]*)\}", action) if isinstance(action, str) else []
        names = [p.strip().capitalize() for p in found[-1].split(",")] if found else []
        reward, terminated = 0.0, False
        if sorted(names) != sorted(self._times):
            obs = "List every runner exactly once, comma separated, inside \\boxed{...}."
        else:
            terminated = True
            reward = 1.0 if names == self._order() else 0.0
            obs = "Correct ranking." if reward else "The ranking is wrong."
        truncated = not terminated and self._turn >= self.max_turns
        self._done = terminated or truncated
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> str:
        return ", ".join(self._order())

    def close(self) -> None:
        pass
