"""Fuzz real third-party text games (gem-llm 0.1.0, TextArena 0.7.4) with SPADE's fuzz tier.

    .venv/bin/python benchmarks/third_party/fuzz_third_party.py              # every game, 100 examples
    .venv/bin/python benchmarks/third_party/fuzz_third_party.py --library gem --only Sudoku --examples 50

Each game gets an adapter (``adapters.py``) and goes through the validator's static and fuzz tiers on
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
import json
import os
import platform
import sys
import tempfile
import time
from dataclasses import asdict
from importlib import metadata
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parents[1]))

from adapters import LIBRARIES, SHIMS, GameSpec, offline_reason, probe_game, render_adapter  # noqa: E402

from spade_envs.checks.static import StaticConfig  # noqa: E402
from spade_envs.checks.validate import ValidatorConfig, validate_source  # noqa: E402
from spade_envs.fuzz.runner import FuzzConfig  # noqa: E402
from spade_envs.runtime.backend import create_backend  # noqa: E402
from spade_envs.runtime.limits import ExecutionLimits  # noqa: E402

SHIM_FOR_PROPERTY = {
    "fuzz_post_episode": "guard_after_end",
    "fuzz_terminates": "turn_limit",
    "fuzz_reset_isolation": "fresh_on_reset",
}
"""Contract differences a shim can step over; every other property ends a game's rounds."""


def _version(package: str) -> str | None:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


def fuzz_once(spec: GameSpec, shims: tuple[str, ...], backend: Any, config: ValidatorConfig) -> dict[str, Any]:
    """One validator run (static + fuzz) of the adapter with these shims."""
    source = render_adapter(spec, shims)
    started = time.perf_counter()
    report = validate_source(source, backend, path=f"<{spec.library}:{spec.game_id}>", config=config)
    seconds = time.perf_counter() - started
    failure = report.failures[0] if report.failures else None
    result: dict[str, Any] = {
        "shims": list(shims),
        "verdict": "pass" if report.ok else "fail",
        "property": failure.check if failure else None,
        "message": failure.message if failure else None,
        "seed": failure.seed if failure else None,
        "actions": failure.actions if failure else None,
        "step": failure.step if failure else None,
        "detail": failure.detail if failure else None,
        "warnings": [w.message for w in report.warnings],
        "seconds": round(seconds, 2),
    }
    if failure and failure.check == "loads":
        reason = offline_reason(failure.message) or (offline_reason(spec.probe_error) if spec.probe_error else None)
        if reason:
            result["verdict"] = "skipped"
            result["skip_reason"] = reason
    return result


def fuzz_game(spec: GameSpec, backend: Any, config: ValidatorConfig, max_rounds: int) -> dict[str, Any]:
    rounds: list[dict[str, Any]] = []
    shims: tuple[str, ...] = ()
    while True:
        outcome = fuzz_once(spec, shims, backend, config)
        rounds.append(outcome)
        _progress(spec, len(rounds), outcome)
        shim = SHIM_FOR_PROPERTY.get(outcome["property"] or "")
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
    print(f"  [{spec.library}] {spec.game_id:<32} round {round_number} ({shims}): {outcome['verdict']:<7} {what:<22} "
          f"{counterexample_summary(outcome)[:90]}  {outcome['seconds']:.1f}s", flush=True)


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
    parser.add_argument("--out", default=str(HERE / "results.json"))
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
    backend = create_backend("process", ExecutionLimits(call_timeout_s=args.timeout, memory_mb=args.memory_mb))
    started = time.perf_counter()
    results = []
    adapter_dir = Path(args.write_adapters) if args.write_adapters else Path(tempfile.mkdtemp(prefix="spade-third-party-"))
    adapter_dir.mkdir(parents=True, exist_ok=True)
    print(f"fuzzing {len(games)} games, {args.examples} examples each, fuzz seed {args.seed}, "
          f"{args.timeout:g} s per call; adapters in {adapter_dir}", flush=True)
    for index, (library, game) in enumerate(games, start=1):
        print(f"[{index}/{len(games)}] {library} {game} (elapsed {time.perf_counter() - started:.0f} s)", flush=True)
        spec = probe_game(library, game)
        (adapter_dir / f"{spec.class_name}.py").write_text(render_adapter(spec), encoding="utf-8")
        config = ValidatorConfig(
            tiers=("static", "fuzz"),
            static=StaticConfig(extra_modules=frozenset({library})),
            fuzz=FuzzConfig(examples=args.examples, seed=args.seed),
        )
        results.append(fuzz_game(spec, backend, config, args.max_rounds))
    total = time.perf_counter() - started
    print()
    print_table(results)
    counts = {v: sum(r["verdict"] == v for r in results) for v in ("pass", "fail", "skipped")}
    print(f"\n{len(results)} games: {counts['pass']} pass, {counts['fail']} fail, {counts['skipped']} skipped "
          f"(raw adapters); {total:.0f} s in all")
    document = {
        "config": {"examples": args.examples, "fuzz_seed": args.seed, "call_timeout_s": args.timeout,
                   "memory_mb": args.memory_mb, "max_rounds": args.max_rounds, "backend": "process",
                   "env_seeds": FuzzConfig().env_seeds},
        "versions": {"python": platform.python_version(), "gem-llm": _version("gem-llm"),
                     "textarena": _version("textarena"), "hypothesis": _version("hypothesis"),
                     "pandas": _version("pandas")},
        "machine": {"cpus": os.cpu_count()},
        "summary": {**counts, "games": len(results), "seconds": round(total, 1)},
        "results": results,
    }
    Path(args.out).write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
