"""Two-player zero-sum TextArena games: the model against a fixed opponent, seats alternated.

The protocol is SPIRAL's evaluation: each time it is the model's turn it gets one user message, the
game's observation for its seat inside SPIRAL's instruction, and its move is the last ``\\boxed{}`` of
the reply (brackets added when missing, as TextArena's own action formatter does). A reply without a
boxed move, or a move the game rejects, loses the game at once: TextArena would forgive one invalid
move, so the allowance is set to zero. The outcome comes from the game's final rewards.

TextArena draws its deals and resources from Python's global ``random`` module. So that concurrent
games, and the caller's own use of ``random``, cannot change a game, each game keeps its own generator
state and swaps it in around every call into TextArena, under a lock (``_isolated_random``).
"""

from __future__ import annotations

import contextlib
import random
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from spade_envs.contract.actions import extract_boxed
from spade_eval.benchmark import EvalItem, Generate, ItemRecord, SampleRecord
from spade_eval.suites.games.opponents import Opponent
from spade_eval.suites.games.outcomes import SCORES, Outcome, game_outcome_rates, sample_sampling
from spade_train.policies.base import GenerationRequest, SamplingParams

TEXTARENA_VERSION = "0.7.4"
"""The version the games were checked against (pinned in the ``eval`` extra)."""

GAME_PROMPT = (
    "You are playing a two-player zero-sum game. Make valid actions to win.\n"
    "Observation: {observation}\n"
    "Please reason step by step, and put your final answer within \\boxed{{}}."
)
"""SPIRAL's game instruction, sent as the user message of every turn."""

DEFAULT_GAMES = 100
"""Games per benchmark: 50 from each seat."""

MAX_MOVES = 200
"""Moves of both players after which a game is abandoned as an error (no supported game comes close)."""

_GLOBAL_RANDOM_LOCK = threading.Lock()
"""Guards the interpreter-wide ``random`` state while a game's own state is swapped in."""


def import_textarena() -> Any:
    """``textarena``, or an ImportError that says how to install it."""
    try:
        import textarena
    except ImportError as error:
        raise ImportError(f'the TextArena games need textarena: pip install "spade-toolkit[eval]" ({error})') \
            from None
    return textarena


@dataclass
class _GameRandom:
    """One game's own ``random`` state, swapped in for the duration of each call into TextArena."""

    state: Any = field(default_factory=lambda: random.Random().getstate())

    @contextlib.contextmanager
    def active(self) -> Iterator[None]:
        with _GLOBAL_RANDOM_LOCK:
            saved = random.getstate()
            random.setstate(self.state)
            try:
                yield
            finally:
                self.state = random.getstate()
                random.setstate(saved)


@dataclass(frozen=True)
class ArenaGame:
    """One game in one seat: the TextArena seed and which player the model is (0 moves first)."""

    seed: int
    seat: int


@dataclass
class GameResult:
    outcome: Outcome
    invalid_move: bool = False
    turns: int = 0
    """Moves the model made."""
    response: str = ""
    move: str | None = None
    reason: str = ""
    rewards: dict[int, float] = field(default_factory=dict)
    opponent_invalid_move: bool = False
    error: str | None = None


class TextArenaBenchmark:
    """The model against ``opponent`` in the TextArena game ``env_id``; seat alternates item by item."""

    suite = "games"
    samples = 1
    metric = "score (win 1, draw 1/2, loss 0)"

    def __init__(
        self,
        name: str,
        env_id: str,
        opponent: Opponent,
        *,
        sampling: SamplingParams,
        env_class: Callable[[], type] | None = None,
        games: int = DEFAULT_GAMES,
        seed: int = 0,
    ) -> None:
        if games < 1:
            raise ValueError(f"games must be at least 1, got {games}")
        self.name = name
        self.env_id = env_id
        self.sampling = sampling
        self.games = games
        self.seed = seed
        self.opponent = opponent
        self._textarena = import_textarena()
        self._env_class = env_class

    def make_env(self) -> Any:
        """The registered game with its registered settings and wrappers, built from ``env_class`` if given."""
        if self._env_class is None:
            return self._textarena.make(self.env_id)
        spec = self._textarena.envs.registration.ENV_REGISTRY[self.env_id]
        env = self._env_class()(**spec.kwargs)
        for wrapper in spec.default_wrappers or ():
            env = wrapper(env)
        return env

    def load(self, data_dir: Path | None, limit: int | None) -> list[EvalItem]:
        """``games`` games, seat 0 and seat 1 in turn; the games are generated, so ``data_dir`` is unused."""
        count = self.games if limit is None else max(0, min(limit, self.games))
        items = []
        for index in range(count):
            game = ArenaGame(seed=self.seed * 1_000_000 + index, seat=index % 2)
            items.append(EvalItem(id=f"game{index:04d}-seat{game.seat}-seed{game.seed}", payload=game))
        return items

    async def run_item(self, item: EvalItem, generate: Generate, sampling: SamplingParams,
                       samples: int) -> ItemRecord:
        """Play the game ``samples`` times, one after another, so the requests come in a fixed order (the
        generation cache counts repeated identical requests of an item). With a seed in ``sampling``,
        sample k uses seed + k."""
        game: ArenaGame = item.payload
        records = []
        for sample in range(samples):
            opponent_rng = random.Random(game.seed * 1_000 + sample)
            result = await self.play(game, generate, sample_sampling(sampling, sample), opponent_rng)
            records.append(_sample_record(result, game, self.opponent.name))
        return ItemRecord(id=item.id, samples=records)

    def summary_metrics(self, records: list[ItemRecord]) -> dict[str, float]:
        """Win, draw, loss, error and invalid-move rates (``game_outcome_rates``)."""
        return game_outcome_rates(records) or {}

    def close(self) -> None:
        """Nothing to release: every game is built and dropped within ``run_item``."""

    async def play(self, game: ArenaGame, generate: Generate, sampling: SamplingParams,
                   opponent_rng: random.Random) -> GameResult:
        """One full game. Model and environment failures end the game as an ``error``, never raise."""
        try:
            return await self._play(game, generate, sampling, opponent_rng)
        except Exception as error:  # noqa: BLE001 - a broken game is recorded, not raised
            return GameResult(outcome="error", error=f"{self.env_id}: {type(error).__name__}: {error}")

    async def _play(self, game: ArenaGame, generate: Generate, sampling: SamplingParams,
                    opponent_rng: random.Random) -> GameResult:
        game_random = _GameRandom()
        with game_random.active():
            env = self.make_env()
            env.reset(num_players=2, seed=game.seed)
            env.state.error_allowance = 0  # an invalid move loses at once (SPIRAL protocol)
        result = GameResult(outcome="error")
        for _ in range(MAX_MOVES):
            with game_random.active():
                player, observation = env.get_observation()
            if player == game.seat:
                request = GenerationRequest(
                    messages=[{"role": "user", "content": GAME_PROMPT.format(observation=observation)}],
                    sampling=sampling, role="agent")
                generation = await generate(request)
                if not generation.ok:
                    result.error = f"policy: {generation.error}"
                    return result
                result.turns += 1
                result.response = generation.text
                result.move = extract_boxed(generation.text)
                if result.move is None or not result.move.strip():
                    result.outcome, result.invalid_move = "loss", True
                    result.reason = "the reply has no \\boxed{} move"
                    return result
                action = result.move.strip()
                action = action if "[" in action else f"[{action}]"
            else:
                with game_random.active():
                    action = self.opponent.choose(env, player, opponent_rng)
            with game_random.active():
                done, _ = env.step(action)
            if done:
                break
        else:
            result.error = f"the game did not end within {MAX_MOVES} moves"
            return result
        with game_random.active():
            rewards, game_info = env.close()
        return _finish(result, rewards, game_info, game.seat)


def _finish(result: GameResult, rewards: dict[int, float], game_info: dict[int, dict[str, Any]],
            seat: int) -> GameResult:
    result.rewards = {int(player): float(reward) for player, reward in (rewards or {}).items()}
    mine = result.rewards.get(seat)
    if mine is None:
        result.error = "the game ended without rewards"
        return result
    result.outcome = "win" if mine > 0 else "loss" if mine < 0 else "draw"
    result.invalid_move = bool(game_info.get(seat, {}).get("invalid_move"))
    result.opponent_invalid_move = bool(game_info.get(1 - seat, {}).get("invalid_move"))
    result.reason = str(game_info.get(seat, {}).get("reason") or "")
    return result


def _sample_record(result: GameResult, game: ArenaGame, opponent: str) -> SampleRecord:
    details: dict[str, Any] = {
        "outcome": result.outcome,
        "invalid_move": result.invalid_move,
        "seat": game.seat,
        "seed": game.seed,
        "opponent": opponent,
        "turns": result.turns,
        "reason": result.reason,
    }
    if result.opponent_invalid_move:
        details["opponent_invalid_move"] = True
    if result.error:
        details["error"] = result.error
    return SampleRecord(score=SCORES[result.outcome], response=result.response, extracted=result.move,
                        details=details)
