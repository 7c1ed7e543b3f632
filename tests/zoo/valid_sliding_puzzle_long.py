# expect: valid
"""Slide Eight: solve a scrambled 3x3 sliding puzzle (skill: Planning).

Looks suspicious: solution() returns 16 to 28 moves, far more than most games, so a checker that
caps solution length at a handful of moves, or that runs out of turns, would call it infeasible; the
same few move words recur, so "the most common solution move" is a tempting constant policy.

Why it is correct: the board is scrambled by 16-28 random slides of the gap (never undoing the
previous slide) and solution() plays those slides backwards, which restores the board exactly; the
turn budget (40) leaves room for it. A constant move just shuttles the gap against a wall, and random
play essentially never solves it.
"""

import random
import re

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")
DELTAS = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}
OPPOSITE = {"up": "down", "down": "up", "left": "right", "right": "left"}
SOLVED = (1, 2, 3, 4, 5, 6, 7, 8, 0)


class SlideEightEnv:
    """Move the gap until the tiles read 1-8."""

    def __init__(self, max_turns=40, **kwargs):
        self.max_turns = max_turns
        self._board = list(SOLVED)
        self._scramble = []
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        self.reset()

    def _slide(self, board, move):
        gap = board.index(0)
        row, col = divmod(gap, 3)
        dr, dc = DELTAS[move]
        if not (0 <= row + dr < 3 and 0 <= col + dc < 3):
            return None
        other = (row + dr) * 3 + col + dc
        board = list(board)
        board[gap], board[other] = board[other], board[gap]
        return board

    def reset(self, seed=None):
        rng = random.Random(seed)
        while True:
            board, moves = list(SOLVED), []
            for _ in range(rng.randint(16, 28)):
                options = [m for m in DELTAS if self._slide(board, m) is not None
                           and (not moves or m != OPPOSITE[moves[-1]])]
                move = rng.choice(options)
                board = self._slide(board, move)
                moves.append(move)
            if tuple(board) != SOLVED:
                break
        self._board, self._scramble = board, moves
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        return ("Slide Eight. Slide the gap (_) to put the tiles in order 1-8 with the gap in the bottom-right "
                "corner. Moves name the direction the gap moves: \\boxed{up}, \\boxed{down}, \\boxed{left}, "
                f"\\boxed{{right}}. You have {self.max_turns} moves.\n" + self._show()), {}

    def _show(self):
        cells = [str(v) if v else "_" for v in self._board]
        return "\n".join(" ".join(cells[r * 3:r * 3 + 3]) for r in range(3))

    def step(self, action):
        if self._done:
            return "The puzzle is over; call reset().", 0.0, self._ended[0], self._ended[1], {}
        self._turn += 1
        action = action if isinstance(action, str) else str(action)
        found = _BOXED.findall(action)
        move = found[-1].strip().lower() if found else ""
        reward, terminated = 0.0, False
        if move not in DELTAS:
            message = "Unknown move; use up, down, left or right."
        else:
            board = self._slide(self._board, move)
            if board is None:
                message = "The gap cannot move that way."
            else:
                self._board = board
                message = f"Gap moved {move}."
                if tuple(board) == SOLVED:
                    reward, terminated = 1.0, True
                    message += " Solved!"
        truncated = not terminated and self._turn >= self.max_turns
        if terminated or truncated:
            self._done, self._ended = True, (terminated, truncated)
        return f"{message}\n{self._show()}\nMove {self._turn}/{self.max_turns}.", reward, terminated, truncated, {}

    def solution(self):
        return [f"\\boxed{{{OPPOSITE[m]}}}" for m in reversed(self._scramble)]

    def close(self):
        pass
