"""Backpack Planner: choose items for a hike without exceeding the weight limit.

Each item has a weight and a usefulness score. Pick a set whose total weight fits the limit and
whose total score is as large as possible. The best packing wins; a packing that fits but is not
optimal earns partial credit (at most 0.5) and ends the round.
"""

from __future__ import annotations

import itertools
import random
import re
from typing import Any

_GEAR = ["tent", "stove", "water filter", "rain jacket", "camera", "first-aid kit", "book", "hammock",
         "headlamp", "trekking poles", "binoculars", "snacks"]


class BackpackPlannerEnv:
    """0/1 knapsack with partial credit."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._items: list[tuple[str, int, int]] = []
        self._limit = 10
        self._best: frozenset[int] = frozenset()
        self._best_score = 1
        self._turn = 0
        self._done = False

    def _score(self, chosen: frozenset[int]) -> tuple[int, int]:
        return (sum(self._items[i][1] for i in chosen), sum(self._items[i][2] for i in chosen))

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        while True:
            names = rng.sample(_GEAR, 7)
            self._items = [(n, rng.randint(1, 9), rng.randint(2, 20)) for n in names]
            total = sum(w for _, w, _ in self._items)
            self._limit = rng.randint(total // 3, total // 2)
            feasible = []
            for r in range(len(self._items) + 1):
                for combo in itertools.combinations(range(len(self._items)), r):
                    w, v = self._score(frozenset(combo))
                    if w <= self._limit:
                        feasible.append((v, frozenset(combo)))
            feasible.sort(key=lambda t: -t[0])
            if len(feasible) > 1 and feasible[0][0] > feasible[1][0]:
                break
        self._best_score, self._best = feasible[0]
        self._turn, self._done = 0, False
        rows = "\n".join(f"  {i + 1}. {n}: weight {w}, score {v}" for i, (n, w, v) in enumerate(self._items))
        obs = (f"Backpack Planner. Weight limit: {self._limit}.\n{rows}\nList the item numbers to pack, "
               "comma separated inside \\boxed{...}. The optimal packing wins; other valid packings earn partial credit.")
        return obs, {"limit": self._limit}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._done:
            return "Round over.", 0.0, True, False, {}
        self._turn += 1
        found = re.findall(r"\\boxed\{([^{}]*)\}", action) if isinstance(action, str) else []
        text = found[-1] if found else ""
        parts = [p.strip() for p in text.split(",")] if text.strip() else []
        reward, terminated = 0.0, False
        if not parts or not all(re.fullmatch(r"\d{1,2}", p) for p in parts):
            obs = "List item numbers separated by commas inside \\boxed{...}."
        else:
            idx = [int(p) - 1 for p in parts]
            if len(set(idx)) != len(idx) or any(not 0 <= i < len(self._items) for i in idx):
                obs = "Each item number must be listed once and exist."
            else:
                chosen = frozenset(idx)
                weight, score = self._score(chosen)
                terminated = True
                if weight > self._limit:
                    obs = f"Too heavy ({weight} > {self._limit})."
                elif chosen == self._best:
                    reward, obs = 1.0, f"Optimal packing, score {score}!"
                else:
                    reward = round(0.5 * score / self._best_score, 3)
                    obs = f"Valid packing with score {score}, but a better one exists."
        truncated = not terminated and self._turn >= self.max_turns
        self._done = terminated or truncated
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> str:
        return ", ".join(str(i + 1) for i in sorted(self._best))

    def close(self) -> None:
        pass
