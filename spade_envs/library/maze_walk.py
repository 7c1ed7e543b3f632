"""Maze Walk: navigate a text grid maze to the exit (skill: Spatial Reasoning).

A 9x11 maze is carved by a seeded depth-first search, then a few extra walls are knocked out so that
there are loops and dead ends to misjudge. The player '@' starts on an open cell and must reach 'E'
by single steps U/D/L/R; walking into a wall wastes the turn. The exit is placed 12 to 17 steps away
along the shortest path and the budget is 24 turns, so the player must read the grid and plan a route
around dead ends; a fixed direction or a random walk almost never arrives.
"""

from __future__ import annotations

import random
import re
from collections import deque
from typing import Any

_ROWS, _COLS = 9, 11
_MOVES = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}
_NAMES = {"U": "up", "D": "down", "L": "left", "R": "right"}
_ALIASES = {"UP": "U", "DOWN": "D", "LEFT": "L", "RIGHT": "R", "NORTH": "U", "SOUTH": "D", "WEST": "L", "EAST": "R"}


def _bfs(grid: list[list[str]], start: tuple[int, int]) -> dict[tuple[int, int], str]:
    """Shortest move string from start to every reachable open cell (moves tried in U, D, L, R order)."""
    paths = {start: ""}
    queue = deque([start])
    while queue:
        r, c = queue.popleft()
        for move, (dr, dc) in _MOVES.items():
            nxt = (r + dr, c + dc)
            if grid[nxt[0]][nxt[1]] != "#" and nxt not in paths:
                paths[nxt] = paths[(r, c)] + move
                queue.append(nxt)
    return paths


class MazeWalkEnv:
    """Walk '@' through the maze to 'E' one step per turn."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 24, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._grid: list[list[str]] = []
        self._pos = (1, 1)
        self._exit = (1, 1)
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def _carve(self, rng: random.Random) -> list[list[str]]:
        """Depth-first maze on the odd cells, plus three knocked-out walls to create loops."""
        grid = [["#"] * _COLS for _ in range(_ROWS)]
        stack = [(1, 1)]
        grid[1][1] = "."
        while stack:
            r, c = stack[-1]
            options = [(r + dr, c + dc) for dr, dc in ((-2, 0), (2, 0), (0, -2), (0, 2))
                       if 0 < r + dr < _ROWS - 1 and 0 < c + dc < _COLS - 1 and grid[r + dr][c + dc] == "#"]
            if not options:
                stack.pop()
                continue
            nr, nc = rng.choice(options)
            grid[(r + nr) // 2][(c + nc) // 2] = grid[nr][nc] = "."
            stack.append((nr, nc))
        walls = [(r, c) for r in range(1, _ROWS - 1) for c in range(1, _COLS - 1)
                 if grid[r][c] == "#" and (r % 2) != (c % 2)]
        for r, c in rng.sample(walls, 3):
            grid[r][c] = "."
        return grid

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Carve a maze and place start and exit 12-17 shortest-path steps apart."""
        rng = random.Random(seed)
        while True:
            grid = self._carve(rng)
            open_cells = [(r, c) for r in range(_ROWS) for c in range(_COLS) if grid[r][c] == "."]
            start = rng.choice(open_cells)
            paths = _bfs(grid, start)
            far = sorted(cell for cell, path in paths.items() if 12 <= len(path) <= 17)
            if far:
                break
        self._grid, self._pos, self._exit = grid, start, rng.choice(far)
        self._turn, self._terminated, self._truncated = 0, False, False
        intro = (
            "Maze Walk. '#' is wall, '.' is floor, '@' is you, 'E' is the exit. Row 1 is the top.\n"
            "Each turn move one step with \\boxed{U}, \\boxed{D}, \\boxed{L} or \\boxed{R} (up, down, left, right).\n"
            f"Moving into a wall wastes the turn. Reach E within {self.max_turns} turns to win.\n"
        )
        return intro + self._render(), self._info()

    def _render(self) -> str:
        rows = []
        for r, row in enumerate(self._grid):
            cells = ["@" if (r, c) == self._pos else "E" if (r, c) == self._exit else ch for c, ch in enumerate(row)]
            rows.append("".join(cells))
        return "\n".join(rows)

    def _info(self) -> dict:
        return {"turn": self._turn, "max_turns": self.max_turns, "position": self._pos}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        """Move one step; stepping onto E wins, running out of turns truncates."""
        if self._terminated or self._truncated:
            return "The game is over; call reset() to play again.", 0.0, self._terminated, self._truncated, self._info()
        self._turn += 1
        # The last box that holds something: an empty box after the move is no move.
        found = [box for box in re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
                 if box.strip()]
        word = found[-1].strip().upper() if found else ""
        move = _ALIASES.get(word, word)
        reward = 0.0
        if move not in _MOVES:
            obs = "Invalid move. Use \\boxed{U}, \\boxed{D}, \\boxed{L} or \\boxed{R}."
        else:
            r, c = self._pos[0] + _MOVES[move][0], self._pos[1] + _MOVES[move][1]
            if self._grid[r][c] == "#":
                obs = f"Bump! A wall blocks the way {_NAMES[move]}; you did not move."
            else:
                self._pos = (r, c)
                obs = f"You moved {move}."
            if self._pos == self._exit:
                self._terminated, reward = True, 1.0
                return obs + " You reached the exit!", reward, True, False, self._info()
        if self._turn >= self.max_turns:
            self._truncated = True
            obs += " Out of turns."
        else:
            obs += f" Turns left: {self.max_turns - self._turn}."
        return obs + "\n" + self._render(), reward, self._terminated, self._truncated, self._info()

    def solution(self) -> list[str]:
        """Shortest route by breadth-first search from the current position."""
        return [f"\\boxed{{{m}}}" for m in _bfs(self._grid, self._pos)[self._exit]]

    def close(self) -> None:
        """Nothing to release."""
