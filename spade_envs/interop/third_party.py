"""Thin SPADE adapters for third-party environments: gem-llm 0.1.0 and TextArena 0.7.4 games, and
Reasoning Gym 0.1.23 tasks, written as SPADE environment files and packed into a fixed baseline pool.

Promoted from ``benchmarks/third_party/`` (where ``fuzz_third_party.py`` fuzzes every game through these
adapters). ``baseline_pool(OUT, games)`` writes a pool of adapters with their specs, for the fixed-pool
baselines; the adapters import their library, so they run on the ``process`` backend (an isolated child
process with memory and time limits, ``--allow-import`` of the library), not in the WebAssembly sandbox.

For every single-player game this module writes one environment file (one public ``*Env`` class, the
SPADE contract: ``__init__(max_turns=..., **kwargs)``, ``reset(seed) -> (str, dict)``,
``step(action) -> (str, float, bool, bool, dict)``, ``solution() -> None``, ``close()``) that forwards
to the third-party game. Files are generated at run time (``write_adapters``), never committed en masse.

What the adapters convert, and nothing else (the point is to fuzz the games, not to hide their bugs):

* Rewards: a real number of another type (``int``, ``numpy.float64``...) becomes ``float``; ``bool``,
  ``None`` or anything else is passed through unchanged, so the contract check reports it.
* Flags: ``numpy.bool_`` becomes ``bool``; anything else (``0``, ``None``...) is passed through.
* Observations and info dicts are passed through unchanged (the sandbox copies info values into JSON
  types; non-JSON values become short type tags there, not here).
* gem-llm: actions are forwarded unchanged (gem games parse ``\\boxed{...}`` themselves);
  ``reset(seed)`` and ``step(action)`` are the game's own.
* TextArena: the game is built with ``textarena.make(game_id)`` (its default wrappers, as users get
  it) and played as player 0 of a 1-player game: ``reset(num_players=1, seed=seed)``, then
  ``get_observation()`` for the observation. The action's last complete ``\\boxed{X}`` becomes ``[X]``
  (or ``X`` unchanged when X already contains a square bracket, mirroring TextArena's own
  ActionFormattingWrapper); an action without a complete ``\\boxed{}`` is forwarded unchanged.
  TextArena's ``step`` returns only ``(done, info)`` and hands rewards out in ``close()`` at the end
  (0.7.x returns ``(rewards, game_info)``), so the adapter reports reward 0.0 while the game runs and
  ``rewards[0]`` (converted as above) on the step that ends it, ``terminated = done`` and
  ``truncated = False`` (TextArena has no truncation flag: a turn limit ends the game with an outcome),
  and adds ``game_info`` to the info dict of the final step.

* Reasoning Gym: each seed is the one-item dataset ``reasoning_gym.create_dataset(task, size=1,
  seed=seed)``; the question (with "answer as \\boxed{ANSWER}") is the observation; the first action is
  the answer (its last complete ``\\boxed{}``, else the whole action), scored by the task's own
  ``score_answer``; that score is the reward and the episode ends. ``solution()`` is the item's answer.

Compatibility shims, all off by default ("raw" mode). The runner turns one on only after raw fuzzing
found the contract difference it covers, so that fuzzing can look past it; each is reported:

* ``guard_after_end``: after the episode ended, ``step`` returns the last observation with reward 0.0
  and the last flags, without calling the game (Gym-style libraries leave a step after the end
  undefined).
* ``turn_limit``: after ``max_turns`` steps without an end, the adapter itself returns
  ``truncated=True`` (TextArena does not count invalid moves as turns; some games have no limit).
* ``fresh_on_reset``: ``reset`` builds a new game object first (TextArena's observation wrappers keep
  their history across ``reset``).
"""

from __future__ import annotations

import contextlib
import inspect
import io
import re
import time
from dataclasses import dataclass, field
from pathlib import Path

from spade_envs.spec.models import EnvSpec, Provenance, env_id_for

SHIMS: tuple[str, ...] = ("guard_after_end", "turn_limit", "fresh_on_reset")
DEFAULT_MAX_TURNS = 30
"""The adapters' max_turns when a game declares none (the brief's 'game default or 30')."""

# gem-llm 0.1.0: every "game:" id in gem's registry (12 games x difficulty variants = 37 ids).
GEM_GAMES: tuple[str, ...] = (
    "game:GuessTheNumber-v0-hard", "game:GuessTheNumber-v0-easy", "game:GuessTheNumber-v0-random",
    "game:Mastermind-v0-hard", "game:Mastermind-v0-random", "game:Mastermind-v0-easy",
    "game:Minesweeper-v0-easy", "game:Minesweeper-v0-hard", "game:Minesweeper-v0-random",
    "game:Wordle-v0-hard", "game:Wordle-v0-easy", "game:Wordle-v0-random",
    "game:FifteenPuzzle-v0-random", "game:FifteenPuzzle-v0-easy", "game:FifteenPuzzle-v0-hard",
    "game:Hangman-v0-random", "game:Hangman-v0-easy", "game:Hangman-v0-hard",
    "game:Sudoku-v0-easy", "game:Sudoku-v0-hard", "game:Sudoku-v0-random",
    "game:TowerofHanoi-v0-easy", "game:TowerofHanoi-v0-hard", "game:TowerofHanoi-v0-random",
    "game:Game2048-v0-easy", "game:Game2048-v0-hard", "game:Game2048-v0-extreme-hard", "game:Game2048-v0-random",
    "game:Sokoban-v0-easy", "game:Sokoban-v0-hard", "game:Sokoban-v0-random",
    "game:Crosswords-v0-easy", "game:Crosswords-v0-hard", "game:Crosswords-v0-random",
    "game:WordSearch-v0-easy", "game:WordSearch-v0-hard", "game:WordSearch-v0-random",
)

# TextArena 0.7.4: one id per single-player game (its default variant; "[1 Player]" in its registry).
TEXTARENA_GAMES: tuple[str, ...] = (
    "2048-v0", "Bandit-v0", "Blackjack-v0", "Countdown-v0", "Crosswords-v0", "Cryptarithm-v0",
    "FifteenPuzzle-v0", "FrozenLake-v0", "GuessTheNumber-v0", "GuessWho-v0", "Hangman-v0", "LightsOut-v0",
    "LogicPuzzle-v0", "Mastermind-v0", "Minesweeper-v0", "PegJump-v0", "RushHour-v0", "Secretary-v0",
    "Set-v0", "Klondike-v0", "Slitherlink-v0", "Sokoban-v0", "Sudoku-v0", "ThreeCardMonte-v0",
    "TowerOfHanoi-v0", "TwentyQuestions-v0", "WordLadder-v0", "Wordle-v0", "WordSearch-v0",
)

# Reasoning Gym 0.1.23: single-answer tasks that build offline (their ids are reasoning_gym's task names).
REASONING_GYM_TASKS: tuple[str, ...] = ("basic_arithmetic", "chain_sum", "leg_counting", "letter_counting")

LIBRARIES = {"gem": GEM_GAMES, "textarena": TEXTARENA_GAMES, "reasoning_gym": REASONING_GYM_TASKS}
IMPORTS = {"gem": "gem", "textarena": "textarena", "reasoning_gym": "reasoning_gym"}
"""The module each library's adapters import (``--allow-import`` it, on the process backend)."""

# Errors that mean "this game needs something an offline machine does not have", not a defect.
OFFLINE_MARKERS: tuple[tuple[str, str], ...] = (
    ("Resource words not found", "needs the NLTK 'words' corpus (nltk.download), which is not available offline"),
    ("Resource \x1b[93mwords\x1b[0m not found", "needs the NLTK 'words' corpus (nltk.download), which is not available offline"),
    ("OPENROUTER_API_KEY", "needs an OpenRouter API key (an LLM plays the other role)"),
)


def offline_reason(message: str) -> str | None:
    """Why a load failure is a missing offline resource rather than a defect, or None."""
    flat = message.replace("\n", " ")
    for marker, reason in OFFLINE_MARKERS:
        if marker in flat or marker.replace("\x1b[93m", "").replace("\x1b[0m", "") in flat:
            return reason
    if "nltk" in flat.lower() and "words" in flat and "not found" in flat:
        return OFFLINE_MARKERS[0][1]
    return None


@dataclass
class GameSpec:
    library: str
    game_id: str
    class_name: str
    max_turns: int | None
    """The adapter's default max_turns: the game's own limit, or DEFAULT_MAX_TURNS without one; None: the
    adapter learns it itself, in the sandbox (``sandboxed_game``)."""
    game_has_limit: bool | None
    forward_max_turns: bool | None
    """Whether the game's constructor takes max_turns (then an explicit max_turns is forwarded); None: the
    adapter finds out in the sandbox."""
    probe_error: str | None = None
    """What went wrong building/resetting the game on the host (the adapter is still generated)."""
    notes: list[str] = field(default_factory=list)


def class_name_for(library: str, game_id: str) -> str:
    prefix = {"gem": "Gem", "textarena": "TextArena", "reasoning_gym": "ReasoningGym"}[library]
    stem = game_id.split(":", 1)[-1]
    parts = re.split(r"[^0-9A-Za-z]+", stem)
    body = "".join(p[:1].upper() + p[1:] for p in parts if p)
    if body[:1].isdigit():
        body = "Game" + body
    return f"{prefix}{body}Env"


def file_name_for(library: str, game_id: str) -> str:
    stem = re.sub(r"[^0-9A-Za-z]+", "_", game_id.split(":", 1)[-1]).strip("_").lower()
    return f"{library}_{stem}_env.py"


SANDBOX_MEMORY_MB = {"textarena": 1024}
"""Address space an adapter needs above the process sandbox's default (256 MB): importing TextArena 0.7.4
maps about 630 MB (numpy, scipy, pandas and nltk with their thread pools)."""


def sandboxed_game(library: str, game_id: str) -> GameSpec:
    """A game named by a user (``spade-envs validate textarena:Wordle-v0``): nothing of the library runs
    on the host, so the adapter learns the game's turn limit, and whether its constructor takes one, in
    the sandbox when it is built (``probe_game`` reads them on the host, for the fixed baseline pools)."""
    if library == "reasoning_gym":
        return GameSpec(library, game_id, class_name_for(library, game_id), 1, True, False)
    return GameSpec(library, game_id, class_name_for(library, game_id), None, None, None)


# ---------------------------------------------------------------------- probing (host side, metadata only)
@contextlib.contextmanager
def _quiet():
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        yield


def _describe(error: BaseException) -> str:
    return f"{type(error).__name__}: {' '.join(str(error).split())[:300]}"


def probe_game(library: str, game_id: str, seeds: range = range(16), budget_s: float = 20.0) -> GameSpec:
    """Learn the game's turn limit by building it on the host. Failures are recorded, not raised."""
    spec = GameSpec(library, game_id, class_name_for(library, game_id), DEFAULT_MAX_TURNS, False, False)
    started = time.perf_counter()
    limits: list[int] = []
    if library == "reasoning_gym":
        spec.max_turns, spec.game_has_limit = 1, True
        try:
            with _quiet():
                import reasoning_gym

                reasoning_gym.create_dataset(game_id, size=1, seed=0)
        except BaseException as error:  # noqa: BLE001 -- third-party code may raise anything
            spec.probe_error = _describe(error)
        return spec
    try:
        with _quiet():
            if library == "gem":
                import gem
                from gem.envs.registration import ENV_REGISTRY

                registered = ENV_REGISTRY[game_id].kwargs.get("max_turns", "absent")
                spec.forward_max_turns = "max_turns" in ENV_REGISTRY[game_id].kwargs
                env = gem.make(game_id)
                if isinstance(registered, int):
                    limits.append(registered)
                else:  # "-random" variants draw their limit in reset(): take the largest over the fuzzed seeds
                    for seed in seeds:
                        env.reset(seed=seed)
                        if isinstance(getattr(env, "max_turns", None), int):
                            limits.append(env.max_turns)
                        if time.perf_counter() - started > budget_s:
                            spec.notes.append(f"turn limit probed on seeds 0..{seed} only (slow resets)")
                            break
            else:
                import textarena as ta
                from textarena.envs.registration import ENV_REGISTRY

                entry = ENV_REGISTRY[game_id].entry_point
                if isinstance(entry, str):
                    import importlib

                    module_name, _, attr = entry.partition(":")
                    entry = getattr(importlib.import_module(module_name), attr)
                spec.forward_max_turns = "max_turns" in inspect.signature(entry).parameters
                env = ta.make(game_id)
                env.reset(num_players=1, seed=0)
                limit = getattr(env.state, "max_turns", None)
                if isinstance(limit, int):
                    limits.append(limit)
    except BaseException as error:  # noqa: BLE001 -- third-party code may raise anything
        spec.probe_error = _describe(error)
    if limits:
        spec.max_turns, spec.game_has_limit = max(limits), True
    return spec


# ---------------------------------------------------------------------- the generated source
_COMMON = '''
def _reward(value):
    """A real number of another type (int, numpy.float64) becomes float; anything else passes through."""
    if value is True or value is False or value is None:
        return value
    if isinstance(value, numbers.Real):
        return float(value)
    return value


def _flag(value):
    """numpy.bool_ becomes bool; anything else passes through unchanged."""
    if type(value).__name__ == "bool_":
        return bool(value)
    return value
'''

LAST_BOXED = r'''def _last_boxed(text):
    """The content of the last complete \\boxed{...} (braces balanced), or None."""
    found = None
    start = text.find("\\boxed{")
    while start != -1:
        depth, index = 1, start + len("\\boxed{")
        while index < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[index], 0)
            index += 1
        if depth == 0:
            found = text[start + len("\\boxed{"):index - 1]
        start = text.find("\\boxed{", start + 1)
    return found
'''
"""The adapters' reading of an action: what its last complete ``\\boxed{}`` holds, braces balanced (one
function, placed in every generated adapter that reads boxed actions)."""


_GEM_TEMPLATE = '''"""gem-llm {game_id} as a SPADE environment: a thin adapter generated by
spade_envs/interop/third_party.py (see its docstring for every conversion). Shims: {shims_text}."""

import numbers

import gem

GAME_ID = {game_id!r}
GAME_MAX_TURNS = {max_turns!r}
GAME_HAS_LIMIT = {has_limit!r}
FORWARD_MAX_TURNS = {forward!r}
SHIMS = {shims!r}
DEFAULT_MAX_TURNS = {default_max_turns!r}
{common}

def _takes_max_turns():
    """Whether the game registers a max_turns (then it takes one)."""
    from gem.envs.registration import ENV_REGISTRY

    return "max_turns" in ENV_REGISTRY[GAME_ID].kwargs


def _own_limit(options):
    """The game's own turn limit: the one it registers, or (for "-random" variants, which draw theirs
    on reset) the largest over the first eight seeds; DEFAULT_MAX_TURNS for a game without one."""
    from gem.envs.registration import ENV_REGISTRY

    registered = ENV_REGISTRY[GAME_ID].kwargs.get("max_turns")
    if type(registered) is int and registered > 0:
        return registered
    game, limits = gem.make(GAME_ID, **options), []
    for seed in range(8):
        game.reset(seed=seed)
        limit = getattr(game, "max_turns", None)
        if type(limit) is int and limit > 0:
            limits.append(limit)
    return max(limits) if limits else DEFAULT_MAX_TURNS


class {class_name}:
    """Actions are forwarded unchanged: gem games read the last \\\\boxed{{...}} themselves."""

    def __init__(self, max_turns=GAME_MAX_TURNS, **kwargs):
        self._options = dict(kwargs)
        own = GAME_MAX_TURNS if GAME_MAX_TURNS is not None else _own_limit(self._options)
        self.max_turns = own if max_turns is None else max_turns
        forward = FORWARD_MAX_TURNS if FORWARD_MAX_TURNS is not None else _takes_max_turns()
        if forward and self.max_turns != own:
            self._options["max_turns"] = self.max_turns
        self._game = gem.make(GAME_ID, **self._options)
        self._ended = False
        self._last = None
        self._steps = 0

    def reset(self, seed=None):
        if "fresh_on_reset" in SHIMS:
            self._game = gem.make(GAME_ID, **self._options)
        self._ended, self._last, self._steps = False, None, 0
        return self._game.reset(seed=seed)

    def step(self, action):
        if "guard_after_end" in SHIMS and self._ended:
            observation, terminated, truncated = self._last
            return observation, 0.0, terminated, truncated, {{}}
        observation, reward, terminated, truncated, info = self._game.step(action)
        reward, terminated, truncated = _reward(reward), _flag(terminated), _flag(truncated)
        self._steps += 1
        if "turn_limit" in SHIMS and self._steps >= self.max_turns and not (terminated or truncated):
            truncated = True
        self._ended = terminated is True or truncated is True
        self._last = (observation, terminated, truncated)
        return observation, reward, terminated, truncated, info

    def solution(self):
        return None  # gem games ship no reference solution

    def close(self):
        close = getattr(self._game, "close", None)
        if callable(close):
            close()
'''

_TEXTARENA_TEMPLATE = '''"""TextArena {game_id} as a SPADE environment: a thin adapter generated by
spade_envs/interop/third_party.py (see its docstring for every conversion). Shims: {shims_text}."""

import numbers

import textarena

GAME_ID = {game_id!r}
GAME_MAX_TURNS = {max_turns!r}
GAME_HAS_LIMIT = {has_limit!r}
FORWARD_MAX_TURNS = {forward!r}
SHIMS = {shims!r}
DEFAULT_MAX_TURNS = {default_max_turns!r}
{common}

def _own_limit(options):
    """The game's own turn limit (TextArena keeps it on the state a reset builds), or DEFAULT_MAX_TURNS."""
    game = textarena.make(GAME_ID, **options)
    game.reset(num_players=1, seed=0)
    limit = getattr(getattr(game, "state", None), "max_turns", None)
    return limit if type(limit) is int and limit > 0 else DEFAULT_MAX_TURNS


def _takes(options, max_turns):
    """Whether the game's constructor takes max_turns: it is tried, and refused by name if not."""
    try:
        textarena.make(GAME_ID, **options, max_turns=max_turns)
    except TypeError as error:
        if "max_turns" in str(error):
            return False
        raise
    return True


{last_boxed}

def _to_textarena(action):
    """\\\\boxed{{X}} -> [X] (X unchanged when it already has a bracket); other text is forwarded as is."""
    inner = _last_boxed(action) if isinstance(action, str) else None
    if inner is None:
        return action
    return inner if ("[" in inner or "]" in inner) else "[" + inner + "]"


class {class_name}:
    """Player 0 of a one-player TextArena game; rewards arrive from close() when the game ends."""

    def __init__(self, max_turns=GAME_MAX_TURNS, **kwargs):
        self._options = dict(kwargs)
        own = GAME_MAX_TURNS if GAME_MAX_TURNS is not None else _own_limit(self._options)
        self.max_turns = own if max_turns is None else max_turns
        if self.max_turns != own and FORWARD_MAX_TURNS is not False:
            if FORWARD_MAX_TURNS or _takes(self._options, self.max_turns):
                self._options["max_turns"] = self.max_turns
        self._game = textarena.make(GAME_ID, **self._options)
        self._ended = False
        self._last = None
        self._steps = 0

    def reset(self, seed=None):
        if "fresh_on_reset" in SHIMS:
            self._game = textarena.make(GAME_ID, **self._options)
        self._ended, self._last, self._steps = False, None, 0
        self._game.reset(num_players=1, seed=seed)
        player_id, observation = self._game.get_observation()
        return observation, {{"player_id": player_id}}

    def step(self, action):
        if "guard_after_end" in SHIMS and self._ended:
            observation, terminated, truncated = self._last
            return observation, 0.0, terminated, truncated, {{}}
        done, info = self._game.step(_to_textarena(action))
        player_id, observation = self._game.get_observation()
        info = dict(info) if isinstance(info, dict) else info
        reward, truncated = 0.0, False
        if done:
            rewards, game_info = self._game.close()
            reward = rewards.get(0) if isinstance(rewards, dict) else rewards
            if isinstance(info, dict):
                info["game_info"] = game_info
        reward, done = _reward(reward), _flag(done)
        self._steps += 1
        if "turn_limit" in SHIMS and self._steps >= self.max_turns and done is not True:
            truncated = True
        self._ended = done is True or truncated
        self._last = (observation, done, truncated)
        return observation, reward, done, truncated, info

    def solution(self):
        return None  # TextArena games ship no reference solution

    def close(self):
        pass  # TextArena's close() ends the game and hands out rewards: step() calls it at the end
'''


_REASONING_GYM_TEMPLATE = '''"""Reasoning Gym {game_id} as a SPADE environment: a thin adapter generated by
spade_envs/interop/third_party.py (see its docstring for every conversion). Shims: {shims_text}."""

import numbers

import reasoning_gym

TASK = {game_id!r}
BOXED_ONLY = {boxed_only!r}
{common}

{last_boxed}

class {class_name}:
    """One Reasoning Gym item per seed; the first action is the answer, scored by the task itself."""

    def __init__(self, max_turns=1, **kwargs):
        self.max_turns = max_turns
        self._data = None
        self._entry = None
        self._done = False

    def reset(self, seed=None):
        self._data = reasoning_gym.create_dataset(TASK, size=1, seed=0 if seed is None else seed)
        self._entry = self._data[0]
        self._done = False
        return self._entry["question"] + "\\n\\nAnswer as \\\\boxed{{ANSWER}}.", {{}}

    def step(self, action):
        if self._done:
            return "The episode is over.", 0.0, True, False, {{}}
        text = action if isinstance(action, str) else str(action)
        answer = _last_boxed(text)
        if answer is None and BOXED_ONLY:
            score = 0.0  # the contract's answers are boxed: an unboxed reply is no answer
        else:
            score = _reward(self._data.score_answer(answer=text if answer is None else answer, entry=self._entry))
        self._done = True
        return ("Correct." if score == 1.0 else "Not correct."), score, True, False, {{"score": score}}

    def solution(self):
        return str(self._entry["answer"])

    def close(self):
        pass
'''


def render_adapter(spec: GameSpec, shims: tuple[str, ...] = (), *, boxed_only: bool = False) -> str:
    """The adapter's source. ``boxed_only`` (Reasoning Gym): a reply without a complete ``\\boxed{}`` scores
    0 instead of being scored whole, so that an audit (``spade-envs validate reasoning_gym:TASK``) judges
    the task's own scorer, not this adapter's leniency."""
    unknown = set(shims) - set(SHIMS)
    if unknown:
        raise ValueError(f"unknown shims: {sorted(unknown)}")
    template = {"gem": _GEM_TEMPLATE, "textarena": _TEXTARENA_TEMPLATE,
                "reasoning_gym": _REASONING_GYM_TEMPLATE}[spec.library]
    ordered = tuple(s for s in SHIMS if s in shims)
    return template.format(
        game_id=spec.game_id,
        class_name=spec.class_name,
        max_turns=spec.max_turns,
        has_limit=spec.game_has_limit,
        forward=spec.forward_max_turns,
        shims=ordered,
        shims_text=", ".join(ordered) or "none (raw)",
        common=_COMMON,
        boxed_only=boxed_only,
        default_max_turns=DEFAULT_MAX_TURNS,
        last_boxed=LAST_BOXED,
    )


BASELINE_SHIMS: tuple[str, ...] = ("guard_after_end", "turn_limit", "fresh_on_reset")
"""The shims a baseline pool's adapters carry: the contract differences fuzzing found in these libraries
(``benchmarks/third_party/README.md``), so the games play by SPADE's episode rules."""


TARGET_PREFIXES: dict[str, str] = {"reasoning_gym:": "reasoning_gym", "textarena:": "textarena", "gem:": "gem"}
"""How a command line names a third-party task or game: ``reasoning_gym:leg_counting``,
``textarena:Wordle-v0``, ``gem:game:Sudoku-v0-easy`` (or ``gem:Sudoku-v0-easy``)."""

_NO_SOLUTION = ("the game ships no reference solution, so its feasibility tier (a winning play exists, no cheap "
                "policy or leaked answer wins) is not run")
_EPISODE_RULES = ("the adapter itself ends an episode at max_turns, answers a step after the end and builds a "
                  "fresh game on reset (SPADE's episode rules): those contract points are the adapter's, not the "
                  "game's")
UNCHECKED: dict[str, tuple[str, ...]] = {
    "reasoning_gym": (("only boxed answers are scored: a reply without \\boxed{} scores 0 here, whatever the "
                       "task's own scorer would make of it"),),
    "textarena": (_NO_SOLUTION, _EPISODE_RULES,
                  ("rewards arrive only when the game ends (TextArena hands them out in close()): partial "
                   "credit during play is not seen")),
    "gem": (_NO_SOLUTION, _EPISODE_RULES),
}
"""What the gate cannot check of each library's tasks through its adapter, said in every report."""


@dataclass(frozen=True)
class LibraryTarget:
    """A third-party task or game named on a command line, as an environment file of our contract."""

    label: str
    source: str
    class_name: str
    libraries: tuple[str, ...]
    """What the adapter imports (``--allow-import`` them, in the process sandbox)."""
    memory_mb: int | None
    """Address space the process sandbox must allow it (None: the default)."""
    reference_solution: bool
    """Whether the adapter's solution() gives the answer (Reasoning Gym) or nothing (the games)."""
    answer_format_required: bool
    """Whether the grader is held to SPADE's boxed answers (``ValidationJob.answer_format_required``)."""
    notes: tuple[str, ...]


def library_target(target: str) -> LibraryTarget:
    """The adapter for ``LIBRARY:ID`` (``TARGET_PREFIXES``). Nothing of the library runs here: an unknown
    id is reported by the sandboxed run, in the library's own words. A malformed id is a ``ValueError``
    whose message says how to write one."""
    prefix = next((p for p in TARGET_PREFIXES if target.startswith(p)), None)
    if prefix is None:
        raise ValueError(f"{target!r} names no library; write " + ", ".join(f"{p}ID" for p in TARGET_PREFIXES))
    library, name = TARGET_PREFIXES[prefix], target[len(prefix):]
    if library == "gem" and not name.startswith("game:"):
        name = "game:" + name  # gem's game ids all start with "game:"; its other namespaces are not games
    body = name.removeprefix("game:") if library == "gem" else name
    if not re.fullmatch(r"[A-Za-z0-9_.-]{1,80}", body):
        example = {"reasoning_gym": "leg_counting", "textarena": "Wordle-v0", "gem": "game:Sudoku-v0-easy"}[library]
        raise ValueError(f"{target!r} is not a {library} id (letters, digits, '.', '_' or '-'); write "
                         f"{prefix}ID, e.g. {prefix}{example}")
    spec = sandboxed_game(library, name)
    source = (render_adapter(spec, boxed_only=True) if library == "reasoning_gym"
              else render_adapter(spec, BASELINE_SHIMS))
    return LibraryTarget(target, source, spec.class_name, (IMPORTS[library],), SANDBOX_MEMORY_MB.get(library),
                         library == "reasoning_gym", True, UNCHECKED[library])


def write_adapters(out_dir: Path, specs: list[GameSpec], shims: tuple[str, ...] = ()) -> list[Path]:
    """Write one environment file per game into ``out_dir`` (created if needed)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for spec in specs:
        path = out_dir / file_name_for(spec.library, spec.game_id)
        path.write_text(render_adapter(spec, shims), encoding="utf-8")
        paths.append(path)
    return paths


def baseline_pool(directory: Path, games: list[tuple[str, str]], *, name: str = "third-party-baselines",
                  shims: tuple[str, ...] = BASELINE_SHIMS) -> list[EnvSpec]:
    """Write a fixed pool of adapters for ``games`` ((library, game id) pairs) to ``directory``.

    Each game is probed on the host (its turn limit: trusted library code, not model-written); a game
    that cannot be built here (a missing offline resource, a bug) is a ``ValueError`` naming it, before
    anything is written. The pool's specs say which library each environment imports.
    """
    from spade_envs.pool import write_pool

    environments = []
    for library, game_id in games:
        if library not in LIBRARIES:
            raise ValueError(f"unknown library {library!r}; choose from {', '.join(LIBRARIES)}")
        spec = probe_game(library, game_id)
        if spec.probe_error is not None:
            raise ValueError(f"{library}:{game_id} cannot be built here: {spec.probe_error}")
        source = render_adapter(spec, () if library == "reasoning_gym" else shims)
        environments.append((EnvSpec(
            id=env_id_for(source), class_name=spec.class_name,
            kind="single_answer" if library == "reasoning_gym" else "multi_turn_game",
            skill=f"{library} baseline", max_turns=spec.max_turns, reward_range=(-1.0, 1.0),
            provenance=Provenance(author="third-party"),
            description=f"{library}:{game_id} (imports {IMPORTS[library]}; run it on the process backend)",
        ), source))
    write_pool(directory, name, environments, validated=False)
    return [spec for spec, _ in environments]


def main() -> None:
    import argparse

    parser = argparse.ArgumentParser(description="Write SPADE adapter files for gem-llm / TextArena games.")
    parser.add_argument("--out", default=str(Path(__file__).parent / "generated"))
    parser.add_argument("--library", choices=sorted(LIBRARIES), action="append")
    parser.add_argument("--shim", choices=SHIMS, action="append", default=[])
    args = parser.parse_args()
    specs = [probe_game(lib, game) for lib in (args.library or sorted(LIBRARIES)) for game in LIBRARIES[lib]]
    for path in write_adapters(Path(args.out), specs, tuple(args.shim)):
        print(path)


if __name__ == "__main__":
    main()
