"""The games suite: win rate on a SPADE environment pool, and two-player zero-sum TextArena games.

Benchmarks (``BENCHMARKS``, gathered by the registry):

- ``spade_pool``: single-player SPADE environments (the bundled library, or ``EvalOptions.env_pool``),
  each seed one item, played in the sandbox; score = win.
- ``tictactoe_random`` / ``tictactoe_minimax``, ``kuhn_poker_random`` / ``kuhn_poker_equilibrium``,
  ``simple_negotiation_random`` / ``simple_negotiation_fixed``: the model against a random-legal or a
  scripted opponent, seats alternated; score = win 1, draw 0.5, loss 0, and an invalid move loses.

``game_outcome_rates(records)`` gives win / draw / loss / error and invalid-move rates for any of them.

Sampling defaults are the SPADE agent's (temperature 0.6, up to 8k tokens per reply): the paper does not
state separate settings for its game evaluation.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from spade_eval.benchmark import Benchmark, BenchmarkFactory, EvalOptions
from spade_eval.suites.games import kuhn_poker, negotiation, tictactoe
from spade_eval.suites.games.arena import TextArenaBenchmark
from spade_eval.suites.games.opponents import Opponent, RandomLegalPlayer
from spade_eval.suites.games.outcomes import game_outcome_rates
from spade_eval.suites.games.spade_pool import SpadePoolBenchmark
from spade_train.policies.base import SamplingParams

AGENT_SAMPLING = SamplingParams(temperature=0.6, top_p=1.0, max_tokens=8192)
"""The reference's agent settings in training (temperature 0.6, 8k tokens per reply)."""


@dataclass(frozen=True)
class ArenaSpec:
    env_id: str
    opponent: Callable[[], Opponent]
    env_class: Callable[[], type] | None = None
    """Replaces the registered game class (registered settings and wrappers kept): Kuhn poker's fix."""


ARENA_GAMES: dict[str, ArenaSpec] = {
    "tictactoe_random": ArenaSpec(tictactoe.ENV_ID, lambda: RandomLegalPlayer(tictactoe.legal_moves)),
    "tictactoe_minimax": ArenaSpec(tictactoe.ENV_ID, tictactoe.MinimaxPlayer),
    "kuhn_poker_random": ArenaSpec(kuhn_poker.ENV_ID, lambda: RandomLegalPlayer(kuhn_poker.legal_moves),
                                   kuhn_poker.chip_accurate_env_class),
    "kuhn_poker_equilibrium": ArenaSpec(kuhn_poker.ENV_ID, kuhn_poker.EquilibriumPlayer,
                                        kuhn_poker.chip_accurate_env_class),
    "simple_negotiation_random": ArenaSpec(negotiation.ENV_ID, negotiation.RandomNegotiator),
    "simple_negotiation_fixed": ArenaSpec(negotiation.ENV_ID, negotiation.FixedNegotiator),
}
"""Benchmark name -> the TextArena game and the opponent met in it."""


def spade_pool(options: EvalOptions) -> Benchmark:
    """spade_pool: win rate on the bundled SPADE library or the pool in ``options.env_pool``."""
    return SpadePoolBenchmark(sampling=AGENT_SAMPLING, pool_dir=options.env_pool, sandbox=options.sandbox,
                              seed=options.seed)


def _arena_factory(name: str) -> BenchmarkFactory:
    spec = ARENA_GAMES[name]

    def factory(options: EvalOptions) -> Benchmark:
        return TextArenaBenchmark(name, spec.env_id, spec.opponent(), sampling=AGENT_SAMPLING,
                                  env_class=spec.env_class, seed=options.seed)

    factory.__doc__ = f"{name}: {spec.env_id} against the {spec.opponent().name} opponent."
    return factory


BENCHMARKS: dict[str, BenchmarkFactory] = {"spade_pool": spade_pool} | {
    name: _arena_factory(name) for name in ARENA_GAMES}

__all__ = ["AGENT_SAMPLING", "BENCHMARKS", "SpadePoolBenchmark", "TextArenaBenchmark", "game_outcome_rates"]
