"""Fuzz real third-party text games (gem-llm 0.1.0, TextArena 0.7.4) with SPADE's fuzz tier.

    .venv/bin/python benchmarks/third_party/fuzz_third_party.py              # every game, 100 examples
    .venv/bin/python benchmarks/third_party/fuzz_third_party.py --library gem --only Sudoku --examples 50

Each game gets an adapter (``spade_envs/interop/third_party.py``) and goes through the validator's static and fuzz tiers on
the ``process`` backend (the WebAssembly sandbox lacks these packages), with the library added to the
allowed imports. The fuzzer stops at the first violated property. When that property is one of the
known contract differences between Gym-style libraries and the SPADE contract (a step after the end,
no turn limit, state kept across reset), the runner records it, turns on the adapter shim that covers
it and fuzzes again ("rounds"), so that one difference does not hide the game's other defects. Any
other finding ends the game's rounds.

Prints one progress line per round and a table at the end; writes ``results.json`` next to this file
(or ``--out``). Needs ``pip install gem-llm==0.1.0 textarena==0.7.4`` (plus ``pandas`` for gem's
Crosswords, an undeclared dependency of gem-llm).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import sys
import tempfile
import time
import traceback
from concurrent.futures import ProcessPoolExecutor, as_completed
from importlib import metadata
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

from spade_envs.checks.static import StaticConfig, run_static_checks
from spade_envs.fuzz.runner import FuzzConfig, fuzz_environment
from spade_envs.interop.third_party import (
    LIBRARIES,
    SHIMS,
    GameSpec,
    file_name_for,
    offline_reason,
    probe_game,
    render_adapter,
)
from spade_envs.runtime.backend import create_backend
from spade_envs.runtime.errors import EnvRuntimeError
from spade_envs.runtime.limits import ExecutionLimits

SHIM_FOR_PROPERTY = {
    "fuzz_post_episode": "guard_after_end",
    "fuzz_terminates": "turn_limit",
    "fuzz_reset_isolation": "fresh_on_reset",
}
"""Contract differences a shim can step over; every other property ends a game's rounds."""


def shim_for(outcome: dict[str, Any]) -> str | None:
    """The shim to try next after this outcome, or None.

    The fuzzer reports Hypothesis's FlakyFailure (a failing example that did not fail again on replay) as
    ``fuzz_determinism`` with no seed and no actions. With these libraries the cause was a long-lived
    instance that changes across reset (its observation, which the action strategy reads, grows), so the
    runner retries with ``fresh_on_reset``: if the flaky report then goes away, that was the cause.
    """
    if outcome["property"] == "fuzz_determinism" and outcome["seed"] is None and not outcome["actions"]:
        return "fresh_on_reset"
    return SHIM_FOR_PROPERTY.get(outcome["property"] or "")


def fuzzer_fingerprint() -> str:
    """sha256 of spade_envs/fuzz/*.py: the fuzzer changes, and results say which one produced them."""
    digest = hashlib.sha256()
    for path in sorted((HERE.parents[1] / "spade_envs" / "fuzz").glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def _version(package: str) -> str | None:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


def fuzz_once(spec: GameSpec, shims: tuple[str, ...], backend: Any, fuzz: FuzzConfig) -> dict[str, Any]:
    """One run of the static tier and the fuzz tier on the adapter with these shims.

    This is what ``validate_source(..., tiers=("static", "fuzz"))`` does, called one level down so that the
    fuzzer's example and step counts are kept (they tell how deep the fuzzed episodes went) and so that
    an exception escaping the fuzzer itself is recorded as ``fuzzer_error`` instead of ending the run.
    """
    source = render_adapter(spec, shims)
    started = time.perf_counter()
    result: dict[str, Any] = {"shims": list(shims), "verdict": "pass", "property": None, "message": None,
                              "seed": None, "actions": None, "step": None, "detail": None,
                              "examples": 0, "steps": 0, "warnings": []}
    static = run_static_checks(source, StaticConfig(extra_modules=frozenset({spec.library})))
    result["warnings"] = [w.message for w in static.warnings]
    if static.failures:
        failure = static.failures[0]
        result.update(verdict="fail", property=f"static:{failure.check}", message=failure.message)
    else:
        try:
            report = fuzz_environment(backend, source, class_name=spec.class_name, config=fuzz)
        except ValueError as error:  # the environment does not load
            message = str(error)
            result.update(verdict="fail", property="loads", message=message)
            reason = offline_reason(message) or (offline_reason(spec.probe_error) if spec.probe_error else None)
            if reason:
                result.update(verdict="skipped", skip_reason=reason)
        except EnvRuntimeError as error:  # a timeout, crash or memory error while loading
            result.update(verdict="fail", property="loads", message=f"{type(error).__name__}: {error}")
        except Exception as error:  # noqa: BLE001 -- a crash of the fuzzer itself, reported as such
            result.update(verdict="error", property="fuzzer_error", message=f"{type(error).__name__}: {error}",
                          detail=traceback.format_exc()[-4000:])
        else:
            result.update(examples=report.examples, steps=report.steps)
            if report.counterexamples:
                example = report.counterexamples[0]
                result.update(verdict="fail", property=example.property, message=example.summary(),
                              seed=example.seed, actions=example.actions, step=example.step,
                              detail=example.feedback())
    result["seconds"] = round(time.perf_counter() - started, 2)
    return result


def fuzz_game(spec: GameSpec, backend: Any, config: FuzzConfig, max_rounds: int) -> dict[str, Any]:
    rounds: list[dict[str, Any]] = []
    shims: tuple[str, ...] = ()
    while True:
        outcome = fuzz_once(spec, shims, backend, config)
        rounds.append(outcome)
        _progress(spec, len(rounds), outcome)
        shim = shim_for(outcome)
        if outcome["verdict"] != "fail" or shim is None or shim in shims or len(rounds) >= max_rounds:
            break
        shims = tuple(s for s in SHIMS if s in shims + (shim,))
    first = rounds[0]
    return {
        "library": spec.library,
        "game": spec.game_id,
        "class_name": spec.class_name,
        "adapter_max_turns": spec.max_turns,
        "game_has_turn_limit": spec.game_has_limit,
        "probe_error": spec.probe_error,
        "notes": spec.notes,
        "verdict": first["verdict"],
        "skip_reason": first.get("skip_reason"),
        "final_verdict": rounds[-1]["verdict"],
        "rounds": rounds,
        "seconds": round(sum(r["seconds"] for r in rounds), 2),
    }


def _short(actions: list[str] | None, limit: int = 4) -> str:
    if actions is None:
        return ""
    shown = [repr(a if len(a) <= 24 else a[:21] + "...") for a in actions[:limit]]
    more = f", +{len(actions) - limit}" if len(actions) > limit else ""
    return "[" + ", ".join(shown) + more + "]"


def counterexample_summary(outcome: dict[str, Any]) -> str:
    if outcome["verdict"] == "skipped":
        return outcome.get("skip_reason", "")
    if outcome["verdict"] == "pass":
        return ""
    if outcome["property"] == "loads" or outcome["seed"] is None and not outcome["actions"]:
        return " ".join((outcome["message"] or "").split())[:110]
    step = f" step {outcome['step']}" if outcome["step"] is not None else ""
    return f"seed {outcome['seed']}{step} {_short(outcome['actions'])}"


def _progress(spec: GameSpec, round_number: int, outcome: dict[str, Any]) -> None:
    shims = "+".join(outcome["shims"]) or "raw"
    what = outcome["property"] or ""
    depth = f"{outcome['steps'] / outcome['examples']:.1f} steps/ex" if outcome["examples"] else "-"
    print(f"  [{spec.library}] {spec.game_id:<32} round {round_number} ({shims}): {outcome['verdict']:<7} {what:<22} "
          f"{counterexample_summary(outcome)[:90]}  [{outcome['examples']} ex, {depth}, {outcome['seconds']:.1f}s]",
          flush=True)


def print_table(results: list[dict[str, Any]]) -> None:
    rows = [("game", "verdict", "failing property", "shrunk counterexample", "s", "after shims")]
    for r in results:
        first = r["rounds"][0]
        later = "; ".join(
            f"{'+'.join(x['shims'])}: {x['verdict']}{' ' + x['property'] if x['property'] else ''}" for x in r["rounds"][1:]
        )
        rows.append((f"{r['library']}:{r['game'].removeprefix('game:')}", r["verdict"], first["property"] or "",
                     counterexample_summary(first)[:70], f"{r['seconds']:.0f}", later[:90]))
    widths = [max(len(str(row[i])) for row in rows) for i in range(len(rows[0]))]
    for index, row in enumerate(rows):
        print("  ".join(str(cell).ljust(width) for cell, width in zip(row, widths)).rstrip())
        if index == 0:
            print("  ".join("-" * width for width in widths))


def merge_results(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """``old`` with the games in ``new`` replaced (in catalogue order); runs are listed under ``runs``."""
    fresh = {(r["library"], r["game"]): r for r in new["results"]}
    merged = [fresh.pop((r["library"], r["game"]), r) for r in old.get("results", [])] + list(fresh.values())
    order = {(lib, game): i for i, (lib, game) in enumerate((lib, g) for lib in sorted(LIBRARIES) for g in LIBRARIES[lib])}
    merged.sort(key=lambda r: order.get((r["library"], r["game"]), len(order)))
    runs = old.get("runs") or [{k: old[k] for k in ("config", "fuzzer_sha256_16", "summary") if k in old}]
    runs.append({k: new[k] for k in ("config", "fuzzer_sha256_16", "summary")})
    counts = {v: sum(r["verdict"] == v for r in merged) for v in ("pass", "fail", "skipped", "error")}
    return {**new, "runs": runs, "results": merged,
            "summary": {**counts, "games": len(merged), "seconds": round(sum(r["seconds"] for r in merged), 1)}}


def _run_game(job: tuple[str, str, argparse.Namespace, str]) -> dict[str, Any]:
    library, game, args, adapter_dir = job
    spec = probe_game(library, game)
    (Path(adapter_dir) / file_name_for(library, game)).write_text(render_adapter(spec), encoding="utf-8")
    backend = create_backend("process", ExecutionLimits(call_timeout_s=args.timeout, memory_mb=args.memory_mb))
    return fuzz_game(spec, backend, FuzzConfig(examples=args.examples, seed=args.seed), args.max_rounds)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--library", choices=sorted(LIBRARIES), action="append", help="default: both")
    parser.add_argument("--only", action="append", default=[], help="fuzz only games whose id contains this")
    parser.add_argument("--examples", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0, help="the fuzzer's seed")
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds per environment call")
    parser.add_argument("--memory-mb", type=int, default=1024,
                        help="address-space allowance of each environment process (gem imports numpy, sympy...)")
    parser.add_argument("--max-rounds", type=int, default=4)
    parser.add_argument("--jobs", type=int, default=1, help="games fuzzed in parallel (one worker process each)")
    parser.add_argument("--out", default=str(HERE / "results.json"))
    parser.add_argument("--merge", action="store_true",
                        help="keep the other games' entries already in --out and replace only the games run now")
    parser.add_argument("--write-adapters", metavar="DIR",
                        help="also write the raw adapter files here (default: a temporary directory)")
    args = parser.parse_args(argv)

    missing = [lib for lib, package in (("gem", "gem-llm"), ("textarena", "textarena"))
               if (lib in (args.library or LIBRARIES)) and _version(package) is None]
    if missing:
        print(f"not installed: {', '.join(missing)} (pip install gem-llm==0.1.0 textarena==0.7.4)", file=sys.stderr)
        return 2
    games = [(lib, game) for lib in (args.library or sorted(LIBRARIES)) for game in LIBRARIES[lib]
             if not args.only or any(part.lower() in game.lower() for part in args.only)]
    started = time.perf_counter()
    fingerprint = fuzzer_fingerprint()
    results = []
    adapter_dir = Path(args.write_adapters) if args.write_adapters else Path(tempfile.mkdtemp(prefix="spade-third-party-"))
    adapter_dir.mkdir(parents=True, exist_ok=True)
    print(f"fuzzing {len(games)} games, {args.examples} examples each, fuzz seed {args.seed}, "
          f"{args.timeout:g} s per call, {args.jobs} job(s); adapters in {adapter_dir}", flush=True)
    jobs = [(library, game, args, str(adapter_dir)) for library, game in games]
    if args.jobs <= 1:
        for index, job in enumerate(jobs, start=1):
            print(f"[{index}/{len(games)}] {job[0]} {job[1]} (elapsed {time.perf_counter() - started:.0f} s)", flush=True)
            results.append(_run_game(job))
    else:  # one game per worker process; each game is sequential inside (its timings stay comparable)
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            futures = {pool.submit(_run_game, job): job for job in jobs}
            for index, future in enumerate(as_completed(futures), start=1):
                results.append(future.result())
                print(f"[{index}/{len(games)} done] {futures[future][0]} {futures[future][1]} "
                      f"(elapsed {time.perf_counter() - started:.0f} s)", flush=True)
        order = {game: index for index, (_, game) in enumerate(games)}
        results.sort(key=lambda r: order[r["game"]])
    total = time.perf_counter() - started
    if fuzzer_fingerprint() != fingerprint:
        print("warning: spade_envs/fuzz changed while this ran; results mix two fuzzer versions", file=sys.stderr)
    print()
    print_table(results)
    counts = {v: sum(r["verdict"] == v for r in results) for v in ("pass", "fail", "skipped", "error")}
    print(f"\n{len(results)} games: {counts['pass']} pass, {counts['fail']} fail, {counts['skipped']} skipped, "
          f"{counts['error']} fuzzer errors "
          f"(raw adapters); {total:.0f} s in all")
    document = {
        "config": {"jobs": args.jobs, "examples": args.examples, "fuzz_seed": args.seed, "call_timeout_s": args.timeout,
                   "memory_mb": args.memory_mb, "max_rounds": args.max_rounds, "backend": "process",
                   "env_seeds": FuzzConfig().env_seeds},
        "versions": {"python": platform.python_version(), "gem-llm": _version("gem-llm"),
                     "textarena": _version("textarena"), "hypothesis": _version("hypothesis"),
                     "pandas": _version("pandas")},
        "machine": {"cpus": os.cpu_count()},
        "fuzzer_sha256_16": fingerprint,
        "summary": {**counts, "games": len(results), "seconds": round(total, 1)},
        "results": results,
    }
    if args.merge and Path(args.out).exists():
        document = merge_results(json.loads(Path(args.out).read_text(encoding="utf-8")), document)
    Path(args.out).write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
