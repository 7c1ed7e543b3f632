"""Slide Six: a 2x3 sliding-tile puzzle.

Tiles 1-5 and one blank (_) sit on a 2x3 board. A move slides the blank up, down, left or right
(swapping it with the neighbouring tile). Reach the goal layout

    1 2 3
    4 5 _
"""

from __future__ import annotations

import random
import re
from collections import deque
from typing import Any

_GOAL = (1, 2, 3, 4, 5, 0)
_DELTA = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}


def _move(board: tuple[int, ...], direction: str) -> tuple[int, ...] | None:
    z = board.index(0)
    r, c = divmod(z, 3)
    dr, dc = _DELTA[direction]
    nr, nc = r + dr, c + dc
    if not (0 <= nr < 2 and 0 <= nc < 3):
        return None
    cells = list(board)
    t = nr * 3 + nc
    cells[z], cells[t] = cells[t], cells[z]
    return tuple(cells)


class SlideSixEnv:
    """2x3 sliding puzzle, one move per turn."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 30, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._board = _GOAL
        self._turn = 0
        self._done = False

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        while True:
            cells = list(_GOAL)
            rng.shuffle(cells)
            if tuple(cells) != _GOAL:
                break
        self._board = tuple(cells)
        self._turn, self._done = 0, False
        obs = ("Slide Six. Slide the blank to reach\n  1 2 3\n  4 5 _\n"
               f"Current board:\n{self._render()}\nMoves: \\boxed{{U}}, \\boxed{{D}}, \\boxed{{L}}, \\boxed{{R}} "
               f"(direction the blank moves). {self.max_turns} turns.")
        return obs, {"board": list(self._board)}

    def _render(self) -> str:
        cells = [str(v) if v else "_" for v in self._board]
        return "  " + " ".join(cells[:3]) + "\n  " + " ".join(cells[3:])

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._done:
            return "Puzzle over.", 0.0, True, False, {"board": list(self._board)}
        self._turn += 1
        found = re.findall(r"\\boxed\{([^{}]*)\}", action) if isinstance(action, str) else []
        move = found[-1].strip().upper()[:1] if found else ""
        reward, terminated = 0.0, False
        nxt = _move(self._board, move) if move in _DELTA else None
        if nxt is None:
            obs = "That move is not possible."
        else:
            self._board = nxt
            obs = "Moved."
            if self._board == _GOAL:
                reward, terminated, obs = 1.0, True, "Solved!"
        obs += "\n" + self._render()
        truncated = not terminated and self._turn >= self.max_turns
        self._done = terminated or truncated
        return obs, reward, terminated, truncated, {"board": list(self._board)}

    def solution(self) -> list[str]:
        start = self._board
        parent: dict[tuple[int, ...], tuple[tuple[int, ...], str] | None] = {start: None}
        queue = deque([start])
        while queue:
            state = queue.popleft()
            if state == _GOAL:
                path = []
                while parent[state] is not None:
                    prev, mv = parent[state]
                    path.append(mv)
                    state = prev
                return path[::-1]
            for mv in "UDLR":
                nxt = _move(state, mv)
                if nxt is not None and nxt not in parent:
                    parent[nxt] = (state, mv)
                    queue.append(nxt)
        return ["U"]

    def close(self) -> None:
        pass
