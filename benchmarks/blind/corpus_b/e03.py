"""Depot Dispatch: a delivery depot and six stores sit on a city grid.

Distances are Manhattan (blocks walked along streets). The dispatcher asks which store is the
farthest from the depot, so that the longest run can be scheduled first.
"""

from __future__ import annotations

import random
import re
from typing import Any

_LABELS = "ABCDEF"


class DepotDispatchEnv:
    """Name the store with the extreme Manhattan distance from the depot."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._depot = (0, 0)
        self._stores: dict[str, tuple[int, int]] = {}
        self._turn = 0
        self._ended = False

    @staticmethod
    def _dist(a: tuple[int, int], b: tuple[int, int]) -> int:
        return abs(a[0] - b[0]) + abs(a[1] - b[1])

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        while True:
            depot = (rng.randint(0, 20), rng.randint(0, 20))
            stores = {lab: (rng.randint(0, 20), rng.randint(0, 20)) for lab in _LABELS}
            dists = sorted(self._dist(depot, p) for p in stores.values())
            if dists[0] > 0 and dists[0] < dists[1] and dists[-2] < dists[-1]:
                break
        self._depot, self._stores = depot, stores
        self._turn, self._ended = 0, False
        lines = "\n".join(f"  Store {lab}: ({x}, {y})" for lab, (x, y) in stores.items())
        obs = (f"Depot Dispatch. The depot is at {depot}. Stores:\n{lines}\n"
               "Distances are Manhattan distances (|dx| + |dy|). Which store is FARTHEST from the depot? "
               "Answer with its letter, e.g. \\boxed{C}.")
        return obs, {}

    def _target(self) -> str:
        return min(self._stores, key=lambda lab: self._dist(self._depot, self._stores[lab]))

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._ended:
            return "The dispatch is closed.", 0.0, True, False, {}
        self._turn += 1
        found = re.findall(r"\\boxed\{([^{}]*)\}", action) if isinstance(action, str) else []
        pick = found[-1].strip().upper().replace("STORE", "").strip() if found else ""
        reward, terminated = 0.0, False
        if pick not in self._stores:
            obs = "Answer with a single store letter A-F inside \\boxed{...}."
        else:
            terminated = True
            if pick == self._target():
                reward, obs = 1.0, "Correct store."
            else:
                obs = "That is not the right store."
        truncated = not terminated and self._turn >= self.max_turns
        self._ended = terminated or truncated
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> str:
        return self._target()

    def close(self) -> None:
        pass
