"""TicTacToe-v0: legal moves from the board, and a perfect player (minimax).

TextArena's board is a 3x3 list of ``""``, ``"O"`` and ``"X"``; player 0 plays ``O`` and moves first,
player 1 plays ``X``; a move is the cell number in brackets, ``[0]`` to ``[8]``.
"""

from __future__ import annotations

import random
from typing import Any

from spade_eval.suites.games.opponents import game_state

ENV_ID = "TicTacToe-v0"
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))

Cells = tuple[str, ...]


def symbol(player_id: int) -> str:
    return "X" if player_id == 1 else "O"


def cells(env: Any) -> Cells:
    """The board as nine cells, row by row."""
    return tuple(cell for row in game_state(env)["board"] for cell in row)


def winner(board: Cells) -> str | None:
    for a, b, c in LINES:
        if board[a] and board[a] == board[b] == board[c]:
            return board[a]
    return None


def legal_moves(env: Any, player_id: int) -> list[str]:
    return [f"[{index}]" for index, cell in enumerate(cells(env)) if not cell]


class MinimaxPlayer:
    """Plays a game-theoretically optimal move; among equally good moves it picks one at random.

    Scores prefer a quicker win and a slower loss (a win is worth one more than the empty cells left
    after it), so the player does not dawdle in a won position. Values are memoised per player object:
    the whole game tree has under 6,000 positions, searched once.
    """

    name = "minimax"

    def __init__(self) -> None:
        self._values: dict[tuple[Cells, str], int] = {}

    def choose(self, env: Any, player_id: int, rng: random.Random) -> str:
        return f"[{rng.choice(self.best_moves(cells(env), symbol(player_id)))}]"

    def best_moves(self, board: Cells, mark: str) -> list[int]:
        """Every optimal cell for ``mark`` to play on ``board``."""
        scored = {move: -self.value(_play(board, move, mark), _other(mark)) for move in _empty(board)}
        best = max(scored.values())
        return [move for move, score in scored.items() if score == best]

    def value(self, board: Cells, to_move: str) -> int:
        """The position's value for the player about to move (positive: a forced win)."""
        key = (board, to_move)
        if key not in self._values:
            empty = _empty(board)
            if winner(board) is not None:  # the previous mover completed a line
                result = -(1 + len(empty))
            elif not empty:
                result = 0
            else:
                result = max(-self.value(_play(board, move, to_move), _other(to_move)) for move in empty)
            self._values[key] = result
        return self._values[key]


def _empty(board: Cells) -> list[int]:
    return [index for index, cell in enumerate(board) if not cell]


def _play(board: Cells, move: int, mark: str) -> Cells:
    return board[:move] + (mark,) + board[move + 1 :]


def _other(mark: str) -> str:
    return "O" if mark == "X" else "X"
