"""Parcel Run: deliver four parcels around a small town (skill: Route Planning).

The town is a 7x7 grid of streets ('.') and blocks ('#'). The courier '@' carries one parcel for each
of four addresses marked 1-4 on the map and delivers one by standing on its address and dropping it.
The shortest tour through all four addresses plus the four drops takes at most 26 turns; the budget
is 30.
"""

from __future__ import annotations

import itertools
import random
import re
from collections import deque
from typing import Any

_SIZE = 7
_STOPS = 4
_DIRS = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}
_WORDS = {"UP": "U", "DOWN": "D", "LEFT": "L", "RIGHT": "R", "NORTH": "U", "SOUTH": "D", "WEST": "L", "EAST": "R"}
_BOX = re.compile(r"\\boxed\{([^{}]*)\}")


def _move_text(action: Any) -> str:
    """The last non-empty \\boxed{...} of a reply, stripped; '' when there is none."""
    if not isinstance(action, str):
        return ""
    found = [box.strip() for box in _BOX.findall(action) if box.strip()]
    return found[-1] if found else ""


def _paths(blocks: set, start: tuple[int, int]) -> dict[tuple[int, int], str]:
    """Shortest move string from start to every reachable street square."""
    paths = {start: ""}
    queue = deque([start])
    while queue:
        r, c = queue.popleft()
        for d, (dr, dc) in _DIRS.items():
            nxt = (r + dr, c + dc)
            if 0 <= nxt[0] < _SIZE and 0 <= nxt[1] < _SIZE and nxt not in blocks and nxt not in paths:
                paths[nxt] = paths[(r, c)] + d
                queue.append(nxt)
    return paths


def _tour(blocks: set, start: tuple[int, int], stops: list[tuple[int, int]]) -> list[str] | None:
    """The shortest walk visiting every stop, with a drop at each, over all visiting orders."""
    best: list[str] | None = None
    for order in itertools.permutations(stops):
        moves: list[str] = []
        here = start
        for stop in order:
            path = _paths(blocks, here).get(stop)
            if path is None:
                return None
            moves += list(path) + ["drop"]
            here = stop
        if best is None or len(moves) < len(best):
            best = moves
    return best


class ParcelRunEnv:
    """Walk the streets and drop each parcel at its address."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 30, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._blocks: set = set()
        self._stops: dict[tuple[int, int], int] = {}
        self._pending: set = set()
        self._delivered = 0
        self._pos = (0, 0)
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Lay out blocks, the depot and four addresses with a tour of at most 26 turns."""
        rng = random.Random(seed)
        cells = [(r, c) for r in range(_SIZE) for c in range(_SIZE)]
        while True:
            blocks = set(rng.sample(cells, 10))
            free = [cell for cell in cells if cell not in blocks]
            start, *stops = rng.sample(free, _STOPS + 1)
            tour = _tour(blocks, start, stops)
            if tour is not None and len(tour) <= 26 and min(len(_paths(blocks, start)[s]) for s in stops) >= 2:
                break
        self._blocks, self._pos = blocks, start
        self._stops = {stop: i + 1 for i, stop in enumerate(stops)}
        self._pending, self._delivered = set(stops), 0
        self._turn, self._terminated, self._truncated = 0, False, False
        intro = (
            "Parcel Run. '#' is a block, '.' a street, '@' the courier, and 1-4 the four addresses you carry a "
            "parcel for (a delivered address shows '*'). Row 1 is the top.\n"
            "Move one square with \\boxed{U}, \\boxed{D}, \\boxed{L} or \\boxed{R}; \\boxed{drop} delivers the parcel "
            "for the address you are standing on.\n"
            f"Deliver all {_STOPS} parcels within {self.max_turns} turns to win.\n" + self._render()
        )
        return intro, self._info()

    def _render(self) -> str:
        def mark(cell: tuple[int, int]) -> str:
            if cell == self._pos:
                return "@"
            if cell in self._stops:
                return str(self._stops[cell]) if cell in self._pending else "*"
            return "#" if cell in self._blocks else "."
        return "\n".join("".join(mark((r, c)) for c in range(_SIZE)) for r in range(_SIZE))

    def _info(self) -> dict:
        return {"turn": self._turn, "max_turns": self.max_turns, "delivered": self._delivered}

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict]:
        """Move or drop; delivering the last parcel wins."""
        if self._terminated or self._truncated:
            return "The game is over; call reset() to play again.", 0.0, self._terminated, self._truncated, self._info()
        self._turn += 1
        reward = 0.0
        word = _move_text(action).upper()
        word = _WORDS.get(word, word)
        if word == "DROP":
            if self._pos in self._stops:
                self._pending.discard(self._pos)
                self._delivered += 1
                obs = f"Parcel for address {self._stops[self._pos]} delivered ({self._delivered} of {_STOPS})."
                if self._delivered == _STOPS:
                    self._terminated, reward = True, 1.0
                    return obs + " Every parcel is delivered. You win!", reward, True, False, self._info()
            else:
                obs = "You have no parcel for this square."
        elif word in _DIRS:
            r, c = self._pos[0] + _DIRS[word][0], self._pos[1] + _DIRS[word][1]
            if 0 <= r < _SIZE and 0 <= c < _SIZE and (r, c) not in self._blocks:
                self._pos = (r, c)
                obs = f"You walk {word}."
            else:
                obs = "A block or the edge of town is in the way."
        else:
            obs = "Invalid move. Use \\boxed{U}, \\boxed{D}, \\boxed{L}, \\boxed{R} or \\boxed{drop}."
        if self._turn >= self.max_turns:
            self._truncated = True
            obs += " Out of turns."
        else:
            obs += f" Turns left: {self.max_turns - self._turn}."
        return obs + "\n" + self._render(), reward, False, self._truncated, self._info()

    def solution(self) -> list[str]:
        """The shortest tour over the remaining addresses."""
        tour = _tour(self._blocks, self._pos, sorted(self._pending)) or []
        return [f"\\boxed{{{m}}}" for m in tour]

    def close(self) -> None:
        """Nothing to release."""
