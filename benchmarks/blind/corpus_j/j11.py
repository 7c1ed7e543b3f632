"""Dark Cave: find the way out of a cave you can only see one step around you (skill: Exploration).

The cave is a 9x13 maze of rock '#' and floor '.', carved per seed, with the exit 'E' 12-18 steps
from the start. A lantern shows only the eight squares around the player; everything seen so far is
remembered and can be drawn with the `map` command. Moves are north, south, east and west; 30 turns.
"""

from __future__ import annotations

import random
import re
from collections import deque
from typing import Any

_ROWS, _COLS = 9, 13
_DIRS = {"north": (-1, 0), "south": (1, 0), "west": (0, -1), "east": (0, 1)}
_SHORT = {"n": "north", "s": "south", "w": "west", "e": "east", "up": "north", "down": "south",
          "left": "west", "right": "east"}


class DarkCaveEnv:
    """Walk out of a dark cave; `map` draws what you have seen."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 30, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._rock: set[tuple[int, int]] = set()
        self._all: set[tuple[int, int]] = set()
        self._seen: set[tuple[int, int]] = set()
        self._pos = (1, 1)
        self._exit = (1, 1)
        self._turn = 0
        self._out = False
        self._won = False
        self.reset()

    def _paths(self, start: tuple[int, int]) -> dict[tuple[int, int], list[str]]:
        paths = {start: []}
        queue = deque([start])
        while queue:
            r, c = queue.popleft()
            for name, (dr, dc) in _DIRS.items():
                nxt = (r + dr, c + dc)
                if nxt in self._all and nxt not in self._rock and nxt not in paths:
                    paths[nxt] = paths[(r, c)] + [name]
                    queue.append(nxt)
        return paths

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Carve the cave, choose start and exit, light the start."""
        rng = random.Random(seed)
        self._all = {(r, c) for r in range(_ROWS) for c in range(_COLS)}
        while True:
            floor = {(1, 1)}
            stack = [(1, 1)]
            while stack:
                r, c = stack[-1]
                options = [(r + dr, c + dc) for dr, dc in ((-2, 0), (2, 0), (0, -2), (0, 2))
                           if 0 < r + dr < _ROWS - 1 and 0 < c + dc < _COLS - 1 and (r + dr, c + dc) not in floor]
                if not options:
                    stack.pop()
                    continue
                nr, nc = rng.choice(options)
                floor |= {((r + nr) // 2, (c + nc) // 2), (nr, nc)}
                stack.append((nr, nc))
            walls = sorted(cell for cell in self._all - floor
                           if 0 < cell[0] < _ROWS - 1 and 0 < cell[1] < _COLS - 1 and cell[0] % 2 != cell[1] % 2)
            floor |= set(rng.sample(walls, 4))
            self._rock = self._all - floor
            start = rng.choice(sorted(floor))
            far = sorted(cell for cell, p in self._paths(start).items() if 12 <= len(p) <= 18)
            if far:
                break
        self._pos, self._exit = start, rng.choice(far)
        self._seen = set()
        self._look()
        self._turn, self._out, self._won = 0, False, False
        text = (
            f"Dark Cave. You are lost in a {_ROWS}x{_COLS} cave with a weak lantern that lights only the squares "
            "around you.\nMove with \\boxed{north}, \\boxed{south}, \\boxed{east} or \\boxed{west}. "
            "Commands: \\boxed{look} describes your surroundings, \\boxed{map} draws every square you have seen "
            "('#' rock, '.' floor, '@' you, 'E' the exit, '?' unseen).\n"
            f"Find the exit within {self.max_turns} turns.\n" + self._describe()
        )
        return text, self._info()

    def _look(self) -> None:
        r, c = self._pos
        self._seen |= {(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)} & self._all

    def _describe(self) -> str:
        r, c = self._pos
        open_ways = [name for name, (dr, dc) in _DIRS.items()
                     if (r + dr, c + dc) in self._all and (r + dr, c + dc) not in self._rock]
        glow = " You see daylight right next to you!" if abs(self._exit[0] - r) <= 1 and abs(self._exit[1] - c) <= 1 else ""
        return f"Passages lead {', '.join(open_ways) or 'nowhere'}.{glow}"

    def _render(self, known: set[tuple[int, int]]) -> str:
        rows = []
        for r in range(_ROWS):
            line = ""
            for c in range(_COLS):
                cell = (r, c)
                if cell == self._pos:
                    line += "@"
                elif cell not in known:
                    line += "?"
                elif cell == self._exit:
                    line += "E"
                else:
                    line += "#" if cell in self._rock else "."
            rows.append(line)
        return "\n".join(rows)

    def _info(self) -> dict:
        return {"turn": self._turn, "position": self._pos, "seen": len(self._seen)}

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict]:
        """Move one square or run a command."""
        if self._out:
            return "The adventure is over; reset() for another cave.", 0.0, self._won, not self._won, self._info()
        self._turn += 1
        found = [b for b in re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "") if b.strip()]
        word = re.sub(r"^(go|walk|move)\s+", "", found[-1].strip().lower()) if found else ""
        word = _SHORT.get(word, word)
        if word == "map":
            shown = self._seen
            obs = "You sketch the cave:\n" + self._render(shown)
        elif word == "look":
            obs = self._describe()
        elif word in _DIRS:
            dr, dc = _DIRS[word]
            nxt = (self._pos[0] + dr, self._pos[1] + dc)
            if nxt not in self._all or nxt in self._rock:
                obs = f"Solid rock to the {word}."
            else:
                self._pos = nxt
                self._look()
                if nxt == self._exit:
                    self._out, self._won = True, True
                    return "You squeeze through a crack into daylight. You escaped!", 1.0, True, False, self._info()
                obs = f"You walk {word}. " + self._describe()
        else:
            obs = "Go north, south, east or west, or use look / map, e.g. \\boxed{north}."
        if self._turn >= self.max_turns:
            self._out = True
            return obs + "\nYour lantern dies. The cave was:\n" + self._render(self._all), 0.0, False, True, self._info()
        return f"{obs} ({self.max_turns - self._turn} turns of oil left)", 0.0, False, False, self._info()

    def solution(self) -> list[str]:
        """Shortest walk to the exit."""
        return [f"\\boxed{{{d}}}" for d in self._paths(self._pos)[self._exit]]

    def close(self) -> None:
        """Nothing to release."""
