"""Ice Rink: slide a puck across the ice onto a goal square (skill: Spatial Planning).

A 7x7 rink holds a few rocks. A push sends the puck sliding in one direction until a rock or the
rink's edge stops it; it must come to rest exactly on the goal square (sliding over it does not
count). The goal is placed four to six pushes away and the budget is eight turns. A restart command
puts the puck back on its starting square (it uses a turn like any other move), so a player who
wanders into a corner can begin again, but only a planned route arrives in time.
"""

from __future__ import annotations

import random
import re
from collections import deque
from typing import Any

_N = 7
_DIRS = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}
_ALIASES = {"u": "up", "d": "down", "l": "left", "r": "right", "north": "up", "south": "down",
            "west": "left", "east": "right"}
_BOX = re.compile(r"\\boxed\{([^{}]*)\}")


def _slide(rocks: set[tuple[int, int]], pos: tuple[int, int], direction: str) -> tuple[int, int]:
    dr, dc = _DIRS[direction]
    r, c = pos
    while 0 <= r + dr < _N and 0 <= c + dc < _N and (r + dr, c + dc) not in rocks:
        r, c = r + dr, c + dc
    return r, c


def _routes(rocks: set[tuple[int, int]], start: tuple[int, int]) -> dict[tuple[int, int], list[str]]:
    """Fewest pushes from start to every resting square."""
    paths = {start: []}
    queue = deque([start])
    while queue:
        pos = queue.popleft()
        for direction in _DIRS:
            nxt = _slide(rocks, pos, direction)
            if nxt not in paths:
                paths[nxt] = paths[pos] + [direction]
                queue.append(nxt)
    return paths


class IceRinkEnv:
    """Push the puck until it rests on the goal."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 8, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._rocks: set[tuple[int, int]] = set()
        self._start = self._pos = self._goal = (0, 0)
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Scatter rocks and pick a goal 4-6 pushes from the start."""
        rng = random.Random(seed)
        cells = [(r, c) for r in range(_N) for c in range(_N)]
        while True:
            rocks = set(rng.sample(cells, 9))
            start = rng.choice([cell for cell in cells if cell not in rocks])
            paths = _routes(rocks, start)
            goals = sorted(cell for cell, path in paths.items() if 4 <= len(path) <= 6)
            if goals:
                break
        self._rocks, self._start, self._goal = rocks, start, rng.choice(goals)
        self._pos = start
        self._turn, self._terminated, self._truncated = 0, False, False
        intro = (
            "Ice Rink. 'o' is the puck, 'X' the goal, '#' a rock, '.' ice.\n"
            "Each turn push the puck \\boxed{up}, \\boxed{down}, \\boxed{left} or \\boxed{right}: it slides until "
            "a rock or the edge stops it, and must come to REST on X. \\boxed{restart} puts the puck back on its "
            "starting square (this also uses a turn).\n"
            f"Stop on the goal within {self.max_turns} turns to win.\n" + self._render()
        )
        return intro, self._info()

    def _render(self) -> str:
        rows = []
        for r in range(_N):
            rows.append(" " + "".join("o" if (r, c) == self._pos else "X" if (r, c) == self._goal
                                      else "#" if (r, c) in self._rocks else "." for c in range(_N)))
        return "\n".join(rows)

    def _info(self) -> dict:
        return {"turn": self._turn, "max_turns": self.max_turns, "puck": self._pos}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        """Push or restart; resting on the goal wins, running out of turns truncates."""
        if self._terminated or self._truncated:
            return "The game is over; call reset() to play again.", 0.0, self._terminated, self._truncated, self._info()
        self._turn += 1
        boxes = [b for b in _BOX.findall(action) if b.strip()] if isinstance(action, str) else []
        word = boxes[-1].strip().lower() if boxes else ""
        word = _ALIASES.get(word, word)
        if word == "restart":
            self._pos, self._turn = self._start, 0
            obs = "The puck is back on its starting square."
        elif word in _DIRS:
            self._pos = _slide(self._rocks, self._pos, word)
            obs = f"The puck slides {word}."
            if self._pos == self._goal:
                self._terminated = True
                return obs + " It stops on the goal!\n" + self._render(), 1.0, True, False, self._info()
        else:
            obs = "Invalid move. Use \\boxed{up}, \\boxed{down}, \\boxed{left}, \\boxed{right} or \\boxed{restart}."
        if self._turn >= self.max_turns:
            self._truncated = True
            obs += " Out of turns."
        else:
            obs += f" Turns left: {self.max_turns - self._turn}."
        return obs + "\n" + self._render(), 0.0, False, self._truncated, self._info()

    def solution(self) -> list[str]:
        """The fewest pushes from the current square."""
        return [f"\\boxed{{{d}}}" for d in _routes(self._rocks, self._pos)[self._goal]]

    def close(self) -> None:
        """Nothing to release."""
