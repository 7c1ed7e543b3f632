"""Reproduce, directly against gem-llm 0.1.0 and TextArena 0.7.4 (no SPADE code, no adapter), the
defects that fuzzing the adapters found. Each check prints CONFIRMED or NOT REPRODUCED.

    .venv/bin/python benchmarks/third_party/repro_findings.py            # all (about a minute)
    .venv/bin/python benchmarks/third_party/repro_findings.py --skip-slow  # without the Sokoban timing
"""

from __future__ import annotations

import argparse
import contextlib
import io
import time
import traceback
from collections.abc import Callable

CHECKS: list[tuple[str, Callable[[], tuple[bool, str]]]] = []


def check(name: str):
    def register(function: Callable[[], tuple[bool, str]]):
        CHECKS.append((name, function))
        return function
    return register


def _gem(game_id: str):
    import gem

    with contextlib.redirect_stderr(io.StringIO()):
        return gem.make(game_id)


# ---------------------------------------------------------------------- gem-llm 0.1.0
@check("gem: a step after the episode ended is played and scored again (every game)")
def gem_post_episode() -> tuple[bool, str]:
    env = _gem("game:GuessTheNumber-v0-hard")
    env.reset(seed=0)
    first = env.step("\\boxed{You}")
    again = env.step("\\boxed{You}")
    evidence = (f"step 1 -> reward {first[1]}, terminated {first[2]}; step 2 after the end -> reward {again[1]}, "
                f"terminated {again[2]}, observation {again[0]!r}")
    return first[2] and again[1] != 0.0, evidence


@check("gem: game:FifteenPuzzle-v0-random cannot be built")
def gem_fifteen_random() -> tuple[bool, str]:
    try:
        _gem("game:FifteenPuzzle-v0-random")
    except TypeError as error:
        return True, f"gem.make raised TypeError: {error}"
    return False, "gem.make worked"


@check("gem: game:Crosswords-v0-random cannot be built")
def gem_crosswords_random() -> tuple[bool, str]:
    try:
        _gem("game:Crosswords-v0-random")
    except ImportError as error:
        return False, f"pandas missing, cannot tell ({error})"
    except ValueError as error:
        return True, f"gem.make raised ValueError: {error}"
    return False, "gem.make worked"


@check("gem: Crosswords imports pandas, which gem-llm does not declare")
def gem_pandas() -> tuple[bool, str]:
    from importlib import metadata

    requires = metadata.requires("gem-llm") or []
    declared = any(r.split(";")[0].strip().lower().startswith("pandas") and "extra" not in r for r in requires)
    import gem.envs.game_env.crosswords.crosswords as module  # noqa: F401 -- fails without pandas

    return not declared, f"pandas in gem-llm's requirements: {declared}; crosswords.py has `import pandas as pd`"


@check("gem: game:Sokoban-v0-hard reset(seed) takes longer than 10 s on some seeds")
def gem_sokoban_slow() -> tuple[bool, str]:
    env = _gem("game:Sokoban-v0-hard")
    times = {}
    for seed in (6, 11):
        started = time.perf_counter()
        env.reset(seed=seed)
        times[seed] = round(time.perf_counter() - started, 1)
    return max(times.values()) > 10, f"seconds per reset(seed): {times}"


# ---------------------------------------------------------------------- TextArena 0.7.4
def _ta(game_id: str):
    import textarena

    return textarena.make(game_id)


@check("textarena: Klondike-v0 does not import (SyntaxError in its env.py)")
def ta_klondike() -> tuple[bool, str]:
    try:
        _ta("Klondike-v0")
    except SyntaxError as error:
        return True, f"SyntaxError: {error}"
    except ImportError as error:
        return "SyntaxError" in str(error) or "invalid syntax" in str(error), f"{type(error).__name__}: {error}"
    return False, "textarena.make worked"


@check("textarena: reset() keeps the previous episode in the observation (LLMObservationWrapper)")
def ta_reset_leak() -> tuple[bool, str]:
    env = _ta("GuessTheNumber-v0")
    env.reset(num_players=1, seed=0)
    _, first = env.get_observation()
    env.step("[3]")
    env.get_observation()
    env.reset(num_players=1, seed=0)
    _, again = env.get_observation()
    return again != first and again.startswith(first), (
        f"first observation {len(first)} chars; after reset(seed=0) on the same env {len(again)} chars, "
        "starting with the whole previous episode")


@check("textarena: GuessTheNumber-v0 allows 11 guesses although it says 'within 10 turns'")
def ta_guess_off_by_one() -> tuple[bool, str]:
    env = _ta("GuessTheNumber-v0")
    env.reset(num_players=1, seed=0)
    target = env.state.game_state["game_number"]
    played = 0
    for guess in (g for g in range(1, 21) if g != target):
        done, _ = env.step(f"[{guess}]")
        played += 1
        if done:
            break
    rewards, info = env.close()
    return played == 11, f"{played} wrong guesses before the game ended; rewards {rewards}; {info[0]['reason']!r}"


@check("textarena: Countdown, Cryptarithm, Slitherlink, ThreeCardMonte swap set_invalid_move's arguments: "
       "a game lost on invalid moves hands out a string as the reward")
def ta_string_rewards() -> tuple[bool, str]:
    found = {}
    for game_id in ("Countdown-v0", "Cryptarithm-v0", "Slitherlink-v0", "ThreeCardMonte-v0"):
        env = _ta(game_id)
        env.reset(num_players=1, seed=0)
        done = False
        for _ in range(2):  # error_allowance is 1: the second invalid move in a row ends the game
            done, _ = env.step("[x]")
            if done:
                break
        rewards, info = env.close()
        found[game_id] = (done, rewards[0] if rewards else None, info[0].get("reason"))
    ok = all(done and isinstance(reward, str) for done, reward, _ in found.values())
    return ok, "; ".join(f"{g}: reward {r!r}, reason {why!r}" for g, (_, r, why) in found.items())


@check("textarena: a step after the game ended is accepted: step() returns done=True again, close() the same rewards")
def ta_post_episode() -> tuple[bool, str]:
    env = _ta("Bandit-v0")
    env.reset(num_players=1, seed=0)
    done_steps = []
    for _ in range(3):
        done, _ = env.step("[")
        done_steps.append(done)
    rewards, _ = env.close()
    return done_steps == [False, True, True], f"done after each of 3 invalid moves: {done_steps}; close() -> {rewards}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--skip-slow", action="store_true")
    args = parser.parse_args()
    confirmed = 0
    for name, function in CHECKS:
        if args.skip_slow and "Sokoban" in name:
            continue
        try:
            ok, evidence = function()
        except Exception:  # noqa: BLE001
            ok, evidence = False, traceback.format_exc(limit=2)
        confirmed += ok
        print(f"{'CONFIRMED' if ok else 'NOT REPRODUCED'}: {name}\n    {evidence}", flush=True)
    print(f"\n{confirmed} confirmed")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
