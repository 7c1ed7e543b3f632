"""Rover Relay: drive a rover across a rocky field to its beacon (skill: Spatial Planning).

The field is 7 rows by 11 columns. A north-south ridge of rock splits it in two and has a single
pass; six boulders are scattered over the field. The rover starts west of the ridge and the beacon
lies east of it, never on the pass row. Each order drives the rover 1 to 3 cells in a straight line;
an order whose line crosses rock or leaves the field is refused. The shortest route takes 4 to 10
orders against a budget of 12, so the rover has to be routed through the pass.
"""

from __future__ import annotations

import random
import re
from collections import deque
from typing import Any

_ROWS, _COLS = 7, 11
_DIRS = {"N": (-1, 0), "S": (1, 0), "E": (0, 1), "W": (0, -1)}
_NAMES = {"N": "north", "S": "south", "E": "east", "W": "west"}
_WORDS = {"NORTH": "N", "SOUTH": "S", "EAST": "E", "WEST": "W", "UP": "N", "DOWN": "S", "RIGHT": "E", "LEFT": "W"}
_BOX = re.compile(r"\\boxed\{([^{}]*)\}")
_ORDER = re.compile(r"([A-Za-z]+)\s*(-?\d{1,4})")


def _move_text(action: Any) -> str:
    """The last non-empty \\boxed{...} of a reply, stripped; '' when there is none."""
    if not isinstance(action, str):
        return ""
    found = [box.strip() for box in _BOX.findall(action) if box.strip()]
    return found[-1] if found else ""


def _inside(r: int, c: int) -> bool:
    return 0 <= r < _ROWS and 0 <= c < _COLS


def _route(rocks: set, start: tuple, goal: tuple) -> list[str] | None:
    """Shortest list of orders from start to goal under the driving rules, or None."""
    paths = {start: []}
    queue = deque([start])
    while queue:
        r, c = queue.popleft()
        if (r, c) == goal:
            return paths[(r, c)]
        for d, (dr, dc) in _DIRS.items():
            for dist in (1, 2, 3):
                line = [(r + dr * k, c + dc * k) for k in range(1, dist + 1)]
                if not all(_inside(*cell) and cell not in rocks for cell in line):
                    break
                if line[-1] not in paths:
                    paths[line[-1]] = paths[(r, c)] + [f"{d}{dist}"]
                    queue.append(line[-1])
    return None


class RoverRelayEnv:
    """Drive the rover '@' onto the beacon 'B' with straight-line orders of 1-3 cells."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 12, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._rocks: set = set()
        self._pos = (0, 0)
        self._goal = (0, 0)
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Lay out the ridge, its pass, the boulders, the rover and the beacon."""
        rng = random.Random(seed)
        while True:
            ridge = rng.randint(4, 6)
            gap = rng.randrange(_ROWS)
            rocks = {(r, ridge) for r in range(_ROWS) if r != gap}
            rows = [r for r in range(_ROWS) if r != gap]
            start = (rng.choice(rows), rng.randrange(0, ridge))
            goal = (rng.choice(rows), rng.randrange(ridge + 1, _COLS))
            spare = [(r, c) for r in range(_ROWS) for c in range(_COLS)
                     if (r, c) not in rocks and (r, c) not in (start, goal, (gap, ridge))]
            rocks |= set(rng.sample(spare, 6))
            route = _route(rocks, start, goal)
            if route is not None and 4 <= len(route) <= 10:
                break
        self._rocks, self._pos, self._goal = rocks, start, goal
        self._turn, self._terminated, self._truncated = 0, False, False
        intro = (
            "Rover Relay. The field is 7 rows by 11 columns: '#' is rock, '.' open ground, '@' your rover, "
            "'B' the beacon; north is up.\n"
            "Each turn give one drive order: a direction N, S, E or W and a distance of 1, 2 or 3 cells, "
            "e.g. \\boxed{E2}.\n"
            "The rover drives in a straight line. If rock or the edge of the field lies anywhere on that line, "
            "the order is refused and the rover stays where it is.\n"
            f"Park the rover on the beacon within {self.max_turns} orders to win.\n"
        )
        return intro + self._render(), self._info()

    def _render(self) -> str:
        rows = []
        for r in range(_ROWS):
            rows.append("".join("@" if (r, c) == self._pos else "B" if (r, c) == self._goal
                                else "#" if (r, c) in self._rocks else "." for c in range(_COLS)))
        return "\n".join(rows)

    def _open(self, r: int, c: int) -> bool:
        return _inside(r, c) and (r, c) not in self._rocks

    def _info(self) -> dict:
        return {"turn": self._turn, "max_turns": self.max_turns, "rover": self._pos}

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict]:
        """Carry out one drive order; parking on the beacon wins."""
        if self._terminated or self._truncated:
            return "The game is over; call reset() to play again.", 0.0, self._terminated, self._truncated, self._info()
        self._turn += 1
        reward = 0.0
        order = _ORDER.fullmatch(_move_text(action))
        word = order.group(1).upper() if order else ""
        word = _WORDS.get(word, word)
        if order is None or word not in _DIRS:
            obs = "Invalid order. Write a direction (N, S, E or W) and a distance of 1-3, e.g. \\boxed{E2}."
        elif int(order.group(2)) not in (1, 2, 3):
            obs = "The rover drives 1, 2 or 3 cells per order."
        else:
            dist = int(order.group(2))
            dr, dc = _DIRS[word]
            r, c = self._pos
            clear = all(self._open(r + dr * k, c + dc * k) for k in range(1, dist + 1))
            if clear:
                self._pos = (r + dr * dist, c + dc * dist)
                obs = f"The rover drives {dist} cell{'s' if dist > 1 else ''} {_NAMES[word]}."
            else:
                obs = f"Order refused: the way {_NAMES[word]} is blocked within {dist} cell{'s' if dist > 1 else ''}."
            if self._pos == self._goal:
                self._terminated, reward = True, 1.0
                return obs + " The rover is parked on the beacon. You win!", reward, True, False, self._info()
        if self._turn >= self.max_turns:
            self._truncated = True
            obs += " Out of orders."
        else:
            obs += f" Orders left: {self.max_turns - self._turn}."
        return obs + "\n" + self._render(), reward, False, self._truncated, self._info()

    def solution(self) -> list[str]:
        """A shortest list of orders from the rover's position, by breadth-first search."""
        route = _route(self._rocks, self._pos, self._goal) or []
        return [f"\\boxed{{{order}}}" for order in route]

    def close(self) -> None:
        """Nothing to release."""
