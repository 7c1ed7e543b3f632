"""What an episode is worth: the return and win rules shared by the checker, rollouts and evaluation."""

from __future__ import annotations

from collections.abc import Sequence

DEFAULT_REWARD_RANGE: tuple[float, float] = (-1.0, 1.0)
"""Rewards an environment may give when it declares no ``reward_range`` of its own."""

DEFAULT_MAX_TURNS = 10
"""Turn budget assumed for an environment that neither declares nor is given one (the reference default)."""

WIN_THRESHOLD = 0.999
"""An episode is won when it terminates with a last reward at least this high (1.0 in practice)."""


def episode_return(rewards: Sequence[float], terminated: bool) -> float:
    """The SPADE return: the last reward clipped to [-1, 1] if the episode terminated, else 0.

    Truncated episodes (the turn budget ran out) are worth nothing, so an agent cannot farm
    intermediate rewards by stalling.
    """
    if not terminated or not rewards:
        return 0.0
    return max(-1.0, min(1.0, float(rewards[-1])))


def is_win(rewards: Sequence[float], terminated: bool, threshold: float = WIN_THRESHOLD) -> bool:
    """True when the episode terminated on a winning reward."""
    return terminated and bool(rewards) and float(rewards[-1]) >= threshold
