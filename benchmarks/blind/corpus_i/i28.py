"""Ice Rink: slide across an icy rink and come to rest on the goal (skill: Spatial Planning).

The rink is 8x8 with rocks ('#'). A push sends the skater '@' sliding in one direction until a rock or
the rink's edge stops it; the skater can only stop next to a rock or at the edge, and wins by coming
to rest on the goal 'G' (sliding over it does not count). The shortest solution takes 3 to 7 pushes
against a budget of 10. A restart command puts the skater back on the start square; the turn count
keeps running.
"""

from __future__ import annotations

import random
import re
from collections import deque
from typing import Any

_SIZE = 8
_DIRS = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}
_WORDS = {"UP": "U", "DOWN": "D", "LEFT": "L", "RIGHT": "R", "NORTH": "U", "SOUTH": "D", "WEST": "L", "EAST": "R"}
_BOX = re.compile(r"\\boxed\{([^{}]*)\}")


def _move_text(action: Any) -> str:
    """The last non-empty \\boxed{...} of a reply, stripped; '' when there is none."""
    if not isinstance(action, str):
        return ""
    found = [box.strip() for box in _BOX.findall(action) if box.strip()]
    return found[-1] if found else ""


def _slide(rocks: set, pos: tuple[int, int], d: str) -> tuple[int, int]:
    dr, dc = _DIRS[d]
    r, c = pos
    while 0 <= r + dr < _SIZE and 0 <= c + dc < _SIZE and (r + dr, c + dc) not in rocks:
        r, c = r + dr, c + dc
    return r, c


def _shortest(rocks: set, start: tuple[int, int], goal: tuple[int, int]) -> list[str] | None:
    paths = {start: []}
    queue = deque([start])
    while queue:
        pos = queue.popleft()
        if pos == goal:
            return paths[pos]
        for d in _DIRS:
            nxt = _slide(rocks, pos, d)
            if nxt not in paths:
                paths[nxt] = paths[pos] + [d]
                queue.append(nxt)
    return None


class IceRinkEnv:
    """Push the skater in a direction; it slides until something stops it."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 10, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._rocks: set = set()
        self._start = (0, 0)
        self._goal = (0, 0)
        self._pos = (0, 0)
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Scatter rocks and pick a start and a reachable goal 3-7 pushes away."""
        rng = random.Random(seed)
        cells = [(r, c) for r in range(_SIZE) for c in range(_SIZE)]
        while True:
            rocks = set(rng.sample(cells, rng.randint(8, 12)))
            free = [cell for cell in cells if cell not in rocks]
            start, goal = rng.sample(free, 2)
            path = _shortest(rocks, start, goal)
            if path is not None and 3 <= len(path) <= 7:
                break
        self._rocks, self._start, self._goal = rocks, start, goal
        self._begin()
        intro = (
            "Ice Rink. '#' is rock, '.' ice, '@' the skater, 'G' the goal; row 1 is the top.\n"
            "Push the skater with \\boxed{U}, \\boxed{D}, \\boxed{L} or \\boxed{R}: it slides that way until a rock or "
            "the edge stops it. You win by coming to rest on G; sliding over G does not count.\n"
            "\\boxed{restart} puts the skater back on its start square (the turn count keeps running).\n"
            f"Come to rest on G within {self.max_turns} turns to win.\n" + self._render()
        )
        return intro, self._info()

    def _begin(self) -> None:
        """A fresh attempt: skater on the start square, no turns used."""
        self._pos = self._start
        self._turn, self._terminated, self._truncated = 0, False, False

    def _render(self) -> str:
        return "\n".join("".join("@" if (r, c) == self._pos else "G" if (r, c) == self._goal
                                 else "#" if (r, c) in self._rocks else "." for c in range(_SIZE))
                         for r in range(_SIZE))

    def _info(self) -> dict:
        return {"turn": self._turn, "max_turns": self.max_turns, "skater": self._pos}

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict]:
        """Push once (or restart); resting on G wins."""
        if self._terminated or self._truncated:
            return "The game is over; call reset() to play again.", 0.0, self._terminated, self._truncated, self._info()
        self._turn += 1
        reward = 0.0
        word = _move_text(action).upper()
        word = _WORDS.get(word, word)
        if word == "RESTART":
            self._pos = self._start
            obs = "The skater is back on the start square."
        elif word in _DIRS:
            before = self._pos
            self._pos = _slide(self._rocks, self._pos, word)
            obs = "The skater does not move." if self._pos == before else f"The skater slides {word}."
            if self._pos == self._goal:
                self._terminated, reward = True, 1.0
                return obs + " It comes to rest on the goal. You win!", reward, True, False, self._info()
        else:
            obs = "Invalid move. Use \\boxed{U}, \\boxed{D}, \\boxed{L}, \\boxed{R} or \\boxed{restart}."
        if self._turn >= self.max_turns:
            self._truncated = True
            obs += " Out of turns."
        else:
            obs += f" Turns left: {self.max_turns - self._turn}."
        return obs + "\n" + self._render(), reward, False, self._truncated, self._info()

    def solution(self) -> list[str]:
        """A shortest push sequence from the skater's position, by breadth-first search."""
        return [f"\\boxed{{{d}}}" for d in _shortest(self._rocks, self._pos, self._goal) or []]

    def close(self) -> None:
        """Nothing to release."""
