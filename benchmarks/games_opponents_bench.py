"""How strong are the games suite's opponents? Fixed players against each other, no model involved.

For each TextArena game of ``spade-eval --suite games``, plays every pairing of the random-legal and the
scripted player (seats alternated) on the very game the benchmark uses, and prints the first player's
win / draw / loss rates and games per second. The rows read as reference points for a model's score:
"random vs minimax" is what a model that picks uniformly among legal moves would get against minimax.

    python benchmarks/games_opponents_bench.py               # 500 games per pairing
    python benchmarks/games_opponents_bench.py --games 2000
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from spade_eval.suites.games import ARENA_GAMES
from spade_eval.suites.games.arena import TextArenaBenchmark
from spade_eval.suites.games.opponents import Opponent
from spade_train.policies.base import SamplingParams


def play(benchmark: TextArenaBenchmark, first: Opponent, second: Opponent, seed: int, seat: int,
         rng: random.Random) -> float:
    """One game with ``first`` in ``seat``; its reward (1 win, 0 draw, -1 loss)."""
    env: Any = benchmark.make_env()
    env.reset(num_players=2, seed=seed)
    env.state.error_allowance = 0
    players = {seat: first, 1 - seat: second}
    done = False
    while not done:
        player, _ = env.get_observation()
        done, _ = env.step(players[player].choose(env, player, rng))
    rewards, info = env.close()
    if info[0]["invalid_move"] or info[1]["invalid_move"]:
        raise RuntimeError(f"a fixed player made an invalid move in {benchmark.env_id} (seed {seed})")
    return rewards[seat]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500, help="games per pairing (seats alternated)")
    args = parser.parse_args()
    saved = random.getstate()  # TextArena seeds the global generator; leave the caller's untouched
    games: dict[str, dict[str, Opponent]] = {}
    for name, spec in ARENA_GAMES.items():
        game = name.rsplit("_", 1)[0]
        games.setdefault(game, {})[spec.opponent().name] = spec.opponent()
    print(f"{'game':<20} {'first':<12} {'second':<12} {'win':>6} {'draw':>6} {'loss':>6} {'games/s':>9}")
    for game, players in games.items():
        spec = next(spec for name, spec in ARENA_GAMES.items() if name.startswith(game))
        benchmark = TextArenaBenchmark(game, spec.env_id, next(iter(players.values())),
                                       sampling=SamplingParams(), env_class=spec.env_class)
        for (first_name, first), (second_name, second) in ((a, b) for a in players.items() for b in players.items()):
            rng, start = random.Random(0), time.perf_counter()
            results = [play(benchmark, first, second, seed, seed % 2, rng) for seed in range(args.games)]
            rate = args.games / (time.perf_counter() - start)
            win, draw = results.count(1) / len(results), results.count(0) / len(results)
            print(f"{game:<20} {first_name:<12} {second_name:<12} {win:>6.3f} {draw:>6.3f} "
                  f"{1 - win - draw:>6.3f} {rate:>9.0f}")
    random.setstate(saved)


if __name__ == "__main__":
    main()
