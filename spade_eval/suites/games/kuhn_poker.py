"""KuhnPoker-v0: legal moves from the betting tree, and a Nash-equilibrium player.

TextArena deals each player one of J, Q, K (``player_cards``: 0, 1, 2), and walks a betting tree per
round (``current_legal_action_tree``): the player who opens (``starting_player``) may check or bet;
after a check the other may check (showdown) or bet; a bet is answered by fold or call. The opener
alternates between rounds, and KuhnPoker-v0 plays three rounds, won on chips. The benchmarks play it
with TextArena's chip accounting corrected (``chip_accurate_env_class``): as released, bets are free.

The scripted player follows Kuhn's (1950) equilibrium family with bluffing parameter ``alpha`` in
[0, 1/3]: the opener bets J with probability alpha, K with 3 * alpha, checks Q, and after check-bet
calls with Q with probability alpha + 1/3; the responder bets K and one J in three after a check,
calls a bet with K always and with Q one time in three. Every member gives the opener -1/18 chips per
round in expectation, and no strategy of either seat does better against it. It is the equilibrium of
one round; the three-round match is won on total chips, where it is not tuned further.
"""

from __future__ import annotations

import functools
import random
import re
from typing import Any, Literal

from spade_eval.suites.games.opponents import game_state

ENV_ID = "KuhnPoker-v0"
CARDS = "JQK"
GAME_VALUE_FOR_OPENER = -1.0 / 18.0
"""Expected chips per round for the player who acts first when both play the equilibrium."""

Situation = Literal["open", "after_check", "facing_bet", "after_check_bet"]
"""Where in a round a decision falls: the opener acting first; the responder after a check; the
responder facing a bet; the opener facing a bet after checking."""


def legal_moves(env: Any, player_id: int) -> list[str]:
    node = game_state(env)["current_legal_action_tree"]
    return [f"[{move}]" for move in node] if isinstance(node, dict) else []


def situation(env: Any, player_id: int) -> Situation:
    """Read the decision point from public information: the moves still legal and who opened the round."""
    state = game_state(env)
    moves = set(state["current_legal_action_tree"])
    opener = state["starting_player"] == player_id
    if moves == {"check", "bet"}:
        return "open" if opener else "after_check"
    if moves == {"fold", "call"}:
        return "after_check_bet" if opener else "facing_bet"
    raise RuntimeError(f"unexpected Kuhn betting node with moves {sorted(moves)}")


def equilibrium_strategy(card: int, where: Situation, alpha: float = 1.0 / 6.0) -> dict[str, float]:
    """Move probabilities of the equilibrium player holding ``card`` (0=J, 1=Q, 2=K) at ``where``."""
    if not 0.0 <= alpha <= 1.0 / 3.0:
        raise ValueError(f"alpha must be in [0, 1/3], got {alpha}")
    if where == "open":
        bet = (alpha, 0.0, 3.0 * alpha)[card]
        return {"bet": bet, "check": 1.0 - bet}
    if where == "after_check":
        bet = (1.0 / 3.0, 0.0, 1.0)[card]
        return {"bet": bet, "check": 1.0 - bet}
    if where == "facing_bet":
        call = (0.0, 1.0 / 3.0, 1.0)[card]
        return {"call": call, "fold": 1.0 - call}
    call = (0.0, alpha + 1.0 / 3.0, 1.0)[card]
    return {"call": call, "fold": 1.0 - call}


class EquilibriumPlayer:
    """Plays Kuhn poker's equilibrium, seeing only its own card and the public betting."""

    name = "equilibrium"

    def __init__(self, alpha: float = 1.0 / 6.0) -> None:
        equilibrium_strategy(0, "open", alpha)  # validates alpha
        self.alpha = alpha

    def choose(self, env: Any, player_id: int, rng: random.Random) -> str:
        card = game_state(env)["player_cards"][player_id]
        probabilities = equilibrium_strategy(card, situation(env, player_id), self.alpha)
        draw, total = rng.random(), 0.0
        for move, probability in probabilities.items():
            total += probability
            if draw < total:
                return f"[{move}]"
        return f"[{next(reversed(probabilities))}]"  # rounding: the last move closes the interval


_MOVE = re.compile(r"\[(Check|Bet|Fold|Call)\]", re.IGNORECASE)  # the game's own move pattern


@functools.cache
def chip_accurate_env_class() -> type:
    """TextArena 0.7.4's ``KuhnPokerEnv`` with its chip accounting corrected (imported lazily).

    As released, a bet or a call never puts a chip in the pot, so every round is worth exactly one chip
    whatever the betting, calling is never worse than folding, and the game loses the strategy its own
    rules describe ("[bet]: Add 1 chip to the pot"); after the last round it also deals a phantom round
    and takes a second ante (TextArena pull request #189 reports both). This subclass adds the acting
    player's chip to the pot on a legal bet or call, before the game resolves the move, and ends the
    match without the phantom round. Everything else (observations, prompts, legality, the betting
    tree, round and match winners) is the released game's. A release that already moves the chips is
    used as it is.
    """
    from textarena.envs.KuhnPoker.env import KuhnPokerEnv

    if _bets_reach_the_pot(KuhnPokerEnv):
        return KuhnPokerEnv

    class ChipAccurateKuhnPokerEnv(KuhnPokerEnv):
        def step(self, action: str) -> tuple[bool, dict[str, Any]]:
            state = self.state.game_state
            match = _MOVE.search(action.strip())
            move = match.group(1).lower() if match else None
            if move in ("bet", "call") and move in state["current_legal_action_tree"]:
                state["pot"] += 1
                state["player_chips"][self.state.current_player_id] -= 1
            return super().step(action)

        def _init_round(self) -> None:
            state = self.state.game_state
            if state["current_round"] < self.max_rounds:
                super()._init_round()
                return
            chips = state["player_chips"]
            if chips[0] == chips[1]:
                self.state.set_draw(reason=f"At the end of {self.max_rounds} rounds, both players had the "
                                           "same number of chips.")
            else:
                winner = 0 if chips[0] > chips[1] else 1
                self.state.set_winner(player_id=winner, reason=f"Player {winner} won by having more chips at "
                                                               f"the end of all {self.max_rounds} rounds.")

    return ChipAccurateKuhnPokerEnv


def _bets_reach_the_pot(env_class: type) -> bool:
    """Probe a Kuhn game class: does a bet grow the pot? (The caller's ``random`` state is kept.)"""
    saved = random.getstate()
    try:
        env = env_class(max_rounds=1)
        env.reset(num_players=2, seed=0)
        pot = env.state.game_state["pot"]
        env.step("[bet]")
        return env.state.game_state["pot"] > pot
    finally:
        random.setstate(saved)
