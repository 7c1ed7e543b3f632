"""Locked Cellar: fetch a key, open a door and leave a cellar (skill: Spatial Planning).

A 7x11 cellar is split by a wall with one locked door 'D'. The player '@' starts on the west side
with the key 'k'; the exit 'E' is on the east side. Walking onto the key picks it up; walking into the
door with the key opens it. Loose crates '#' block some squares. Besides walking, the player may ask
for \\boxed{status} (position, whether the key is held, turns left) or \\boxed{look} (the map again);
both use a turn and show only what the player can already see. The budget leaves a few spare turns
over the shortest route.
"""

from __future__ import annotations

import random
import re
from collections import deque
from typing import Any

_ROWS, _COLS = 7, 11
_DIRS = {"north": (-1, 0), "south": (1, 0), "east": (0, 1), "west": (0, -1)}
_ALIASES = {"n": "north", "s": "south", "e": "east", "w": "west", "up": "north", "down": "south",
            "right": "east", "left": "west"}
_BOX = re.compile(r"\\boxed\{([^{}]*)\}")


def _path(grid: list[list[str]], start: tuple[int, int], goal: tuple[int, int], passable: str) -> list[str]:
    """Shortest list of directions from start to goal over cells whose symbol is in `passable`."""
    back: dict[tuple[int, int], tuple[tuple[int, int], str] | None] = {start: None}
    queue = deque([start])
    while queue:
        r, c = queue.popleft()
        if (r, c) == goal:
            break
        for name, (dr, dc) in _DIRS.items():
            nxt = (r + dr, c + dc)
            if 0 <= nxt[0] < _ROWS and 0 <= nxt[1] < _COLS and nxt not in back and grid[nxt[0]][nxt[1]] in passable:
                back[nxt] = ((r, c), name)
                queue.append(nxt)
    if goal not in back:
        return []
    moves = []
    while back[goal] is not None:
        goal, name = back[goal]
        moves.append(name)
    return moves[::-1]


class LockedCellarEnv:
    """Take the key, open the door and reach the exit."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 30, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._grid: list[list[str]] = []
        self._pos = (0, 0)
        self._has_key = False
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Draw the dividing wall, door, crates, key, start and exit; keep layouts that are solvable
        in at most 24 moves."""
        rng = random.Random(seed)
        while True:
            grid = [["." for _ in range(_COLS)] for _ in range(_ROWS)]
            wall = rng.randint(4, 6)
            for r in range(_ROWS):
                grid[r][wall] = "|"
            door = (rng.randrange(_ROWS), wall)
            grid[door[0]][door[1]] = "D"
            free = [(r, c) for r in range(_ROWS) for c in range(_COLS) if grid[r][c] == "."]
            for r, c in rng.sample(free, 10):
                grid[r][c] = "#"
            west = [(r, c) for r in range(_ROWS) for c in range(wall) if grid[r][c] == "."]
            east = [(r, c) for r in range(_ROWS) for c in range(wall + 1, _COLS) if grid[r][c] == "."]
            start, key = rng.sample(west, 2)
            exit_ = rng.choice(east)
            grid[key[0]][key[1]] = "k"
            grid[exit_[0]][exit_[1]] = "E"
            leg1 = _path(grid, start, key, ".k")
            leg2 = _path(grid, key, door, ".kD")
            leg3 = _path(grid, door, exit_, ".E")
            if leg1 and leg2 and leg3 and len(leg1) + len(leg2) + len(leg3) <= 24:
                break
        self._grid, self._pos, self._has_key = grid, start, False
        self._turn, self._terminated, self._truncated = 0, False, False
        intro = (
            "Locked Cellar. '@' is you, 'k' the key, 'D' a locked door, 'E' the exit, '|' wall, '#' crates, "
            "'.' floor. Row 1 is the top.\n"
            "Each turn walk one square: \\boxed{north}, \\boxed{south}, \\boxed{east} or \\boxed{west}. Step on "
            "the key to take it; walk into the door with the key to open it.\n"
            "\\boxed{status} shows your position, whether you hold the key and the turns left; \\boxed{look} "
            "shows the map. Both use a turn.\n"
            f"Reach E within {self.max_turns} turns to win.\n" + self._render()
        )
        return intro, self._info()

    def _render(self) -> str:
        rows = []
        for r in range(_ROWS):
            rows.append(" " + "".join("@" if (r, c) == self._pos else self._grid[r][c] for c in range(_COLS)))
        return "\n".join(rows)

    def _info(self) -> dict:
        return {"turn": self._turn, "max_turns": self.max_turns, "key": self._has_key}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        """Walk, look or ask for status; reaching the exit wins, running out of turns truncates."""
        if self._terminated or self._truncated:
            return "The game is over; call reset() to play again.", 0.0, self._terminated, self._truncated, self._info()
        self._turn += 1
        boxes = [b for b in _BOX.findall(action) if b.strip()] if isinstance(action, str) else []
        word = boxes[-1].strip().lower() if boxes else ""
        word = _ALIASES.get(word, word)
        if word == "status":
            obs = (f"You are at row {self._pos[0] + 1}, column {self._pos[1] + 1}; you "
                   f"{'hold' if self._has_key else 'do not hold'} the key.")
        elif word == "look":
            obs = self._render()
        elif word in _DIRS:
            dr, dc = _DIRS[word]
            r, c = self._pos[0] + dr, self._pos[1] + dc
            cell = self._grid[r][c] if 0 <= r < _ROWS and 0 <= c < _COLS else "|"
            if cell in "|#":
                obs = f"Something blocks the way {word}."
            elif cell == "D" and not self._has_key:
                obs = "The door is locked. You need the key."
            else:
                if cell == "D":
                    self._grid[r][c] = "."
                    obs = f"You unlock the door and step through it, {word}."
                else:
                    obs = f"You walk {word}."
                self._pos = (r, c)
                if cell == "k":
                    self._has_key = True
                    self._grid[r][c] = "."
                    obs += " You pick up the key."
                if cell == "E":
                    self._terminated = True
                    return obs + " You are out of the cellar!", 1.0, True, False, self._info()
            obs += "\n" + self._render()
        else:
            obs = ("Invalid move. Use \\boxed{north}, \\boxed{south}, \\boxed{east}, \\boxed{west}, "
                   "\\boxed{status} or \\boxed{look}.")
        if self._turn >= self.max_turns:
            self._truncated = True
            obs += " Out of turns."
        else:
            obs += f" Turns left: {self.max_turns - self._turn}."
        return obs, 0.0, False, self._truncated, self._info()

    def solution(self) -> list[str]:
        """Walk to the key, then to the door, then to the exit, each leg by breadth-first search."""
        grid = self._grid
        key = next(((r, c) for r in range(_ROWS) for c in range(_COLS) if grid[r][c] == "k"), None)
        door = next(((r, c) for r in range(_ROWS) for c in range(_COLS) if grid[r][c] == "D"), None)
        exit_ = next((r, c) for r in range(_ROWS) for c in range(_COLS) if grid[r][c] == "E")
        moves, here = [], self._pos
        if key is not None:
            moves += _path(grid, here, key, ".k")
            here = key
        if door is not None:
            moves += _path(grid, here, door, ".kD")
            here = door
        moves += _path(grid, here, exit_, ".kDE")
        return [f"\\boxed{{{m}}}" for m in moves]

    def close(self) -> None:
        """Nothing to release."""
