"""Eight Tiles: the classic 3x3 sliding puzzle (skill: Planning).

Tiles 1-8 and one gap sit in a 3x3 frame. A move slides a tile that touches the gap (up, down, left
or right of it) into the gap. The frame is scrambled by 16-20 random slides from the solved order
(1 2 3 / 4 5 6 / 7 8 _) until the tiles stand at least ten steps from home in all, and the player
has 24 turns to restore it: without planning, slides mostly undo each other.
"""

from __future__ import annotations

import random
import re
from typing import Any

_SIZE = 3
_SOLVED = tuple(list(range(1, 9)) + [0])


class SlidingTilesEnv:
    """Slide numbered tiles into the gap until the frame reads 1-8 in order."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 24, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._board: list[int] = list(_SOLVED)
        self._scramble: list[int] = []
        self._turn = 0
        self._finished = False
        self._solved = False
        self.reset()

    @staticmethod
    def _neighbours(board: list[int]) -> list[int]:
        gap = board.index(0)
        r, c = divmod(gap, _SIZE)
        out = []
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            if 0 <= r + dr < _SIZE and 0 <= c + dc < _SIZE:
                out.append(board[(r + dr) * _SIZE + c + dc])
        return out

    @staticmethod
    def _distance(board: list[int]) -> int:
        """Sum of the tiles' Manhattan distances from home."""
        total = 0
        for at, tile in enumerate(board):
            if tile:
                r, c = divmod(at, _SIZE)
                hr, hc = divmod(tile - 1, _SIZE)
                total += abs(r - hr) + abs(c - hc)
        return total

    def _slide(self, board: list[int], tile: int) -> None:
        gap, at = board.index(0), board.index(tile)
        board[gap], board[at] = tile, 0

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Scramble the solved frame with random slides that never undo the previous one."""
        rng = random.Random(seed)
        while True:
            board = list(_SOLVED)
            moves: list[int] = []
            for _ in range(rng.randint(16, 20)):
                options = [t for t in self._neighbours(board) if not moves or t != moves[-1]]
                tile = rng.choice(options)
                self._slide(board, tile)
                moves.append(tile)
            if self._distance(board) >= 10:
                break
        self._board, self._scramble = board, moves
        self._turn, self._finished, self._solved = 0, False, False
        text = (
            "Eight Tiles. Restore the frame to\n 1 2 3\n 4 5 6\n 7 8 _\n"
            "Each turn slide one tile that touches the gap (above, below, left or right of '_') by writing its "
            f"number, e.g. \\boxed{{{self._neighbours(board)[0]}}}. You have {self.max_turns} turns.\n"
            "Current frame:\n" + self._show()
        )
        return text, self._info()

    def _show(self) -> str:
        cells = [str(t) if t else "_" for t in self._board]
        return "\n".join(" " + " ".join(cells[i:i + _SIZE]) for i in range(0, 9, _SIZE))

    def _info(self) -> dict:
        return {"turn": self._turn, "board": list(self._board)}

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict]:
        """Slide one tile; the solved order wins."""
        if self._finished:
            return "Game over. Call reset() for a new frame.", 0.0, self._solved, not self._solved, self._info()
        self._turn += 1
        found = [b for b in re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "") if b.strip()]
        text = found[-1].strip() if found else ""
        if not re.fullmatch(r"[1-8]", text):
            obs = "Write the number of one tile (1-8), e.g. \\boxed{5}."
        else:
            tile = int(text)
            gap, at = self._board.index(0), self._board.index(tile)
            (gr, gc), (r, c) = divmod(gap, _SIZE), divmod(at, _SIZE)
            if abs(gr - r) + abs(gc - c) != 1:
                obs = f"Tile {tile} does not touch the gap."
            else:
                self._slide(self._board, tile)
                obs = f"Slid {tile}."
                if tuple(self._board) == _SOLVED:
                    self._finished, self._solved = True, True
                    return obs + " Solved!\n" + self._show(), 1.0, True, False, self._info()
        if self._turn >= self.max_turns:
            self._finished = True
            return obs + " Out of turns.\n" + self._show(), 0.0, False, True, self._info()
        return f"{obs} {self.max_turns - self._turn} turns left.\n{self._show()}", 0.0, False, False, self._info()

    def solution(self) -> list[str]:
        """Undo the scramble: slide its tiles back in reverse order (valid from reset)."""
        return [f"\\boxed{{{t}}}" for t in reversed(self._scramble)]

    def close(self) -> None:
        """Nothing to release."""
