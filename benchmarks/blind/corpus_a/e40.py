"""Maze Walk: steer a walker through a maze to the exit (skill: path finding).

The maze is drawn as text ('#' wall, '.' floor, '@' the walker, 'E' the exit). Each turn the player
moves one square: \\boxed{U}, \\boxed{D}, \\boxed{L} or \\boxed{R}. Every reply repeats the move that was
made and the walker's new position, then redraws the maze. The move budget is the length of the
shortest route plus four, so wandering does not pay.
"""

from __future__ import annotations

import random
import re
from collections import deque
from typing import Any

_CELLS = 5
_MOVES = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}
_NAMES = {"U": "UP", "D": "DOWN", "L": "LEFT", "R": "RIGHT"}


class MazeWalkEnv:
    """Walk from the start to the exit of a perfect maze within a tight budget."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 60, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._grid: list[list[str]] = []
        self._pos = (1, 1)
        self._exit = (1, 1)
        self._budget = 1
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        size = 2 * _CELLS + 1
        grid = [["#"] * size for _ in range(size)]
        start_cell = (rng.randrange(_CELLS), rng.randrange(_CELLS))
        stack, seen = [start_cell], {start_cell}
        grid[2 * start_cell[0] + 1][2 * start_cell[1] + 1] = "."
        while stack:
            r, c = stack[-1]
            options = [(r + dr, c + dc) for dr, dc in _MOVES.values()
                       if 0 <= r + dr < _CELLS and 0 <= c + dc < _CELLS and (r + dr, c + dc) not in seen]
            if not options:
                stack.pop()
                continue
            nr, nc = rng.choice(options)
            grid[r + nr + 1][c + nc + 1] = "."
            grid[2 * nr + 1][2 * nc + 1] = "."
            seen.add((nr, nc))
            stack.append((nr, nc))
        self._grid = grid
        self._pos = (2 * start_cell[0] + 1, 2 * start_cell[1] + 1)
        distances = self._distances(self._pos)
        far = max(distances.values())
        self._exit = rng.choice(sorted(p for p, d in distances.items() if d >= far // 2 and p[0] % 2 and p[1] % 2))
        self._budget = min(self.max_turns, distances[self._exit] + 4)
        self._turn, self._terminated, self._truncated = 0, False, False
        text = ("Maze Walk. Reach the exit E. Move one square per turn with \\boxed{U}, \\boxed{D}, \\boxed{L} "
                f"or \\boxed{{R}}. You have {self._budget} moves.\n" + self._render())
        return text, self._info()

    def _distances(self, start: tuple[int, int]) -> dict[tuple[int, int], int]:
        dist = {start: 0}
        queue = deque([start])
        while queue:
            r, c = queue.popleft()
            for dr, dc in _MOVES.values():
                nxt = (r + dr, c + dc)
                if self._grid[nxt[0]][nxt[1]] == "." and nxt not in dist:
                    dist[nxt] = dist[(r, c)] + 1
                    queue.append(nxt)
        return dist

    def _render(self) -> str:
        rows = []
        for r, row in enumerate(self._grid):
            cells = ["@" if (r, c) == self._pos else "E" if (r, c) == self._exit else ch for c, ch in enumerate(row)]
            rows.append("".join(cells))
        return "\n".join(rows)

    def _info(self) -> dict:
        return {"turn": self._turn, "position": list(self._pos), "moves_left": self._budget - self._turn}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._terminated or self._truncated:
            return "The walk is over.", 0.0, self._terminated, self._truncated, self._info()
        self._turn += 1
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
        move = boxes[-1].strip().upper()[:1] if boxes else ""
        reward = 0.0
        if move not in _MOVES:
            obs = "Move with \\boxed{U}, \\boxed{D}, \\boxed{L} or \\boxed{R}."
        else:
            dr, dc = _MOVES[move]
            target = (self._pos[0] + dr, self._pos[1] + dc)
            if self._grid[target[0]][target[1]] == "#":
                obs = f"You tried to move {_NAMES[move]}, but there is a wall. You stay at row {self._pos[0]}, column {self._pos[1]}."
            else:
                self._pos = target
                obs = f"You moved {_NAMES[move]} to row {target[0]}, column {target[1]}.\n" + self._render()
                if self._pos == self._exit:
                    self._terminated, reward = True, 1.0
                    obs += "\nYou reached the exit!"
        if not self._terminated and self._turn >= self._budget:
            self._truncated = True
            obs += "\nYou are out of moves."
        return obs, reward, self._terminated, self._truncated, self._info()

    def solution(self) -> list[str]:
        parents: dict[tuple[int, int], tuple[tuple[int, int], str] | None] = {self._pos: None}
        queue = deque([self._pos])
        while queue:
            here = queue.popleft()
            if here == self._exit:
                break
            for name, (dr, dc) in _MOVES.items():
                nxt = (here[0] + dr, here[1] + dc)
                if self._grid[nxt[0]][nxt[1]] == "." and nxt not in parents:
                    parents[nxt] = (here, name)
                    queue.append(nxt)
        moves, node = [], self._exit
        while parents.get(node) is not None:
            node, name = parents[node]
            moves.append(name)
        return [f"\\boxed{{{m}}}" for m in reversed(moves)]

    def close(self) -> None:
        """Nothing to release."""
