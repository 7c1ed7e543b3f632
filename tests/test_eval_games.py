"""The games suite: opponents are what they claim, outcomes are scored as the protocol says, and the
SPADE pool is played in the sandbox through the project's rollout code."""

from __future__ import annotations

import asyncio
import itertools
import random
import re
import statistics

import pytest

from spade_envs.contract.actions import solution_to_actions
from spade_envs.pool import write_pool
from spade_envs.registry import bundled_registry
from spade_envs.spec.models import EnvSpec, env_id_for
from spade_eval.benchmark import Benchmark, BenchmarkDataError, EvalOptions, ItemRecord
from spade_eval.suites.games import (
    BENCHMARKS,
    SpadePoolBenchmark,
    game_outcome_rates,
    kuhn_poker,
    negotiation,
    tictactoe,
)
from spade_eval.suites.games.opponents import RandomLegalPlayer
from spade_train.policies.base import GenerationRequest, SamplingParams
from spade_train.policies.scripted import ScriptedPolicy
from tests.requires import require
from tests.tiny_model import build_tiny_model

require("textarena", reason="the games suite needs textarena (the eval extra)")  # imported in the tests

SAMPLING = SamplingParams(temperature=0.0, max_tokens=16)
ARENA = [name for name in BENCHMARKS if name != "spade_pool"]


def _run(benchmark: Benchmark, policy, limit: int | None = None, samples: int = 1,
         sampling: SamplingParams = SAMPLING) -> list[ItemRecord]:
    items = benchmark.load(None, limit)

    async def main() -> list[ItemRecord]:
        return list(await asyncio.gather(*(benchmark.run_item(item, policy.generate, sampling, samples)
                                           for item in items)))
    return asyncio.run(main())


def _play_raw(env, players, rng: random.Random, seed: int) -> dict[int, float]:
    """A whole game between two scripted players on an unwrapped TextArena game; the final rewards."""
    env.reset(num_players=2, seed=seed)
    env.state.error_allowance = 0
    done = False
    while not done:
        player = env.state.current_player_id
        done, _ = env.step(players[player].choose(env, player, rng))
    rewards, info = env.close()
    assert not info[0]["invalid_move"] and not info[1]["invalid_move"]
    return rewards


# --------------------------------------------------------------------------------------------- TicTacToe
def test_minimax_never_loses_from_either_seat_against_random_play():
    from textarena.envs.TicTacToe.env import TicTacToeEnv

    minimax, rand = tictactoe.MinimaxPlayer(), RandomLegalPlayer(tictactoe.legal_moves)
    rng, env = random.Random(7), TicTacToeEnv()
    for seat in (0, 1):
        players = {seat: minimax, 1 - seat: rand}
        results = [_play_raw(env, players, rng, seed)[seat] for seed in range(150)]
        assert min(results) >= 0, f"minimax lost from seat {seat}"
        assert results.count(1) > 100  # random play is beaten most of the time, not merely drawn
    assert all(_play_raw(env, {0: minimax, 1: minimax}, rng, seed)[0] == 0 for seed in range(20))


def test_minimax_takes_a_win_and_blocks_a_loss():
    player = tictactoe.MinimaxPlayer()
    board = ("X", "X", "", "O", "O", "", "", "", "")
    assert player.best_moves(board, "X") == [2] and player.best_moves(board, "O") == [5]
    assert player.value(("",) * 9, "O") == 0  # the empty board is a draw


# --------------------------------------------------------------------------------------------- Kuhn poker
def _kuhn_value(opener_strategy, responder_strategy) -> float:
    """Exact expected chips per round for the opener, over the six deals (rules of Kuhn poker)."""
    total = 0.0
    for opener_card, responder_card in itertools.permutations(range(3), 2):
        showdown = 1 if opener_card > responder_card else -1
        opening = opener_strategy(opener_card, "open")
        after_check = responder_strategy(responder_card, "after_check")
        facing_bet = responder_strategy(responder_card, "facing_bet")
        after_check_bet = opener_strategy(opener_card, "after_check_bet")
        value = opening["check"] * (
            after_check["check"] * showdown
            + after_check["bet"] * (after_check_bet["fold"] * -1 + after_check_bet["call"] * 2 * showdown))
        value += opening["bet"] * (facing_bet["fold"] * 1 + facing_bet["call"] * 2 * showdown)
        total += value / 6
    return total


def _pure_strategies(situations):
    """Every deterministic strategy over (card, situation) information sets."""
    infosets = [(card, where) for card in range(3) for where in situations]
    for choice in itertools.product((0, 1), repeat=len(infosets)):
        table = dict(zip(infosets, choice))

        def strategy(card, where, table=table):
            first, second = ("check", "bet") if where in ("open", "after_check") else ("fold", "call")
            return {first: 1.0 - table[card, where], second: float(table[card, where])}
        yield strategy


@pytest.mark.parametrize("alpha", [0.0, 1 / 6, 1 / 3])
def test_kuhn_equilibrium_value_and_no_profitable_deviation(alpha):
    def equilibrium(card, where):
        return kuhn_poker.equilibrium_strategy(card, where, alpha)

    assert _kuhn_value(equilibrium, equilibrium) == pytest.approx(kuhn_poker.GAME_VALUE_FOR_OPENER, abs=1e-12)
    best_opener = max(_kuhn_value(s, equilibrium) for s in _pure_strategies(("open", "after_check_bet")))
    best_responder = min(_kuhn_value(equilibrium, s) for s in _pure_strategies(("after_check", "facing_bet")))
    assert best_opener == pytest.approx(-1 / 18, abs=1e-12)  # no opener strategy beats it
    assert best_responder == pytest.approx(-1 / 18, abs=1e-12)  # nor any responder strategy


def test_kuhn_equilibrium_played_in_textarena_matches_theory():
    """A seeded sample of one-round games through the real game: the opener's mean chips is -1/18."""
    env = kuhn_poker.chip_accurate_env_class()(max_rounds=1)
    player, rng, payoffs = kuhn_poker.EquilibriumPlayer(), random.Random(11), []
    for seed in range(8000):
        rewards = _play_raw(env, {0: player, 1: player}, rng, seed)
        chips = env.state.game_state["player_chips"]
        opener = 1  # TextArena's first round is opened by player 1
        assert chips[0] + chips[1] == 0 and rewards[opener] == (1 if chips[opener] > 0 else -1)
        payoffs.append(chips[opener])
    mean, error = statistics.mean(payoffs), statistics.stdev(payoffs) / len(payoffs) ** 0.5
    assert abs(mean - kuhn_poker.GAME_VALUE_FOR_OPENER) < 3.5 * error, (mean, error)


def test_kuhn_bets_and_calls_put_chips_in_the_pot():
    """Bet and call then showdown moves two chips; the released game moves one and takes a phantom ante."""
    from textarena.envs.KuhnPoker.env import KuhnPokerEnv

    def bet_call(env_class) -> list[int]:
        env = env_class(max_rounds=1)
        env.reset(num_players=2, seed=0)
        env.step("[bet]")
        done, _ = env.step("[call]")
        assert done
        return sorted(env.state.game_state["player_chips"].values())

    assert bet_call(kuhn_poker.chip_accurate_env_class()) == [-2, 2]
    assert bet_call(KuhnPokerEnv) == [-2, 0]


def test_kuhn_situations_are_read_from_public_state():
    env = kuhn_poker.chip_accurate_env_class()(max_rounds=1)
    env.reset(num_players=2, seed=3)
    opener = env.state.game_state["starting_player"]
    assert kuhn_poker.situation(env, opener) == "open"
    env.step("[check]")
    assert kuhn_poker.situation(env, 1 - opener) == "after_check"
    env.step("[bet]")
    assert kuhn_poker.situation(env, opener) == "after_check_bet"
    assert kuhn_poker.legal_moves(env, opener) == ["[fold]", "[call]"]


# --------------------------------------------------------------------------------------------- negotiation
def test_negotiators_only_make_legal_moves():
    from textarena.envs.SimpleNegotiation.env import SimpleNegotiationEnv

    env, rng = SimpleNegotiationEnv(max_turns=10), random.Random(5)
    pairs = [(negotiation.RandomNegotiator(), negotiation.RandomNegotiator()),
             (negotiation.FixedNegotiator(), negotiation.RandomNegotiator()),
             (negotiation.RandomNegotiator(), negotiation.FixedNegotiator())]
    trades = 0
    for seed, (first, second) in enumerate(pairs * 20):
        _play_raw(env, {0: first, 1: second}, rng, seed)  # asserts no invalid move
        trades += sum(t["outcome"] == "Accepted" for t in env.state.game_state["trade_history"])
    assert trades > 0


def test_fixed_negotiator_accepts_only_trades_that_raise_its_value():
    from textarena.envs.SimpleNegotiation.env import SimpleNegotiationEnv

    env = SimpleNegotiationEnv(max_turns=10)
    env.reset(num_players=2, seed=1)
    fixed, own = negotiation.FixedNegotiator(), negotiation.values(env, 1)
    cheapest, dearest = min(own, key=own.get), max(own, key=own.get)
    env.step(f"[Offer: 1 {dearest} -> 1 {cheapest}]")  # player 0 offers player 1 a good deal
    assert fixed.choose(env, 1, random.Random(0)) == "[Accept]"
    env.step("[Deny]")
    env.step(f"[Offer: 1 {cheapest} -> 1 {dearest}]")  # and now a bad one
    move = fixed.choose(env, 1, random.Random(0))
    assert move.startswith("[Deny]")
    offer = re.search(r"\[Offer: (\d+) (\w+) -> 1 (\w+)\]", move)
    assert offer and int(offer[1]) * own[offer[2]] < own[offer[3]]  # it asks for a trade it gains from


# --------------------------------------------------------------------------------------------- arena protocol
def _board_and_mark(observation: str) -> tuple[tuple[str, ...], str]:
    board_text = observation.rsplit("Current Board:", 1)[1]
    rows = [line for line in board_text.splitlines() if "|" in line][:3]
    cells = tuple("" if cell.strip().isdigit() else cell.strip() for row in rows for cell in row.split("|"))
    return cells, re.search(r"you will be '([XO])'", observation)[1]


def _perfect_tictactoe() -> ScriptedPolicy:
    player = tictactoe.MinimaxPlayer()

    def reply(request: GenerationRequest) -> str:
        board, mark = _board_and_mark(request.messages[-1]["content"])
        return f"I can see the board. \\boxed{{{player.best_moves(board, mark)[0]}}}"
    return ScriptedPolicy(reply)


def _arena(name: str, games: int = 12):
    benchmark = BENCHMARKS[name](EvalOptions(seed=1))
    benchmark.games = games
    return benchmark


def test_perfect_play_draws_minimax_and_never_loses_to_random():
    records = _run(_arena("tictactoe_minimax"), _perfect_tictactoe())
    rates = game_outcome_rates(records)
    assert rates["draw_rate"] == 1.0 and rates["invalid_move_rate"] == 0.0 and rates["games"] == 12
    records = _run(_arena("tictactoe_random"), _perfect_tictactoe())
    rates = game_outcome_rates(records)
    assert rates["loss_rate"] == 0.0 and rates["win_rate"] >= 0.75 and rates["error_rate"] == 0.0
    seats = [record.samples[0].details["seat"] for record in records]
    assert seats == [0, 1] * 6
    assert {record.samples[0].score for record in records} <= {1.0, 0.5}


@pytest.mark.parametrize("reply", ["I resign.", "\\boxed{[99]} \\boxed{nonsense move}"])
def test_invalid_or_missing_moves_lose_every_game(reply):
    for name in ARENA:
        if name.startswith("simple_negotiation") and "boxed" in reply:
            continue  # free text is a legal (empty) negotiation move; only a missing box is invalid there
        records = _run(_arena(name, games=4), ScriptedPolicy([reply]))
        rates = game_outcome_rates(records)
        assert rates["loss_rate"] == 1.0 and rates["invalid_move_rate"] == 1.0, name
        assert all(r.samples[0].details["turns"] == 1 and r.samples[0].score == 0.0 for r in records)


def test_negotiation_rates_for_passive_and_gullible_traders():
    deny = ScriptedPolicy(["No deal. \\boxed{Deny}"])
    for name in ("simple_negotiation_fixed", "simple_negotiation_random"):
        assert game_outcome_rates(_run(_arena(name, games=6), deny))["draw_rate"] == 1.0  # no trade: a draw
    accept = ScriptedPolicy(["Deal! \\boxed{Accept}"])
    rates = game_outcome_rates(_run(_arena("simple_negotiation_fixed", games=6), accept))
    assert rates["loss_rate"] == 1.0  # every offer of the fixed trader costs the one who accepts it


def test_games_are_reproducible_and_leave_global_random_alone():
    benchmark = _arena("kuhn_poker_random", games=6)
    policy = ScriptedPolicy(lambda request: "\\boxed{call}" if "[call]" in request.messages[-1]["content"]
                            .rsplit("Your available actions", 1)[-1] else "\\boxed{check}")
    random.seed(123)
    before = random.getstate()
    first = _run(benchmark, policy, samples=2)
    assert random.getstate() == before
    sequential = []
    for item in benchmark.load(None, None):  # one at a time, interleaved with the caller's own draws
        random.random()
        sequential.append(asyncio.run(benchmark.run_item(item, policy.generate, SAMPLING, 2)))
    assert [[s.details for s in r.samples] for r in first] == [[s.details for s in r.samples] for r in sequential]
    assert all(s.details["outcome"] in ("win", "loss", "draw") and not s.details["invalid_move"]
               for r in first for s in r.samples)


def test_seeded_samples_use_seed_plus_k_and_the_runner_resumes_from_its_cache(tmp_path):
    from spade_eval.models import ModelHandle
    from spade_eval.runner import RunOptions, run_benchmark

    policy = _perfect_tictactoe()
    benchmark = _arena("tictactoe_minimax", games=2)
    records = _run(benchmark, policy, samples=2, sampling=SamplingParams(temperature=0.0, seed=40))
    assert {request.sampling.seed for request in policy.requests} == {40, 41}
    assert all(len(record.samples) == 2 for record in records)

    def handle(model) -> ModelHandle:
        return ModelHandle(policy=model, spec="scripted", kind="scripted", name="scripted", fingerprint="perfect")

    options = RunOptions(limit=4, cache_dir=tmp_path, concurrency=4)
    first = asyncio.run(run_benchmark(_arena("tictactoe_minimax"), handle(_perfect_tictactoe()), options))
    assert first.score == 0.5 and first.metrics["draw_rate"] == 1.0 and first.metric.startswith("score")
    failing = ScriptedPolicy(["unused"], fail_every=1)
    again = asyncio.run(run_benchmark(_arena("tictactoe_minimax"), handle(failing), options))
    assert again.score == 0.5 and again.cached_generations > 0 and failing.calls == 0


def test_outcome_rates_ignore_records_without_outcomes():
    assert game_outcome_rates([]) is None
    assert game_outcome_rates([ItemRecord(id="x", samples=[])]) is None


# --------------------------------------------------------------------------------------------- SPADE pool
@pytest.fixture(scope="module")
def pool_benchmark() -> SpadePoolBenchmark:
    benchmark = BENCHMARKS["spade_pool"](EvalOptions(seed=3))
    benchmark.seeds_per_env = 1
    return benchmark


def _solution_policy(benchmark: SpadePoolBenchmark) -> ScriptedPolicy:
    """Replays each environment's own solution(), found by the first observation of the episode."""
    script: dict[str, list[str]] = {}
    for item in benchmark.load(None, None):
        task = item.payload
        with benchmark.backend.open_session(task.environment.code, class_name=task.environment.spec.class_name,
                                            max_turns=task.environment.spec.max_turns) as session:
            observation = session.reset(task.seed).observation
            script[observation] = solution_to_actions(session.solution(), tool_use=session.loaded.tool_use)

    def reply(request: GenerationRequest) -> str:
        turn = sum(message["role"] == "assistant" for message in request.messages)
        return script[request.messages[1]["content"]][turn]
    return ScriptedPolicy(reply)


def test_spade_pool_runs_in_the_sandbox_and_solutions_win_every_item(pool_benchmark):
    assert pool_benchmark.backend.name == "wasm" and pool_benchmark.backend.isolated
    items = pool_benchmark.load(None, None)
    assert len(items) == len(bundled_registry()) and len({item.id for item in items}) == len(items)
    records = _run(pool_benchmark, _solution_policy(pool_benchmark))
    assert all(r.score == 1.0 for r in records), [(r.id, r.samples[0].details) for r in records if r.score < 1]
    details = [r.samples[0].details for r in records]
    assert all(d["outcome"] == "win" and d["return"] == 1.0 and d["terminated"] and d["turns"] >= 1
               for d in details)
    summary = pool_benchmark.summary_metrics(records)
    assert summary["win_rate"] == 1.0 and summary["mean_return"] == 1.0 and "invalid_move_rate" not in summary


def test_spade_pool_garbage_wins_nothing(pool_benchmark):
    records = _run(pool_benchmark, ScriptedPolicy(["hmm \\boxed{zzz}"]))
    assert all(r.score == 0.0 and r.samples[0].details["outcome"] == "loss" for r in records)
    assert all("error" not in r.samples[0].details for r in records)


def test_spade_pool_limit_spreads_over_environments(pool_benchmark):
    pool_benchmark.seeds_per_env = 2
    try:
        items = pool_benchmark.load(None, 3)
        assert len({item.payload.environment.label for item in items}) == 3
        assert len(pool_benchmark.load(None, None)) == 2 * len(bundled_registry())
    finally:
        pool_benchmark.seeds_per_env = 1


def test_spade_pool_reads_an_exported_pool_and_records_broken_environments(tmp_path):
    registry = bundled_registry()
    broken = "class BrokenEnv:\n    def __init__(self, max_turns=3, **kwargs):\n        raise RuntimeError('boom')\n"
    environments = [(registry.get(name).spec(), registry.get(name).source()) for name in ("maze_walk", "mastermind")]
    environments.append((EnvSpec(id=env_id_for(broken), class_name="BrokenEnv", kind="multi_turn_game",
                                 skill="Optimization", max_turns=3), broken))
    write_pool(tmp_path / "pool", "test", environments)
    benchmark = BENCHMARKS["spade_pool"](EvalOptions(env_pool=tmp_path / "pool"))
    benchmark.seeds_per_env = 1
    items = benchmark.load(None, None)
    assert [item.payload.environment.label for item in items] == [spec.id for spec, _ in environments]
    record = _run(benchmark, ScriptedPolicy(["\\boxed{0}"]), limit=3)[2]
    assert record.samples[0].details["outcome"] == "error" and "boom" in record.samples[0].details["error"]
    (tmp_path / "pool" / "environments.jsonl").write_text("tampered\n")
    with pytest.raises(BenchmarkDataError, match="does not match the hash"):
        benchmark.load(None, None)
    with pytest.raises(BenchmarkDataError, match="no manifest.json"):
        BENCHMARKS["spade_pool"](EvalOptions(env_pool=tmp_path / "nothing")).load(None, None)
    with pytest.raises(ValueError, match="unknown sandbox"):
        BENCHMARKS["spade_pool"](EvalOptions(sandbox="docker"))


# --------------------------------------------------------------------------------------------- tiny model
@pytest.fixture(scope="module")
def tiny_policy(tmp_path_factory):
    pytest.importorskip("torch")
    from spade_train.policies.transformers_local import TransformersPolicy

    return TransformersPolicy(build_tiny_model(tmp_path_factory.mktemp("tiny"), max_positions=4096))


@pytest.mark.parametrize("name", list(BENCHMARKS))
def test_tiny_model_plays_each_games_benchmark_end_to_end(name, tiny_policy):
    benchmark = BENCHMARKS[name](EvalOptions(seed=0))
    sampling = SamplingParams(temperature=1.0, max_tokens=12, seed=0)
    records = _run(benchmark, tiny_policy, limit=2 if name != "spade_pool" else 1, sampling=sampling)
    assert len(records) in (1, 2)
    for record in records:
        details = record.samples[0].details
        assert details["outcome"] in ("win", "draw", "loss"), details
        assert details["turns"] >= 1 and record.samples[0].response
    rates = game_outcome_rates(records)
    assert rates["games"] == len(records) and rates["error_rate"] == 0.0
