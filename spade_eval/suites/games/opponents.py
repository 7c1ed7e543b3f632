"""The fixed players the model meets in two-player TextArena games, and what they may look at.

An opponent reads the game through the live TextArena environment it is seated at, but only what its
seat would know: its own cards, the public board, the offer on the table and the moves still legal.
It never reads the other player's private information (the model's Kuhn card, its resource values).
Each game module (``tictactoe``, ``kuhn_poker``, ``negotiation``) provides its legal moves and its
scripted player; this module holds the protocol and the random-legal player they share.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol

LegalMoves = Callable[[Any, int], list[str]]
"""``legal_moves(env, player_id)``: every move the seat may make now, each written as the game reads it
(``[4]``, ``[check]``)."""


class Opponent(Protocol):
    """A fixed player: picks the move of ``player_id`` in the TextArena ``env``, using ``rng`` for chance."""

    name: str

    def choose(self, env: Any, player_id: int, rng: random.Random) -> str: ...


class RandomLegalPlayer:
    """Plays a uniformly random legal move: the weakest honest baseline (SPIRAL's random opponent)."""

    name = "random"

    def __init__(self, legal_moves: LegalMoves) -> None:
        self._legal_moves = legal_moves

    def choose(self, env: Any, player_id: int, rng: random.Random) -> str:
        moves = self._legal_moves(env, player_id)
        if not moves:
            raise RuntimeError(f"player {player_id} has no legal move although the game is still running")
        return rng.choice(moves)


def game_state(env: Any) -> dict[str, Any]:
    """The TextArena state dictionary behind ``env`` (wrappers forward attribute reads to the game)."""
    return env.state.game_state
