# expect: distinct_tasks
"""Lantern Maze: carry a lantern through a dark maze to the exit (a defect-zoo environment).

The environment: a multi-turn text game on a 6x6 grid with walls. The agent moves north/south/east/
west and wins on reaching the exit; the shortest route takes 7 to 12 moves and the budget is 16.

The defect: the layout generator is seeded with ``random.Random(seed % 3)``, so over all seeds there
are only three mazes. An agent (or a policy under training) can memorise three routes and win every
seed without reading the maze.
Exploit: replay, on every seed, the solution of seed (seed % 3), i.e. of seed 0, 1 or 2; this wins
every seed, and only three distinct first observations exist.
"""

import random
import re
from collections import deque

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")
MOVES = {"north": (-1, 0), "south": (1, 0), "east": (0, 1), "west": (0, -1)}
SIZE = 6


class LanternMazeEnv:
    """Walk from the entrance to the exit."""

    def __init__(self, max_turns=16, **kwargs):
        self.max_turns = max_turns
        self._walls = set()
        self._pos = (0, 0)
        self._exit = (5, 5)
        self._route = []
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        self.reset()

    def _shortest(self, start, goal):
        previous = {start: None}
        queue = deque([start])
        while queue:
            cell = queue.popleft()
            for name, (dr, dc) in MOVES.items():
                nxt = (cell[0] + dr, cell[1] + dc)
                if 0 <= nxt[0] < SIZE and 0 <= nxt[1] < SIZE and nxt not in self._walls and nxt not in previous:
                    previous[nxt] = (cell, name)
                    queue.append(nxt)
        if goal not in previous:
            return None
        path, cell = [], goal
        while previous[cell] is not None:
            cell, name = previous[cell]
            path.append(name)
        return path[::-1]

    def reset(self, seed=None):
        rng = random.Random((seed or 0) % 3)  # defect: only three layouts
        cells = [(r, c) for r in range(SIZE) for c in range(SIZE)]
        while True:
            self._walls = set(rng.sample(cells, 9))
            free = [c for c in cells if c not in self._walls]
            self._pos, self._exit = rng.sample(free, 2)
            route = self._shortest(self._pos, self._exit)
            if route and 7 <= len(route) <= 12:
                break
        self._route = route
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        walls = ", ".join(map(str, sorted(self._walls)))
        return ("Lantern Maze. Rows 0-5 run north to south, columns 0-5 west to east. Walls at: "
                f"{walls}. You stand at {self._pos}; the exit is at {self._exit}. Moves: \\boxed{{north}}, "
                f"\\boxed{{south}}, \\boxed{{east}}, \\boxed{{west}}. You have {self.max_turns} moves."), {}

    def step(self, action):
        if self._done:
            return "The maze is behind you; call reset().", 0.0, self._ended[0], self._ended[1], {}
        self._turn += 1
        action = action if isinstance(action, str) else str(action)
        found = _BOXED.findall(action)
        move = found[-1].strip().lower() if found else ""
        reward, terminated = 0.0, False
        if move not in MOVES:
            message = "Unknown move; use north, south, east or west."
        else:
            nxt = (self._pos[0] + MOVES[move][0], self._pos[1] + MOVES[move][1])
            if not (0 <= nxt[0] < SIZE and 0 <= nxt[1] < SIZE) or nxt in self._walls:
                message = "A wall blocks the way."
            else:
                self._pos = nxt
                message = f"You are at {self._pos}."
                if self._pos == self._exit:
                    reward, terminated = 1.0, True
                    message += " You found the exit!"
        truncated = not terminated and self._turn >= self.max_turns
        if terminated or truncated:
            self._done, self._ended = True, (terminated, truncated)
        return message + f" Exit at {self._exit}.", reward, terminated, truncated, {}

    def solution(self):
        return [f"\\boxed{{{m}}}" for m in self._route]

    def close(self):
        pass
