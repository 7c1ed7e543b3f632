"""SlideSixEnv: a 2x3 sliding puzzle (tiles 1-5 and a gap) to put in order (skill: planning).

Each move slides the gap up, down, left or right (the neighbouring tile moves into it). The goal is
1 2 3 on top and 4 5 _ below. The 2x3 board is small enough that every puzzle needs at most 21 moves,
and the episode allows 30.
"""

from __future__ import annotations

import collections
import random
import re
from typing import Any

_BOX = re.compile(r"\\boxed\{([^{}]*)\}")
_GOAL = (1, 2, 3, 4, 5, 0)
_DELTA = {"U": -3, "D": 3, "L": -1, "R": 1}
_WORDS = {"U": "U", "UP": "U", "D": "D", "DOWN": "D", "L": "L", "LEFT": "L", "R": "R", "RIGHT": "R"}


def _slide(board: tuple[int, ...], move: str) -> tuple[int, ...] | None:
    gap = board.index(0)
    row, col = divmod(gap, 3)
    if (move == "U" and row == 0) or (move == "D" and row == 1) or (move == "L" and col == 0) or \
            (move == "R" and col == 2):
        return None
    other = gap + _DELTA[move]
    cells = list(board)
    cells[gap], cells[other] = cells[other], cells[gap]
    return tuple(cells)


def _show(board: tuple[int, ...]) -> str:
    cells = [str(v) if v else "_" for v in board]
    return f"{' '.join(cells[:3])}\n{' '.join(cells[3:])}"


class SlideSixEnv:
    """2x3 sliding puzzle."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 30, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._board = _GOAL
        self._turn = 0
        self._status = (False, False)
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        rng = random.Random(seed)
        cells = list(_GOAL)
        while tuple(cells) == _GOAL:
            rng.shuffle(cells)
        self._board = tuple(cells)
        self._turn, self._status = 0, (False, False)
        text = (f"Sliding puzzle:\n{_show(self._board)}\nGoal:\n{_show(_GOAL)}\n"
                "Move the gap with \\boxed{U}, \\boxed{D}, \\boxed{L} or \\boxed{R} (or up/down/left/right), one move "
                f"per reply. You have {self.max_turns} moves.")
        return text, {"moves_left": self.max_turns}

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict[str, Any]]:
        if any(self._status):
            return "Game over; call reset().", 0.0, *self._status, {}
        self._turn += 1
        boxes = _BOX.findall(action if isinstance(action, str) else "")
        move = _WORDS.get(boxes[-1].strip().upper()) if boxes else None
        reward, terminated = 0.0, False
        moved = _slide(self._board, move) if move else None
        if move is None:
            obs = "Box one move: U, D, L or R."
        elif moved is None:
            obs = f"The gap cannot move {move} from here.\n{_show(self._board)}"
        else:
            self._board = moved
            if moved == _GOAL:
                obs, reward, terminated = f"{_show(moved)}\nSolved!", 1.0, True
            else:
                obs = _show(moved)
        truncated = not terminated and self._turn >= self.max_turns
        self._status = (terminated, truncated)
        return obs, reward, terminated, truncated, {"moves_left": self.max_turns - self._turn}

    def solution(self) -> list[str]:
        paths: dict[tuple[int, ...], list[str]] = {self._board: []}
        queue = collections.deque([self._board])
        while queue:
            board = queue.popleft()
            if board == _GOAL:
                return paths[board]
            for move in "UDLR":
                nxt = _slide(board, move)
                if nxt is not None and nxt not in paths:
                    paths[nxt] = paths[board] + [move]
                    queue.append(nxt)
        return []

    def close(self) -> None:
        """Nothing to release."""
