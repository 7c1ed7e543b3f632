"""Slide Six: a 2x3 sliding-tile puzzle (skill: Search and Planning).

Five numbered tiles and one gap sit in a 2x3 frame. A move slides one tile that is directly above,
below, left or right of the gap into it. The frame starts 10-16 moves from the goal order
1 2 3 / 4 5 _ (a scramble by legal moves, so it is always solvable) and the budget is 20 moves: the
player has to search the position rather than push tiles around at random.
"""

from __future__ import annotations

import random
import re
from collections import deque
from typing import Any

_GOAL = (1, 2, 3, 4, 5, 0)
_ADJ = {i: [j for j in range(6) if abs(i // 3 - j // 3) + abs(i % 3 - j % 3) == 1] for i in range(6)}
_BOX = re.compile(r"\\boxed\{([^{}]*)\}")
_SLIDE = re.compile(r"^(?:slide|move)?\s*(?:tile\s*)?([0-9]{1,3})$")


def _after(state: tuple[int, ...], cell: int) -> tuple[int, ...]:
    """The frame after the tile in `cell` slides into the gap."""
    gap = state.index(0)
    board = list(state)
    board[gap], board[cell] = board[cell], 0
    return tuple(board)


def _distances(goal: tuple[int, ...]) -> dict[tuple[int, ...], int]:
    """Moves from every reachable frame to the goal (breadth-first from the goal)."""
    dist = {goal: 0}
    queue = deque([goal])
    while queue:
        state = queue.popleft()
        for cell in _ADJ[state.index(0)]:
            nxt = _after(state, cell)
            if nxt not in dist:
                dist[nxt] = dist[state] + 1
                queue.append(nxt)
    return dist


class SlideSixEnv:
    """Slide tiles into the gap until the frame reads 1 2 3 / 4 5 _."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 20, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._state = _GOAL
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Scramble the goal frame with legal slides until it lies 10-16 moves from the goal."""
        rng = random.Random(seed)
        dist = _distances(_GOAL)
        state = _GOAL
        while True:
            for _ in range(25):
                state = _after(state, rng.choice(_ADJ[state.index(0)]))
            if 10 <= dist[state] <= 16:
                break
        self._state = state
        self._turn, self._terminated, self._truncated = 0, False, False
        intro = (
            "Slide Six. Five tiles and a gap (_) sit in a 2x3 frame:\n" + self._render() + "\n"
            "Each turn slide ONE tile that is directly above, below, left or right of the gap into the gap, "
            "e.g. \\boxed{slide 4}. Tiles never move diagonally or jump.\n"
            f"Reach the order\n 1 2 3\n 4 5 _\nwithin {self.max_turns} moves to win."
        )
        return intro, self._info()

    def _render(self) -> str:
        cells = [str(t) if t else "_" for t in self._state]
        return " " + " ".join(cells[:3]) + "\n " + " ".join(cells[3:])

    def _info(self) -> dict:
        return {"turn": self._turn, "max_turns": self.max_turns}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        """Slide one tile; the goal order wins, running out of moves truncates."""
        if self._terminated or self._truncated:
            return "The puzzle is over; call reset() to play again.", 0.0, self._terminated, self._truncated, self._info()
        self._turn += 1
        boxes = [b for b in _BOX.findall(action) if b.strip()] if isinstance(action, str) else []
        match = _SLIDE.match(boxes[-1].strip().lower()) if boxes else None
        tile = int(match.group(1)) if match else None
        if tile is None:
            obs = "Invalid move. Name the tile to slide, e.g. \\boxed{slide 4}."
        elif tile not in self._state or tile == 0:
            obs = f"There is no tile {tile}; the tiles are 1 to 5."
        else:
            cell, gap = self._state.index(tile), self._state.index(0)
            tr, tc = divmod(cell, 3)
            gr, gc = divmod(gap, 3)
            if abs(tr - gr) + abs(tc - gc) != 1:
                obs = f"Tile {tile} is not next to the gap, so it cannot slide."
            else:
                board = list(self._state)
                board[gap], board[cell] = tile, 0
                self._state = tuple(board)
                obs = f"Tile {tile} slides into the gap."
                if self._state == _GOAL:
                    self._terminated = True
                    return obs + "\n" + self._render() + "\nSolved!", 1.0, True, False, self._info()
        if self._turn >= self.max_turns:
            self._truncated = True
            obs += " Out of moves."
        else:
            obs += f" Moves left: {self.max_turns - self._turn}."
        return obs + "\n" + self._render(), 0.0, False, self._truncated, self._info()

    def solution(self) -> list[str]:
        """A shortest sequence of slides from the current frame (breadth-first search)."""
        dist = _distances(_GOAL)
        state, moves = self._state, []
        while state != _GOAL:
            for cell in _ADJ[state.index(0)]:
                nxt = _after(state, cell)
                if dist[nxt] == dist[state] - 1:
                    moves.append(f"\\boxed{{slide {state[cell]}}}")
                    state = nxt
                    break
        return moves

    def close(self) -> None:
        """Nothing to release."""
