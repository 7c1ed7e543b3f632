"""Courier Route: drive a parcel across a road network one town at a time (skill: Route Planning).

Twelve towns are joined by a seeded random road network: a spanning tree plus three extra roads, so
there are loops and dead ends. The courier starts in one town and must reach the destination, five to
seven roads away, by driving along one road per turn. Every road is listed in the first observation
and the current town's roads are repeated after every move, so a driver who plans the route on the
map arrives in time; one who drives at random rarely does.
"""

from __future__ import annotations

import random
import re
from collections import deque
from typing import Any

_TOWNS = (
    "Ashford", "Brill", "Corbin", "Dunmore", "Elstow", "Fenwick", "Garth", "Holbrook", "Ivel", "Jarrow",
    "Kelso", "Lydd", "Marden", "Norham", "Otley", "Penrith", "Quarley", "Rye", "Selby", "Tring",
)
_BOX = re.compile(r"\\boxed\{([^{}]*)\}")
_GO = re.compile(r"^(?:go|drive)\s+(?:to\s+)?([a-z]+)$")


def _move_text(action: Any) -> str:
    """The last non-empty \\boxed{...} of a reply, stripped; '' when there is none."""
    if not isinstance(action, str):
        return ""
    boxes = [box for box in _BOX.findall(action) if box.strip()]
    return boxes[-1].strip() if boxes else ""


def _route(roads: dict[str, set[str]], start: str, goal: str) -> list[str]:
    """Shortest list of towns from start to goal (both included) by breadth-first search."""
    back: dict[str, str | None] = {start: None}
    queue = deque([start])
    while queue:
        town = queue.popleft()
        for nxt in sorted(roads[town]):
            if nxt not in back:
                back[nxt] = town
                queue.append(nxt)
    if goal not in back:
        return []
    path = [goal]
    while back[path[-1]] is not None:
        path.append(back[path[-1]])
    return path[::-1]


class CourierRouteEnv:
    """Drive from town to town along the roads until the parcel reaches its destination."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 10, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._roads: dict[str, set[str]] = {}
        self._here = self._start = self._goal = ""
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Build a connected network with loops and pick a destination 5-7 roads from the start."""
        rng = random.Random(seed)
        while True:
            towns = rng.sample(_TOWNS, 12)
            roads: dict[str, set[str]] = {town: set() for town in towns}
            for i in range(1, len(towns)):
                other = rng.choice(towns[:i])
                roads[towns[i]].add(other)
                roads[other].add(towns[i])
            extra = 0
            while extra < 3:
                a, b = rng.sample(towns, 2)
                if b not in roads[a]:
                    roads[a].add(b)
                    roads[b].add(a)
                    extra += 1
            start = rng.choice(towns)
            far = sorted(t for t in towns if 5 <= len(_route(roads, start, t)) - 1 <= 7)
            if far:
                break
        self._roads, self._start, self._goal = roads, start, rng.choice(far)
        self._here = start
        self._turn, self._terminated, self._truncated = 0, False, False
        lines = [f"  {town} - {', '.join(sorted(roads[town]))}" for town in sorted(roads)]
        intro = (
            f"Courier Route. Deliver the parcel from {start} to {self._goal}.\n"
            "Roads (each can be driven both ways):\n" + "\n".join(lines) + "\n"
            "Each turn drive along ONE road to a neighbouring town, e.g. \\boxed{go "
            f"{sorted(roads[start])[0]}}}.\n"
            f"Arrive in {self._goal} within {self.max_turns} turns to win.\n"
            f"{self._where()}"
        )
        return intro, self._info()

    def _where(self) -> str:
        return f"You are in {self._here}; roads lead to: {', '.join(sorted(self._roads[self._here]))}."

    def _info(self) -> dict:
        return {"turn": self._turn, "max_turns": self.max_turns, "town": self._here}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        """Drive one road; reaching the destination wins, running out of turns truncates."""
        if self._terminated or self._truncated:
            return "The delivery is over; call reset() to start a new one.", 0.0, self._terminated, self._truncated, self._info()
        self._turn += 1
        match = _GO.match(_move_text(action).lower())
        dest = None
        if match:
            dest = next((town for town in self._roads if town.lower() == match.group(1)), None)
        if match is None:
            obs = "Invalid move. Write \\boxed{go TOWN} with the name of a neighbouring town."
        elif dest is None:
            obs = f"There is no town called '{match.group(1)[:20]}' on the map."
        elif dest == self._here:
            obs = f"You are already in {dest}."
        elif dest not in self._roads[self._here]:
            obs = f"There is no road from {self._here} to {dest}; you stay where you are."
        else:
            self._here = dest
            obs = f"You drive to {dest}."
            if dest == self._goal:
                self._terminated = True
                return obs + " Parcel delivered!", 1.0, True, False, self._info()
        if self._turn >= self.max_turns:
            self._truncated = True
            obs += f" Out of turns: the parcel never reached {self._goal}."
        else:
            obs += f"\n{self._where()} Turns left: {self.max_turns - self._turn}."
        return obs, 0.0, False, self._truncated, self._info()

    def solution(self) -> list[str]:
        """The shortest route from the current town, one drive per turn."""
        return [f"\\boxed{{go {town}}}" for town in _route(self._roads, self._here, self._goal)[1:]]

    def close(self) -> None:
        """Nothing to release."""
