"""Road Atlas: which town is farthest away by road? (skill: shortest paths).

Seven towns are joined by two-way roads with lengths in km. The distance between two towns is the
length of the shortest route along the roads. The player names the town that is FARTHEST from a given
home town by that distance, e.g. \\boxed{Ashby}. Networks are drawn so that the answer is unique.
"""

from __future__ import annotations

import heapq
import random
import re
from typing import Any

_TOWNS = ["Ashby", "Bexley", "Corby", "Dorking", "Epsom", "Frome", "Goole", "Hexham", "Ilkley", "Jedburgh"]


class RoadAtlasEnv:
    """Find the town with the largest shortest-path distance from home."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._roads: dict[str, dict[str, int]] = {}
        self._home = "Ashby"
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        while True:
            towns = rng.sample(_TOWNS, 7)
            roads: dict[str, dict[str, int]] = {t: {} for t in towns}
            for i in range(1, 7):
                other = towns[rng.randrange(i)]
                length = rng.randint(5, 60)
                roads[towns[i]][other] = roads[other][towns[i]] = length
            for _ in range(rng.randint(2, 4)):
                a, b = rng.sample(towns, 2)
                length = rng.randint(5, 60)
                roads[a][b] = roads[b][a] = length
            home = rng.choice(towns)
            self._roads, self._home = roads, home
            values = sorted(self._distances().values())
            if len(values) == len(set(values)):
                break
        self._turn, self._terminated, self._truncated = 0, False, False
        edges = sorted({tuple(sorted((a, b))) for a in roads for b in roads[a]})
        lines = [f"  {a} - {b}: {roads[a][b]} km" for a, b in edges]
        text = (f"Road Atlas. Roads between towns (two-way):\n" + "\n".join(lines)
                + f"\nMeasuring distance as the shortest route along the roads, which town is FARTHEST from "
                f"{home}? Answer with the town's name in a box, e.g. \\boxed{{{towns[0]}}}.")
        return text, {"turn": 0, "home": home}

    def _distances(self) -> dict[str, int]:
        dist = {self._home: 0}
        heap = [(0, self._home)]
        while heap:
            d, town = heapq.heappop(heap)
            if d > dist.get(town, 10 ** 9):
                continue
            for nxt, length in self._roads[town].items():
                if d + length < dist.get(nxt, 10 ** 9):
                    dist[nxt] = d + length
                    heapq.heappush(heap, (d + length, nxt))
        return {t: d for t, d in dist.items() if t != self._home}

    def _target(self) -> str:
        dist = self._distances()
        return sorted(dist, key=dist.get)[0]

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._terminated or self._truncated:
            return "Episode over.", 0.0, self._terminated, self._truncated, {"turn": self._turn, "home": self._home}
        self._turn += 1
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
        pick = boxes[-1].strip().title() if boxes else ""
        reward = 0.0
        if pick not in self._roads or pick == self._home:
            obs = "Answer with the name of one of the other towns in a box."
        else:
            self._terminated = True
            if pick == self._target():
                reward, obs = 1.0, "Correct."
            else:
                obs = "That is not the answer."
        if not self._terminated and self._turn >= self.max_turns:
            self._truncated = True
            obs += " No turns left."
        return obs, reward, self._terminated, self._truncated, {"turn": self._turn, "home": self._home}

    def solution(self) -> str:
        return self._target()

    def close(self) -> None:
        """Nothing to release."""
