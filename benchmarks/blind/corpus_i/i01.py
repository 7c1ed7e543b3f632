"""Beacon Bearings: find a beacon on a rectangular field from compass bearings (skill: Binary Search).

The field is 10 to 16 points wide and tall, drawn per episode, with x and y counted from 1 (x grows
east, y grows north). Each search names a point;
the reply is the compass bearing from that point to the beacon (N, NE, E, SE, S, SW, W, NW) or a
find. Searching the same point twice gives the same bearing again. Halving both ranges at once finds
the beacon in at most five searches; the budget is eight.
"""

from __future__ import annotations

import random
import re
from typing import Any

_SIZE = 16
_BOX = re.compile(r"\\boxed\{([^{}]*)\}")


def _move_text(action: Any) -> str:
    """The last non-empty \\boxed{...} of a reply, stripped; '' when there is none."""
    if not isinstance(action, str):
        return ""
    found = [box.strip() for box in _BOX.findall(action) if box.strip()]
    return found[-1] if found else ""


def _bearing(frm: tuple[int, int], to: tuple[int, int]) -> str:
    ns = "N" if to[1] > frm[1] else "S" if to[1] < frm[1] else ""
    ew = "E" if to[0] > frm[0] else "W" if to[0] < frm[0] else ""
    return ns + ew


class BeaconBearingsEnv:
    """Search points on the field; each miss gives the bearing to the beacon."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 8, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._width = self._height = _SIZE
        self._beacon = (1, 1)
        self._searched: dict[tuple[int, int], str] = {}
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Place the beacon."""
        rng = random.Random(seed)
        self._width, self._height = rng.randint(10, _SIZE), rng.randint(10, _SIZE)
        self._beacon = (rng.randint(1, self._width), rng.randint(1, self._height))
        self._searched = {}
        self._turn, self._terminated, self._truncated = 0, False, False
        intro = (
            f"Beacon Bearings. A beacon stands on a point (x, y) of a field {self._width} wide and {self._height} tall: "
            f"x runs from 1 to {self._width} (growing to the east), y from 1 to {self._height} (growing to the north).\n"
            "Each turn search a point, e.g. \\boxed{8 8}. Unless the beacon is there, you are told its compass "
            "bearing from that point: N, NE, E, SE, S, SW, W or NW.\n"
            f"Find the beacon within {self.max_turns} searches to win."
        )
        return intro, self._info()

    def _info(self) -> dict:
        return {"turn": self._turn, "max_turns": self.max_turns, "searches": len(self._searched)}

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict]:
        """Search one point; the beacon's point wins."""
        if self._terminated or self._truncated:
            return "The game is over; call reset() to play again.", 0.0, self._terminated, self._truncated, self._info()
        self._turn += 1
        reward = 0.0
        point = re.fullmatch(r"\(?\s*(-?\d{1,3})\s*[, ]\s*(-?\d{1,3})\s*\)?", _move_text(action))
        xy = (int(point.group(1)), int(point.group(2))) if point else None
        if xy is None:
            obs = "Invalid search. Write two coordinates, e.g. \\boxed{8 8}."
        elif not (1 <= xy[0] <= self._width and 1 <= xy[1] <= self._height):
            obs = f"({xy[0]}, {xy[1]}) is off the field: x runs from 1 to {self._width}, y from 1 to {self._height}."
        elif xy == self._beacon:
            self._terminated, reward = True, 1.0
            return f"The beacon is at ({xy[0]}, {xy[1]}). Found it. You win!", reward, True, False, self._info()
        elif xy in self._searched:
            obs = f"You searched ({xy[0]}, {xy[1]}) before: the beacon still lies {self._searched[xy]} of it."
        else:
            self._searched[xy] = _bearing(xy, self._beacon)
            obs = f"No beacon at ({xy[0]}, {xy[1]}). It lies {self._searched[xy]}."
        if self._turn >= self.max_turns:
            self._truncated = True
            obs += " Out of searches."
        else:
            obs += f" Searches left: {self.max_turns - self._turn}."
        return obs, reward, False, self._truncated, self._info()

    def solution(self) -> list[str]:
        """Search the beacon's point."""
        return [f"\\boxed{{{self._beacon[0]} {self._beacon[1]}}}"]

    def close(self) -> None:
        """Nothing to release."""
