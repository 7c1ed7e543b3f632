"""Courier Route: deliver every parcel before the van runs out of fuel (skill: route planning).

A van starts at the depot on a city grid. Five parcels (P1..P5) must be delivered to addresses given
as (x, y) coordinates; driving between two points costs their Manhattan distance in fuel. The tank
holds only a little more than the shortest possible route, so the delivery order matters. Each turn
the player names the next parcel to deliver, e.g. \\boxed{P3}.

Rewards: every delivery but the last earns 0.1 (progress feedback); delivering the last parcel earns
1.0 and ends the episode. Running out of fuel ends the episode with reward 0.
"""

from __future__ import annotations

import itertools
import random
import re
from typing import Any

_PARCELS = 5


def _dist(a: tuple[int, int], b: tuple[int, int]) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


class CourierRouteEnv:
    """Order the deliveries so that the fuel lasts."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 8, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._depot = (0, 0)
        self._stops: dict[str, tuple[int, int]] = {}
        self._position = (0, 0)
        self._fuel = 0
        self._pending: list[str] = []
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        points = rng.sample([(x, y) for x in range(10) for y in range(10)], _PARCELS + 1)
        self._depot = points[0]
        self._stops = {f"P{i + 1}": p for i, p in enumerate(points[1:])}
        self._position = self._depot
        self._fuel = self._best_length() + 2
        self._pending = sorted(self._stops)
        self._turn, self._terminated, self._truncated = 0, False, False
        listing = "\n".join(f"  {name}: ({x}, {y})" for name, (x, y) in sorted(self._stops.items()))
        text = ("Courier Route. The van is at the depot at "
                f"({self._depot[0]}, {self._depot[1]}) with {self._fuel} units of fuel. Parcels:\n" + listing +
                "\nDriving from (x1, y1) to (x2, y2) uses |x1 - x2| + |y1 - y2| fuel. Each turn, name the next "
                "parcel to deliver, e.g. \\boxed{P2}. Deliver all five without running dry. The van does "
                "not need to return to the depot.")
        return text, self._info()

    def _best_length(self) -> int:
        best = None
        for order in itertools.permutations(sorted(self._stops)):
            here, total = self._depot, 0
            for name in order:
                total += _dist(here, self._stops[name])
                here = self._stops[name]
            if best is None or total < best:
                best = total
        return best or 0

    def _info(self) -> dict:
        return {"turn": self._turn, "fuel": self._fuel, "position": list(self._position),
                "pending": list(self._pending)}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._terminated or self._truncated:
            return "The shift is over.", 0.0, self._terminated, self._truncated, self._info()
        self._turn += 1
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
        name = boxes[-1].strip().upper().replace(" ", "") if boxes else ""
        reward = 0.0
        if name not in self._pending:
            obs = "Name a parcel that is still pending: " + ", ".join(self._pending) + "."
        else:
            cost = _dist(self._position, self._stops[name])
            if cost > self._fuel:
                self._terminated = True
                obs = f"Driving to {name} needs {cost} fuel but only {self._fuel} is left. The van is stranded."
            else:
                self._fuel -= cost
                self._position = self._stops[name]
                self._pending.remove(name)
                if self._pending:
                    reward = 0.1
                    obs = f"Delivered {name}. Fuel left: {self._fuel}. Pending: {', '.join(self._pending)}."
                else:
                    self._terminated, reward = True, 1.0
                    obs = f"Delivered {name}. All parcels delivered with {self._fuel} fuel to spare!"
        if not self._terminated and self._turn >= self.max_turns:
            self._truncated = True
            obs += " The shift has ended."
        return obs, reward, self._terminated, self._truncated, self._info()

    def solution(self) -> list[str]:
        best, best_order = None, ()
        for order in itertools.permutations(sorted(self._stops)):
            here, total = self._depot, 0
            for name in order:
                total += _dist(here, self._stops[name])
                here = self._stops[name]
            if best is None or total < best:
                best, best_order = total, order
        return [f"\\boxed{{{name}}}" for name in best_order]

    def close(self) -> None:
        """Nothing to release."""
