"""``spade-envs``: validate, play and list environments; export the JSON Schemas.

Exit codes: 0 success (all valid), 1 some environment invalid, 2 bad usage or unreadable input.
User mistakes print one line starting with ``spade-envs: error:`` and never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from pydantic import BaseModel, ValidationError

from spade_envs.checks.batch import ValidationJob, default_jobs, validate_many
from spade_envs.checks.catalogue import TIERS
from spade_envs.checks.dynamic import CheckConfig
from spade_envs.checks.static import StaticConfig
from spade_envs.checks.validate import ValidatorConfig
from spade_envs.cliutil import EXIT_INVALID, EXIT_OK, OneLineParser, UsageError, run_command
from spade_envs.contract.actions import solution_to_actions
from spade_envs.contract.episode import episode_return
from spade_envs.episodes import compare_episodes, play_scripted
from spade_envs.fileio import write_atomically
from spade_envs.fuzz.runner import FuzzConfig
from spade_envs.pool import PoolError, is_pool_dir, read_pool, write_pool
from spade_envs.registry import bundled_registry
from spade_envs.runtime.backend import DEFAULT_BACKEND, backend_names, create_backend
from spade_envs.runtime.errors import EnvRuntimeError
from spade_envs.runtime.limits import ExecutionLimits
from spade_envs.spec.models import EpisodeLog, ValidationReport, env_id_for
from spade_envs.spec.schemas import stale_schemas, write_schemas


# ---------------------------------------------------------------------- input resolution
def _read_source(path: Path) -> str:
    if path.suffix != ".py":
        raise UsageError(f"{path} is not a Python file; pass .py environment files or a directory of them")
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise UsageError(f"{path} is not UTF-8 text; save the environment as UTF-8") from None
    except OSError as error:
        raise UsageError(f"cannot read {path}: {error.strerror or error}") from None


def resolve_targets(targets: Sequence[str]) -> list[tuple[str, str, str | None]]:
    """Expand paths, directories and bundled names into (label, source, class_name) triples.

    Everything is read before anything runs, so a typo in the last path fails fast and nothing is
    half-done.
    """
    registry = bundled_registry()
    resolved: list[tuple[str, str, str | None]] = []
    for target in targets:
        path = Path(target)
        if path.is_dir() and is_pool_dir(path):
            try:
                entries = read_pool(path)
            except PoolError as error:
                raise UsageError(str(error)) from None
            resolved += [(f"{path}#{entry.spec.id}", source, entry.spec.class_name) for entry, source in entries]
        elif path.is_dir():
            files = sorted(p for p in path.glob("*.py") if not p.name.startswith("_"))
            if not files:
                raise UsageError(f"{path} contains no .py environment files")
            resolved += [(str(p), _read_source(p), None) for p in files]
        elif path.exists():
            resolved.append((str(path), _read_source(path), None))
        elif target in registry:
            entry = registry.get(target)
            resolved.append((target, entry.source(), entry.class_name))
        else:
            raise UsageError(f"no such file or bundled environment: {target} (see spade-envs list)")
    return resolved


def _backend(name: str, timeout: float) -> Any:
    try:
        return create_backend(name, ExecutionLimits(call_timeout_s=timeout))
    except ValueError as error:
        raise UsageError(str(error)) from None


# ---------------------------------------------------------------------- validate
def cmd_validate(args: argparse.Namespace, out: TextIO) -> int:
    targets = list(args.paths) + (bundled_registry().names() if args.bundled else [])
    if not targets:
        raise UsageError("give at least one PATH, or --bundled")
    if args.seeds < 1:
        raise UsageError("--seeds must be at least 1")
    if args.examples < 0:
        raise UsageError("--examples must be 0 (no fuzzing) or more")
    resolved = resolve_targets(targets)
    _backend(args.sandbox, args.timeout)  # fail fast on a bad backend name, before any work
    tiers = tuple(t for t in TIERS if t != "fuzz" or args.examples > 0)
    if getattr(args, "fuzz_only", False):
        tiers = ("static", "fuzz")
    config = ValidatorConfig(
        static=StaticConfig(extra_modules=frozenset(args.allow_import)),
        dynamic=CheckConfig(seeds=tuple(range(args.seed, args.seed + args.seeds)), max_turns=args.max_turns,
                            hint=args.hint),
        fuzz=FuzzConfig(examples=max(args.examples, 1), seed=args.fuzz_seed),
        tiers=tiers,
    )
    jobs = [ValidationJob(label, source, class_name) for label, source, class_name in resolved]
    workers = args.jobs if args.jobs > 0 else default_jobs(len(jobs))
    started = time.perf_counter()
    reports: list[ValidationReport] = []
    limits = ExecutionLimits(call_timeout_s=args.timeout)
    for index, report in enumerate(validate_many(jobs, args.sandbox, limits, config, workers=workers), start=1):
        reports.append(report)
        if not args.json:
            _print_report(report, index, len(resolved), out, verbose=getattr(args, "fuzz_only", False))
    elapsed = time.perf_counter() - started
    valid = sum(r.ok for r in reports)
    if args.json:
        document = {
            "results": [r.model_dump(mode="json") for r in reports],
            "summary": {"valid": valid, "invalid": len(reports) - valid, "backend": args.sandbox,
                        "seconds": round(elapsed, 3), "workers": workers},
        }
        out.write(json.dumps(document, indent=2) + "\n")
    else:
        rate = len(reports) / elapsed if elapsed > 0 else 0.0
        out.write(f"\n{valid} valid, {len(reports) - valid} invalid ({args.sandbox} backend, {workers} worker(s), "
                  f"{elapsed:.2f} s, {rate:.1f} environments/s)\n")
    return EXIT_OK if valid == len(reports) else EXIT_INVALID


def _print_report(report: ValidationReport, index: int, total: int, out: TextIO, verbose: bool = False) -> None:
    mark = "ok  " if report.ok else "FAIL"
    checks = sum(c.status == "passed" for c in report.checks)
    name = report.class_name or "?"
    tiers = " ".join(f"{t.tier}:{t.duration_ms / 1000:.2f}s" for t in report.tiers if t.status != "skipped")
    out.write(f"[{index}/{total}] {mark} {report.path}  {name}  ({checks} checks passed; {tiers})\n")
    for finding in report.failures + report.warnings:
        where = f"line {finding.line}: " if finding.line else ""
        level = "" if finding.severity == "error" else "warning "
        out.write(f"       {level}[{finding.check}] {where}{finding.message}\n")
        if finding.detail and finding.severity == "error":
            lines = finding.detail.splitlines()
            out.writelines(f"         | {line}\n" for line in (lines if verbose or finding.check.startswith("fuzz_") else lines[-6:]))
    out.flush()


# ---------------------------------------------------------------------- play
def cmd_play(args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    (label, source, class_name), *rest = resolve_targets([args.path])
    if rest:
        raise UsageError("play takes one environment file, not a directory")
    scripted: list[str] | None = None
    if args.actions:
        try:
            scripted = [line.rstrip("\n") for line in Path(args.actions).read_text(encoding="utf-8").splitlines()]
        except (OSError, UnicodeDecodeError) as error:
            raise UsageError(f"cannot read actions file {args.actions}: {error}") from None
    backend = _backend(args.sandbox, args.timeout)
    try:
        session = backend.open_session(source, class_name=class_name, max_turns=args.max_turns)
    except EnvRuntimeError as error:
        out.write(f"spade-envs: the environment failed to load: {error}\n")
        return EXIT_INVALID
    with session:
        return _play_session(session, args, scripted, label, source, out, stdin)


def _play_session(session: Any, args: argparse.Namespace, scripted: list[str] | None, label: str,
                  source: str, out: TextIO, stdin: TextIO) -> int:
    tool_use = session.loaded.tool_use
    try:
        first = session.reset(args.seed)
        if args.solution:
            scripted = solution_to_actions(session.solution(), tool_use=tool_use)
    except EnvRuntimeError as error:
        out.write(f"spade-envs: the environment failed: {error}\n")
        return EXIT_INVALID
    observation = f"{first.observation}\n\nHINT: {args.hint}" if args.hint else first.observation
    out.write(f"{observation}\n")
    if tool_use and not scripted:
        out.write("\nTools: " + ", ".join(t["function"]["name"] for t in session.tools() or []) + "\n")
    actions: list[str] = []
    observations, rewards = [observation], []
    terminated = truncated = False
    interactive = scripted is None
    while not (terminated or truncated):
        if interactive:
            out.write("\naction> ")
            out.flush()
            line = stdin.readline()
            if not line or line.strip() == ":quit":
                break
            action = _as_action(line.rstrip("\n"), tool_use, raw=args.raw)
        else:
            if not scripted:
                break
            action = scripted.pop(0)
            out.write(f"\naction> {action}\n")
        try:
            step = session.step(action)
        except EnvRuntimeError as error:
            out.write(f"spade-envs: the environment failed: {error}\n")
            return EXIT_INVALID
        actions.append(action)
        observations.append(step.observation)
        rewards.append(step.reward)
        terminated, truncated = step.terminated, step.truncated
        out.write(f"{step.observation}\n  reward={step.reward:g} terminated={terminated} truncated={truncated}\n")
    result = episode_return(rewards, terminated)
    out.write(f"\nEpisode over after {len(actions)} actions: return {result:g}\n")
    if args.log:
        log = EpisodeLog(env_id=env_id_for(source), seed=args.seed, hint=args.hint, actions=actions,
                         observations=observations, rewards=rewards, terminated=terminated,
                         truncated=truncated, episode_return=result)
        _write_atomically(Path(args.log), log.model_dump_json(indent=2) + "\n")
    return EXIT_OK


def _as_action(text: str, tool_use: bool, raw: bool) -> str:
    """Wrap a bare typed move so people can play without typing \\boxed{} every turn."""
    if raw or "\\boxed{" in text or "<tool_call>" in text or "<answer>" in text:
        return text
    return solution_to_actions(text.strip(), tool_use=tool_use)[0]


def _write_atomically(path: Path, text: str) -> None:
    try:
        write_atomically(path, text)
    except OSError as error:
        raise UsageError(f"cannot write {path}: {error.strerror or error}") from None


# ---------------------------------------------------------------------- replay
def cmd_replay(args: argparse.Namespace, out: TextIO) -> int:
    try:
        log = EpisodeLog.model_validate_json(Path(args.log).read_text(encoding="utf-8"))
    except OSError as error:
        raise UsageError(f"cannot read {args.log}: {error.strerror or error}") from None
    except (ValidationError, UnicodeDecodeError) as error:
        raise UsageError(f"{args.log} is not an episode log: {_first_error(error)}") from None
    (label, source, class_name), *rest = resolve_targets([args.env])
    if rest:
        raise UsageError("--env takes one environment file, not a directory")
    if log.env_id and log.env_id != env_id_for(source):
        out.write(f"note: {label} is {env_id_for(source)}, the log was recorded on {log.env_id}\n")
    backend = _backend(args.sandbox, args.timeout)
    try:
        with backend.open_session(source, class_name=class_name, max_turns=args.max_turns) as session:
            replayed = play_scripted(session, log.seed, log.actions, hint=log.hint)
    except EnvRuntimeError as error:
        out.write(f"spade-envs: the environment failed during replay: {error}\n")
        return EXIT_INVALID
    differences = compare_episodes(log, replayed)
    out.writelines(line + "\n" for line in differences)
    verdict = "identical" if not differences else f"{len(differences)} difference(s)"
    out.write(f"replayed {len(log.actions)} actions from seed {log.seed}: {verdict}\n")
    return EXIT_OK if not differences else EXIT_INVALID


def _first_error(error: Exception) -> str:
    if isinstance(error, ValidationError):
        first = error.errors()[0]
        return f"{'.'.join(str(p) for p in first['loc']) or 'document'}: {first['msg']}"
    return str(error)


# ---------------------------------------------------------------------- schema and list
def cmd_schema(args: argparse.Namespace, out: TextIO) -> int:
    return schema_command(Path(args.out), args.check, out, program="spade-envs")


def schema_command(directory: Path, check: bool, out: TextIO, *, program: str,
                   models: dict[str, type[BaseModel]] | None = None) -> int:
    """Write (or with ``check``, only compare) the JSON Schemas of ``models``; shared by both CLIs."""
    if check:
        stale = stale_schemas(directory, models)
        if stale:
            out.write(f"stale schemas in {directory}: {', '.join(stale)}; run {program} schema --out {directory}\n")
            return EXIT_INVALID
        out.write(f"schemas in {directory} are up to date\n")
        return EXIT_OK
    try:
        out.writelines(f"wrote {path}\n" for path in write_schemas(directory, models))
    except OSError as error:
        raise UsageError(f"cannot write schemas to {directory}: {error.strerror or error}") from None
    return EXIT_OK


def cmd_export(args: argparse.Namespace, out: TextIO) -> int:
    entries = list(bundled_registry())
    try:
        manifest = write_pool(Path(args.out), "spade-bundled", [(e.spec(), e.source()) for e in entries],
                              validated=True)
    except OSError as error:
        raise UsageError(f"cannot write the pool to {args.out}: {error.strerror or error}") from None
    out.write(f"wrote {len(manifest.entries)} environments to {args.out}\n")
    return EXIT_OK


def cmd_list(args: argparse.Namespace, out: TextIO) -> int:
    entries = list(bundled_registry())
    if args.json:
        rows = [{"name": e.name, "class_name": e.class_name, "kind": e.kind, "skill": e.skill,
                 "max_turns": e.max_turns, "path": str(e.path), "description": e.description} for e in entries]
        out.write(json.dumps(rows, indent=2) + "\n")
        return EXIT_OK
    width = max(len(e.name) for e in entries)
    out.writelines(f"{e.name:<{width}}  {e.kind:<16} {e.skill:<24} {e.description}\n" for e in entries)
    return EXIT_OK


# ---------------------------------------------------------------------- parser and entry point
def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(prog="spade-envs", description="Author, validate and play SPADE environments.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=OneLineParser)

    def add_runtime_options(sub: argparse.ArgumentParser) -> None:
        sub.add_argument("--sandbox", default=DEFAULT_BACKEND, choices=backend_names(),
                         help=f"where environment code runs (default: {DEFAULT_BACKEND})")
        sub.add_argument("--timeout", type=float, default=10.0, help="seconds allowed per environment call")
        sub.add_argument("--max-turns", type=int, default=None, help="construct with this max_turns")

    def add_validation_options(sub: argparse.ArgumentParser, examples: int) -> None:
        sub.add_argument("paths", nargs="*", metavar="PATH",
                         help=".py files, directories, exported pool directories, or bundled names")
        sub.add_argument("--bundled", action="store_true", help="also check every bundled environment")
        sub.add_argument("--json", action="store_true", help="print one JSON document instead of text")
        sub.add_argument("--seeds", type=int, default=3, help="how many seeds the contract checks use (default 3)")
        sub.add_argument("--seed", type=int, default=0, help="first contract seed (default 0)")
        sub.add_argument("--examples", type=int, default=examples,
                         help=f"fuzz examples per environment (default {examples}; 0 skips fuzzing)")
        sub.add_argument("--fuzz-seed", type=int, default=0, help="seed of the fuzzer (default 0)")
        sub.add_argument("--hint", help="also check that this hint does not leak any answer")
        sub.add_argument("--jobs", type=int, default=0, help="worker processes (default: one per core)")
        sub.add_argument("--allow-import", action="append", default=[], metavar="MODULE",
                         help="also allow importing MODULE (e.g. numpy; needs --sandbox process)")
        add_runtime_options(sub)

    validate = commands.add_parser("validate", help="check environments: static, contract, feasibility, fuzz")
    add_validation_options(validate, examples=100)

    fuzz = commands.add_parser("fuzz", help="fuzz environments with Hypothesis and print counterexamples")
    add_validation_options(fuzz, examples=200)
    fuzz.set_defaults(fuzz_only=True)

    replay = commands.add_parser("replay", help="re-run an episode log and report any difference")
    replay.add_argument("log", metavar="LOG", help="an EpisodeLog JSON file (spade-envs play --log writes one)")
    replay.add_argument("--env", required=True, metavar="PATH", help="the environment file or bundled name")
    add_runtime_options(replay)

    play = commands.add_parser("play", help="play an environment in the terminal")
    play.add_argument("path", metavar="PATH", help="a .py file or a bundled name")
    play.add_argument("--seed", type=int, default=0, help="seed of the episode's reset (default 0)")
    play.add_argument("--actions", metavar="FILE", help="replay actions from FILE, one per line")
    play.add_argument("--solution", action="store_true", help="replay the environment's own solution()")
    play.add_argument("--hint", help="append a hint to the first observation, as hinted rollouts do")
    play.add_argument("--raw", action="store_true", help="send typed lines as they are (no \\boxed{} wrapping)")
    play.add_argument("--log", metavar="FILE", help="write the episode as an EpisodeLog JSON file")
    add_runtime_options(play)

    schema = commands.add_parser("schema", help="write the JSON Schemas of the spec models")
    schema.add_argument("--out", default="schemas", help="directory (default: schemas)")
    schema.add_argument("--check", action="store_true", help="only report whether the files are stale")

    listing = commands.add_parser("list", help="list the bundled environments")
    listing.add_argument("--json", action="store_true", help="print one JSON document instead of a table")

    export = commands.add_parser("export", help="export the bundled library as an environment pool")
    export.add_argument("out", metavar="DIR", help="directory to write manifest.json and environments.jsonl to")
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None, stdin: TextIO | None = None) -> int:
    stream = out or sys.stdout

    def body() -> int:
        args = build_parser().parse_args(argv)
        if args.command in ("validate", "fuzz"):
            return cmd_validate(args, stream)
        if args.command == "replay":
            return cmd_replay(args, stream)
        if args.command == "play":
            return cmd_play(args, stream, stdin or sys.stdin)
        if args.command == "schema":
            return cmd_schema(args, stream)
        if args.command == "export":
            return cmd_export(args, stream)
        return cmd_list(args, stream)

    return run_command("spade-envs", body)


if __name__ == "__main__":
    sys.exit(main())
