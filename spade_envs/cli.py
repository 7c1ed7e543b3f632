"""``spade-envs``: validate, play and list environments; export the JSON Schemas.

Exit codes: 0 success (all valid), 1 some environment invalid, 2 bad usage or unreadable input.
User mistakes print one line starting with ``spade-envs: error:`` and never a traceback. Human output
escapes every character an environment could use to drive the terminal (``cliutil.printable``); the
JSON output is exact.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from pydantic import BaseModel, ValidationError

from spade_envs.checks.batch import JobResult, ValidationJob, WorkerLimits, default_jobs, run_jobs
from spade_envs.checks.catalogue import TIERS
from spade_envs.checks.dynamic import CheckConfig
from spade_envs.checks.judge import JudgeSettings
from spade_envs.checks.plan_key import load_plan_key
from spade_envs.checks.progress import Progress
from spade_envs.checks.results import ResultsFile, ResultsFileError, settings_digest, split_finished
from spade_envs.checks.static import StaticConfig
from spade_envs.checks.validate import ValidatorConfig
from spade_envs.ci import FailOnError, junit_xml, parse_conditions, sarif_document, tripped
from spade_envs.cliutil import (
    EXIT_INVALID,
    EXIT_OK,
    OneLineParser,
    UsageError,
    int_in_range,
    positive_int,
    positive_seconds,
    printable,
    run_command,
)
from spade_envs.contract.allowlist import is_allowed_module
from spade_envs.episodes import compare_episodes, play_scripted
from spade_envs.fileio import check_writable_directory, write_atomically
from spade_envs.fuzz.runner import FuzzConfig
from spade_envs.interop.openenv_input import PREFIX as OPENENV_PREFIX
from spade_envs.interop.openenv_input import openenv_target
from spade_envs.interop.reward_function import (
    ANSWER_COLUMNS,
    DEFAULT_RANGE,
    PROMPT_COLUMNS,
    RewardInput,
    RewardInputError,
    reward_function_environment,
)
from spade_envs.interop.third_party import TARGET_PREFIXES, library_target
from spade_envs.interop.verifiers_input import PREFIX as VERIFIERS_PREFIX
from spade_envs.interop.verifiers_input import verifiers_target
from spade_envs.packing import DEFAULT_SKILL, SpecDefaults, spec_of_code
from spade_envs.play import play_session
from spade_envs.pool import (
    POOL_REF_SEPARATOR,
    is_pool_dir,
    is_pool_ref,
    read_pool_ref,
    split_pool_ref,
    write_pool,
)
from spade_envs.registry import bundled_registry
from spade_envs.runtime.backend import DEFAULT_BACKEND, backend_names, create_backend
from spade_envs.runtime.errors import EnvCrashError, EnvRuntimeError
from spade_envs.runtime.guest_modules import GENERATED_CODE_MODULES
from spade_envs.runtime.limits import ExecutionLimits
from spade_envs.spec.models import EnvSpec, EpisodeLog, ValidationReport, env_id_for
from spade_envs.spec.schemas import stale_schemas, write_schemas
from spade_envs.terminal import Screen, rate, styled


# ---------------------------------------------------------------------- input resolution
@dataclass
class Targets:
    """What the paths on the command line expanded to: environments to run, and files passed over."""

    environments: list[tuple[str, str, str | None]] = field(default_factory=list)
    """(label, source, class_name) triples, in command-line order."""
    skipped: list[tuple[str, str]] = field(default_factory=list)
    """(path, why) for every file or directory in a given directory that is not validated."""
    specs: dict[str, EnvSpec] = field(default_factory=dict)
    """label -> spec, for environments that come with one (pool entries, bundled environments)."""
    libraries: list[str] = field(default_factory=list)
    """Libraries that adapters of third-party tasks import (``reasoning_gym:TASK``, ``textarena:GAME``...):
    they run in the process sandbox only."""
    memory_mb: int | None = None
    """Address space the process sandbox must allow those adapters (None: its default)."""
    notes: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """label -> what the gate cannot check of that input (said with its report)."""
    unsolved: set[str] = field(default_factory=set)
    """Labels of environments that ship no reference solution (``ValidationJob.reference_solution``)."""
    any_format: set[str] = field(default_factory=set)
    """Labels of graders from other frameworks, not held to boxed answers
    (``ValidationJob.answer_format_required``)."""

    def jobs(self) -> list[ValidationJob]:
        return [ValidationJob(label, source, class_name, reference_solution=label not in self.unsolved,
                              answer_format_required=label not in self.any_format)
                for label, source, class_name in self.environments]


def _read_source(path: Path) -> str:
    if path.suffix != ".py":
        raise UsageError(f"{path} is not a Python file; pass .py environment files or a directory of them")
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise UsageError(f"{path} is not UTF-8 text; save the environment as UTF-8") from None
    except OSError as error:
        raise UsageError(f"cannot read {path}: {error.strerror or error}") from None


def _read_pool(path: Path | str, targets: Targets) -> int:
    """Add the environments of a pool directory or of ``DIR#ID``; returns how many."""
    directory, _ = split_pool_ref(path)
    entries = read_pool_ref(path)  # a PoolError is one line of the command's output (spade_envs.errors)
    for entry, source in entries:
        label = f"{directory}{POOL_REF_SEPARATOR}{entry.spec.id}"
        targets.environments.append((label, source, entry.spec.class_name))
        targets.specs[label] = entry.spec
    return len(entries)


def _walk_directory(root: Path, recursive: bool, targets: Targets) -> None:
    """Add the environment files under ``root`` (sorted; subdirectories too when ``recursive``)."""
    found = 0
    for directory, subdirectories, files in os.walk(root, followlinks=False):
        here = Path(directory)
        searched = []
        for name in sorted(subdirectories):
            path = here / name
            if not recursive:
                targets.skipped.append((str(path), "a subdirectory (--no-recursive)"))
            elif name.startswith(".") or name == "__pycache__":
                targets.skipped.append((str(path), "a hidden or cache directory"))
            elif path.is_symlink():
                targets.skipped.append((str(path), "a link to a directory (not followed)"))
            elif is_pool_dir(path):
                found += _read_pool(path, targets)
            else:
                searched.append(name)
        subdirectories[:] = searched
        for name in sorted(files):
            path = here / name
            why = _why_not_an_environment(path)
            if why:
                targets.skipped.append((str(path), why))
                continue
            try:
                targets.environments.append((str(path), path.read_text(encoding="utf-8"), None))
                found += 1
            except UnicodeDecodeError:
                targets.skipped.append((str(path), "not UTF-8 text"))
            except OSError as error:
                targets.skipped.append((str(path), f"unreadable ({error.strerror or error})"))
    if not found:
        hint = " (subdirectories are not searched with --no-recursive)" if not recursive else ""
        raise UsageError(f"{root} contains no .py environment files{hint}")


def _why_not_an_environment(path: Path) -> str | None:
    if path.suffix != ".py":
        return "not a .py file"
    if path.name.startswith("_"):
        return "a helper module (its name starts with _)"
    if path.name.startswith("."):
        return "a hidden file"
    return None


def resolve_targets(targets: Sequence[str], *, recursive: bool = True, env_args: dict | None = None) -> Targets:
    """Expand paths, directories (recursively unless told not to) and bundled names into environments.

    A pool directory stands for all its environments and ``DIR#ID`` for one of them (the id, or an
    unambiguous start of it). Everything is read before anything runs, so a typo in the last path fails
    fast and nothing is half-done. Files inside a directory that are not environments are listed in ``skipped`` with the
    reason; a path named on the command line that cannot be used is a usage error.
    """
    registry = bundled_registry()
    resolved = Targets()
    for target in targets:
        path = Path(target)
        if target.startswith((*TARGET_PREFIXES, VERIFIERS_PREFIX, OPENENV_PREFIX)) and not path.exists():
            _third_party_task(target, resolved, env_args)
        elif (path.is_dir() and is_pool_dir(path)) or is_pool_ref(target):
            _read_pool(target, resolved)
        elif path.is_dir():
            _walk_directory(path, recursive, resolved)
        elif path.exists():
            resolved.environments.append((str(path), _read_source(path), None))
        elif target in registry:
            entry = registry.get(target)
            resolved.environments.append((target, entry.source(), entry.class_name))
            resolved.specs[target] = entry.spec()
        else:
            raise UsageError(f"no such file, pool or bundled environment: {target} (see spade-envs list; "
                             "name one environment of a pool as DIR#ID)")
    return resolved


def _third_party_task(target: str, resolved: Targets, env_args: dict | None = None) -> None:
    """``reasoning_gym:TASK``, ``textarena:GAME``, ``gem:GAME``, ``verifiers:ENV`` or ``openenv:FOLDER``: the
    task through its adapter (``interop/third_party.py``, ``verifiers_input.py``, ``openenv_input.py``),
    which imports the library, so it runs in the process sandbox."""
    try:
        if target.startswith(VERIFIERS_PREFIX):
            made = verifiers_target(target, env_args)
        elif target.startswith(OPENENV_PREFIX):
            made = openenv_target(target)
        else:
            made = library_target(target)
    except ValueError as error:
        raise UsageError(str(error)) from None
    resolved.environments.append((made.label, made.source, made.class_name))
    resolved.notes[made.label] = made.notes
    if not made.reference_solution:
        resolved.unsolved.add(made.label)
    if not made.answer_format_required:
        resolved.any_format.add(made.label)
    resolved.libraries += [library for library in made.libraries if library not in resolved.libraries]
    if made.memory_mb is not None:
        resolved.memory_mb = max(resolved.memory_mb or 0, made.memory_mb)


def _one_environment(target: str, what: str, args: argparse.Namespace) -> tuple[tuple[str, str, str | None], Targets]:
    """The one environment ``target`` names, with what it resolved to (its sandbox needs)."""
    sandbox = args.sandbox
    resolved = resolve_targets([target], env_args=getattr(args, "env_args", None))
    if len(resolved.environments) != 1:
        raise UsageError(f"{what} takes one environment (a file, a bundled name or a pool's DIR#ID), not a "
                         "directory")
    _check_libraries(resolved, sandbox)
    return resolved.environments[0], resolved


def _check_libraries(resolved: Targets, sandbox: str) -> None:
    """Third-party tasks import their library, which only the process sandbox can hold."""
    if resolved.libraries and sandbox != "process":
        raise UsageError(f"{', '.join(resolved.libraries)} tasks import their library: add --sandbox process "
                         "(the WebAssembly sandbox holds only the standard library)")


def _allowed_imports(resolved: Targets, args: argparse.Namespace) -> list[str]:
    """``--allow-import`` with the libraries of the third-party tasks named, once the sandbox can hold them."""
    _check_libraries(resolved, args.sandbox)
    return list(dict.fromkeys([*args.allow_import, *resolved.libraries]))


def _limits(timeout: float, resolved: Targets) -> ExecutionLimits:
    """The per-environment limits: the call timeout asked for, and the address space the named third-party
    libraries need (TextArena maps more than the process sandbox's default)."""
    memory = max(ExecutionLimits.memory_mb, resolved.memory_mb or 0)
    return ExecutionLimits(call_timeout_s=timeout, memory_mb=memory)


def _backend(name: str, limits: ExecutionLimits) -> Any:
    try:
        return create_backend(name, limits)
    except ValueError as error:
        raise UsageError(str(error)) from None


# ---------------------------------------------------------------------- validate
MAX_SEEDS = 1_000
MAX_EXAMPLES = 100_000
MAX_TURNS = 1_000
MAX_JOBS = 256
MAX_CALL_SECONDS = 3_600.0
MAX_FILE_SECONDS = 86_400.0
MAX_FILE_MEMORY_MB = 1 << 20
MAX_SESSIONS = 4_096
MAX_DATA_ROWS = 10_000
SERVE_TIMEOUT_S = 10.0


def cmd_validate(args: argparse.Namespace, out: TextIO) -> int:
    targets = list(args.paths) + (bundled_registry().names() if args.bundled else [])
    if not targets and not args.reward:
        raise UsageError("give at least one PATH, --bundled, or --reward FILE.py:FUNCTION with --data FILE.jsonl")
    if not 0 <= args.examples <= MAX_EXAMPLES:
        raise UsageError(f"--examples must be from 0 (no fuzzing) to {MAX_EXAMPLES}, got {args.examples}")
    resolved = resolve_targets(targets, recursive=args.recursive, env_args=args.env_args)
    args.allow_import = _allowed_imports(resolved, args)
    inputs = _reward_inputs(args)
    resolved.environments += [(made.label, made.source, made.class_name) for made in inputs]
    resolved.any_format.update(made.label for made in inputs)  # TRL graders may take any answer wrapping
    resolved.unsolved.update(made.label for made in inputs if not made.reference_solution)
    limits = _limits(args.timeout, resolved)
    _backend(args.sandbox, limits)  # fail fast on a bad backend name, before any work
    _check_imports_fit_sandbox(args.allow_import, args.sandbox)
    try:
        conditions = parse_conditions(args.fail_on)
    except FailOnError as error:
        raise UsageError(str(error)) from None
    for option, value, example in (("--sarif", args.sarif, "spade.sarif"), ("--junit", args.junit, "junit.xml")):
        if value:
            _check_output_file(Path(value), option, example)
    tiers = tuple(t for t in TIERS if t != "fuzz" or args.examples > 0)
    if getattr(args, "fuzz_only", False):
        tiers = ("static", "fuzz")
    config = ValidatorConfig(
        static=StaticConfig(extra_modules=frozenset(args.allow_import)),
        dynamic=CheckConfig(seeds=tuple(range(args.seed, args.seed + args.seeds)), max_turns=args.max_turns,
                            hint=args.hint, seed=getattr(args, "plan_seed", None), plan_salt=_plan_salt(args)),
        fuzz=FuzzConfig(examples=max(args.examples, 1), seed=args.fuzz_seed),
        tiers=tiers,
        judge=JudgeSettings(args.judge, severity=args.judge_severity) if getattr(args, "judge", None) else None,
    )
    jobs = resolved.jobs()
    per_file = WorkerLimits(memory_mb=args.file_memory, seconds=args.file_timeout)
    results_file = (ResultsFile(Path(args.results), settings_digest(args.sandbox, limits, config, per_file))
                    if args.results else None)
    results, todo = _finished_and_todo(jobs, results_file)
    screen = Screen.of(out)
    if not args.json:
        _print_skipped(resolved.skipped, screen)
        for made in inputs:
            for note in made.notes:
                screen.wrapped(styled((f"note: {made.label}:", "muted"), f" {note}"), hang=4)
        for label, notes in resolved.notes.items():
            for note in notes:
                screen.wrapped(styled((f"not checked: {label}:", "muted"), f" {note}"), hang=4)
        if results:
            screen.wrapped(f"{len(results)} of {len(jobs)} environments already validated in {args.results}; "
                           "validating the rest")
    started = time.perf_counter()
    progress = Progress(len(jobs), sys.stderr, already_done=len(results)) \
        if args.ray is not None or (args.json and sys.stderr.isatty()) else None
    try:
        finished = _validate_jobs([jobs[i] for i in todo], args, limits, config, per_file)
        workers = next(finished)
        for position, result in finished:
            index = todo[position]
            results[index] = result
            if results_file is not None:
                _append(results_file, result)
            if progress is not None:
                progress.advance(result.report.ok)
            if not args.json:
                _print_report(result.report, len(results), len(jobs), screen, verbose=getattr(args, "fuzz_only", False))
    except EnvCrashError as error:
        raise UsageError(str(error)) from None
    finally:
        if progress is not None:
            progress.close()
    elapsed = time.perf_counter() - started
    ordered = [results[index] for index in range(len(jobs))]
    reports = [result.report for result in ordered]
    valid = sum(r.ok for r in reports)
    per_second = len(todo) / elapsed if elapsed > 0 else 0.0
    where = f"Ray, {workers} worker(s)" if args.ray is not None else f"{workers} worker(s)"
    if args.sarif:
        write_atomically(Path(args.sarif), json.dumps(sarif_document(reports), indent=1) + "\n")
    if args.junit:
        write_atomically(Path(args.junit), junit_xml(reports))
    failing = tripped(conditions, reports)
    if args.json:
        document = {
            "results": [r.model_dump(mode="json") for r in reports],
            "skipped": [{"path": path, "reason": reason} for path, reason in resolved.skipped],
            "host": [{"path": r.report.path, "seconds": round(r.seconds, 3), "peak_memory_mb": round(r.memory_mb, 1),
                      "guest_instructions": r.instructions} for r in ordered],
            "summary": {"valid": valid, "invalid": len(reports) - valid, "backend": args.sandbox,
                        "seconds": round(elapsed, 3), "workers": workers, "validated": len(todo),
                        "already_done": len(jobs) - len(todo), "environments_per_s": round(per_second, 2),
                        "ray": args.ray is not None,
                        "inputs": [{"path": made.label, "rows": made.rows, "notes": made.notes} for made in inputs]
                        + [{"path": label, "library": label.split(":", 1)[0], "not_checked": list(notes)}
                           for label, notes in resolved.notes.items()],
                        "fail_on": [{"path": path, "condition": condition, "why": why}
                                    for path, condition, why in failing]},
        }
        out.write(json.dumps(document, indent=2) + "\n")
    else:
        _print_summary(valid, len(reports) - valid, f"{args.sandbox} backend, {where}", len(todo), elapsed, screen)
        for path, condition, why in failing:
            screen.wrapped(styled(("fails --fail-on", "fail"), f" {condition}: {path} ({why})"))
    return EXIT_OK if valid == len(reports) and not failing else EXIT_INVALID


def _reward_inputs(args: argparse.Namespace) -> list[RewardInput]:
    """Each ``--reward FILE.py:FUNCTION`` with its ``--data`` rows, as a generated environment."""
    if not args.reward:
        if args.data:
            raise UsageError("--data needs --reward FILE.py:FUNCTION (the function that scores its rows)")
        return []
    if not args.data:
        raise UsageError("--reward needs --data FILE.jsonl: the dataset whose rows the function scores")
    try:
        return [reward_function_environment(reference, Path(args.data), rows=args.data_rows,
                                            prompt_column=args.prompt_column, answer_column=args.answer_column,
                                            reward_range=args.reward_range)
                for reference in args.reward]
    except RewardInputError as error:
        raise UsageError(str(error)) from None


def _env_args(text: str) -> dict:
    """``--env-args '{"k": 1}'`` (argparse reports an ArgumentTypeError as one line naming the option)."""
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        value = None
    if not isinstance(value, dict):
        raise argparse.ArgumentTypeError(f"{text[:60]!r} is not a JSON object; write e.g. '{{\"num_examples\": 50}}'")
    return value


def _reward_range(text: str) -> tuple[float, float]:
    """``LOW,HIGH`` (argparse reports a ValueError as one line naming the option)."""
    try:
        low, high = (float(part) for part in text.split(","))
    except ValueError:  # not two parts, or not numbers
        low = high = float("nan")
    if not -1e9 < low < high < 1e9:  # NaN fails every comparison
        raise argparse.ArgumentTypeError(f"{text!r} is not a range; write LOW,HIGH with LOW below HIGH, e.g. 0,2")
    return low, high


def _finished_and_todo(jobs: list[ValidationJob],
                       results_file: ResultsFile | None) -> tuple[dict[int, JobResult], list[int]]:
    """``split_finished``, with --results checked first: it must be a results file of ours (it is read,
    then appended to), and, when there is work left, one this user can append to, so that neither a
    wrong path nor a read-only place shows only after the first file has been validated."""
    try:
        done, todo = split_finished(jobs, results_file)
    except ResultsFileError as error:
        raise UsageError(f"--results {error}") from None
    if results_file is not None and todo:
        try:
            results_file.check_writable()
        except OSError as error:
            raise UsageError(f"cannot write --results {results_file.path}: {error.strerror or error}; choose a file "
                             "in a directory you can write to") from None
    return done, todo


def _check_imports_fit_sandbox(modules: Sequence[str], sandbox: str) -> None:
    """--allow-import lifts the static check only; the module must also be importable where the code runs.
    The wasm guest holds a fixed set of modules (``runtime.guest_modules``), so numpy and the like would
    pass the check and then fail every environment at load time: say so before any work instead."""
    if sandbox != "wasm":
        return
    missing = [module for module in modules if not _in_guest_image(module)]
    if missing:
        named = " ".join(f"--allow-import {module}" for module in missing)
        raise UsageError(f"{named} {'needs' if len(missing) == 1 else 'need'} --sandbox process: the wasm sandbox "
                         "holds only its own standard-library modules; add --sandbox process (it runs code you trust)")


def _in_guest_image(module: str) -> bool:
    """Whether ``import module`` works in the WebAssembly guest, where nothing can be imported at run time:
    the allowlist (submodules included) and ``GENERATED_CODE_MODULES``, with the packages that hold them."""
    return (is_allowed_module(module) or module in GENERATED_CODE_MODULES
            or any(name.startswith(f"{module}.") for name in GENERATED_CODE_MODULES))


def _check_output_file(path: Path, option: str, example: str) -> None:
    """Fail before the work (an episode played by hand, say) when the file an option writes at the end
    cannot be written there."""
    if path.is_dir():
        raise UsageError(f"{option} {path} is a directory; name a file in it, e.g. {path / example}")
    if not path.parent.is_dir():
        what = "is not a directory" if path.parent.exists() else "does not exist"
        raise UsageError(f"cannot write {option} {path}: {path.parent} {what}; create it or choose another path")
    try:
        check_writable_directory(path.parent)
    except OSError as error:
        raise UsageError(f"cannot write {option} {path}: {error.strerror or error}; choose a directory you can "
                         "write to") from None


def _validate_jobs(jobs: list[ValidationJob], args: argparse.Namespace, limits: ExecutionLimits,
                   config: ValidatorConfig, per_file: WorkerLimits) -> Iterator[Any]:
    """First the number of workers, then (position in ``jobs``, result) as each job finishes: in order
    from local worker processes, in the order they finish from Ray."""
    if not jobs:  # everything was in the results file already
        yield 0
        return
    if args.ray is None:
        workers = args.jobs or default_jobs(len(jobs))
        yield workers
        yield from enumerate(run_jobs(jobs, args.sandbox, limits, config, workers=workers, worker_limits=per_file))
        return
    try:
        from spade_envs.cluster.ray_validate import RaySettings, RayValidation
    except ImportError:
        raise UsageError("--ray needs Ray; install it with: pip install 'ray[default]'") from None
    settings = RaySettings(address=args.ray or None, workers=args.jobs)
    try:
        cluster = RayValidation(args.sandbox, limits, config, settings=settings, worker_limits=per_file)
    except (ConnectionError, RuntimeError, ValueError) as error:
        raise UsageError(f"cannot use the Ray cluster at {args.ray or 'a new local cluster'}: "
                         f"{' '.join(str(error).split())[:200]}") from None
    with cluster:
        yield cluster.workers
        yield from cluster.run(jobs)


def _plan_salt(args: argparse.Namespace) -> int | None:
    """The plan key (``spade_envs.checks.plan_key``), unless ``--plan-seed`` fixes the seeds itself."""
    if getattr(args, "plan_seed", None) is not None:
        return None
    try:
        return load_plan_key(getattr(args, "plan_key", None))
    except (OSError, ValueError) as error:
        raise UsageError(f"--plan-key {args.plan_key}: {getattr(error, 'strerror', None) or error}") from None


def _append(results_file: ResultsFile, result: JobResult) -> None:
    try:
        results_file.append(result)
    except OSError as error:
        raise UsageError(f"cannot write {results_file.path}: {error.strerror or error}") from None


def _print_skipped(skipped: list[tuple[str, str]], screen: Screen, shown: int = 5) -> None:
    """One line per reason: how many entries of the given directories were passed over, and which."""
    by_reason: dict[str, list[str]] = {}
    for path, reason in skipped:
        by_reason.setdefault(reason, []).append(path)
    for reason, paths in by_reason.items():
        more = f" (+{len(paths) - shown} more)" if len(paths) > shown else ""
        screen.wrapped(styled((f"skipped {len(paths)}, {reason}:", "muted"),
                              f" {', '.join(printable(p) for p in paths[:shown])}{more}"), hang=4)


def _print_report(report: ValidationReport, index: int, total: int, screen: Screen, verbose: bool = False) -> None:
    """A report for people: a line per file, the findings under it with a hanging indent. Everything the
    environment chose (class name, messages, tracebacks) is escaped."""
    checks = sum(c.status == "passed" for c in report.checks)
    name = printable(report.class_name or "?")
    tiers = " ".join(f"{t.tier}:{t.duration_ms / 1000:.2f}s" for t in report.tiers if t.status != "skipped")
    counter = f"[{index:>{len(str(total))}}/{total}] "  # padded: the columns stay put from [9/13] to [10/13]
    mark = ("ok  ", "ok") if report.ok else ("FAIL", "fail")
    screen.wrapped(styled(counter, mark, f" {printable(report.path)}  {name}  ",
                          (f"({checks} checks passed; {tiers})", "muted")), hang=len(counter) + 5)
    indent = len(counter)
    for finding in report.failures + report.warnings:
        where = f"line {finding.line}: " if finding.line else ""
        level = () if finding.severity == "error" else (("warning ", "warning"),)
        screen.wrapped(styled(*level, (f"[{printable(finding.check)}]", "check"), f" {where}{printable(finding.message)}"),
                       indent=indent, hang=4)
        if finding.detail and finding.severity == "error":
            lines = finding.detail.splitlines()
            shown = lines if verbose or finding.check.startswith("fuzz_") else lines[-6:]
            for line in shown:
                screen.wrapped(styled(("| ", "muted"), printable(line)), indent=indent + 2, hang=2)
    screen.stream.flush()


def _print_summary(valid: int, invalid: int, where: str, validated: int, elapsed: float, screen: Screen) -> None:
    """The last line: how many are valid, where they ran, how long it took (and the rate, when it means
    something: see ``terminal.rate``)."""
    figures = [f"{elapsed:.2f} s"] + [text for text in (rate(validated, elapsed, "environments"),) if text]
    screen.line("")
    screen.wrapped(styled((f"{valid} valid", "ok" if not invalid else None), ", ",
                          (f"{invalid} invalid", "fail" if invalid else None), f" ({where}, {', '.join(figures)})"))


# ---------------------------------------------------------------------- play
def cmd_play(args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    (label, source, class_name), resolved = _one_environment(args.path, "play", args)
    if args.log:
        _check_output_file(Path(args.log), "--log", "episode.json")
    lines: Iterator[str] | None = None
    if args.actions:
        try:
            text = Path(args.actions).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise UsageError(f"cannot read actions file {args.actions}: {error}") from None
        lines = iter(text.splitlines())
    backend = _backend(args.sandbox, _limits(args.timeout, resolved))
    try:
        session = backend.open_session(source, class_name=class_name, max_turns=args.max_turns)
    except EnvRuntimeError as error:
        out.write(f"spade-envs: the environment failed to load: {printable(error)}\n")
        return EXIT_INVALID
    with session:
        return play_session(session, args, lines, source, label, out, stdin)


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
    (label, source, class_name), resolved = _one_environment(args.env, "--env", args)
    if log.env_id and log.env_id != env_id_for(source):
        out.write(f"note: {printable(label)} is {env_id_for(source)}, the log was recorded on {log.env_id}\n")
    backend = _backend(args.sandbox, _limits(args.timeout, resolved))
    try:
        with backend.open_session(source, class_name=class_name, max_turns=args.max_turns) as session:
            replayed = play_scripted(session, log.seed, log.actions, hint=log.hint)
    except EnvRuntimeError as error:
        out.write(f"spade-envs: the environment failed during replay: {printable(error)}\n")
        return EXIT_INVALID
    differences = compare_episodes(log, replayed)
    out.writelines(printable(line) + "\n" for line in differences)
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
    """Pack environments into a pool; with no PATH, the bundled library (as it always did).

    Files are validated first (every tier the options keep), in the sandbox; if any is invalid its report
    is printed and nothing is written. A spec is read off each valid file in the sandbox
    (``spade_envs.packing``); pool entries and bundled environments keep theirs.
    """
    destination = Path(args.out)
    _check_destination(destination)
    if not args.paths and not args.bundled:
        entries = list(bundled_registry())
        environments = [(e.spec(), e.source()) for e in entries]
        return _write_export(destination, args.name or "spade-bundled", environments, out)
    resolved = resolve_targets(list(args.paths) + (bundled_registry().names() if args.bundled else []),
                               env_args=args.env_args)
    args.allow_import = _allowed_imports(resolved, args)
    if not 0 <= args.examples <= MAX_EXAMPLES:
        raise UsageError(f"--examples must be from 0 (no fuzzing) to {MAX_EXAMPLES}, got {args.examples}")
    limits = _limits(args.timeout, resolved)
    backend = _backend(args.sandbox, limits)
    _check_imports_fit_sandbox(args.allow_import, args.sandbox)
    screen = Screen.of(out)
    _print_skipped(resolved.skipped, screen)
    config = ValidatorConfig(
        static=StaticConfig(extra_modules=frozenset(args.allow_import)),
        dynamic=CheckConfig(seeds=tuple(range(args.seed, args.seed + args.seeds)), max_turns=args.max_turns,
                            seed=getattr(args, "plan_seed", None), plan_salt=_plan_salt(args)),
        fuzz=FuzzConfig(examples=max(args.examples, 1), seed=args.fuzz_seed),
        tiers=tuple(t for t in TIERS if t != "fuzz" or args.examples > 0),
    )
    jobs = resolved.jobs()
    try:
        results = list(run_jobs(jobs, args.sandbox, limits, config, workers=args.jobs or default_jobs(len(jobs))))
    except EnvCrashError as error:
        raise UsageError(str(error)) from None
    invalid = [r.report for r in results if not r.report.ok]
    for index, report in enumerate(invalid, start=1):
        _print_report(report, index, len(invalid), screen)
    if invalid:
        out.write(f"\n{len(invalid)} of {len(jobs)} environments are invalid; nothing was written "
                  "(fix them, or leave them out)\n")
        return EXIT_INVALID
    defaults = SpecDefaults(skill=args.skill, seed=args.seed)
    environments: dict[str, tuple[EnvSpec, str]] = {}
    for label, source, class_name in resolved.environments:
        spec = resolved.specs.get(label)
        if spec is None:
            try:
                spec = spec_of_code(backend, source, class_name, defaults)
            except EnvRuntimeError as error:
                out.write(f"spade-envs: {printable(label)}: {printable(error)}; nothing was written\n")
                return EXIT_INVALID
        environments.setdefault(spec.id, (spec, source))  # the same code twice is one environment
    duplicates = len(resolved.environments) - len(environments)
    if duplicates:
        out.write(f"{duplicates} environment(s) had the same code as another and were packed once\n")
    return _write_export(destination, args.name or destination.name or "pool", list(environments.values()), out)


def _check_destination(destination: Path) -> None:
    """Refuse to export over a file, into a directory that holds something other than a pool, or where
    nothing can be written."""
    if destination.exists() and not destination.is_dir():
        raise UsageError(f"{destination} is a file; give a directory to write the pool to")
    if destination.is_dir() and not is_pool_dir(destination) and any(destination.iterdir()):
        raise UsageError(f"{destination} already holds files that are not a pool; choose a new directory")
    try:  # before validating: a read-only place must not show only once the pool is ready to write
        check_writable_directory(destination)
    except OSError as error:
        raise UsageError(f"cannot write the pool to {destination}: {error.strerror or error}; choose a directory "
                         "you can write to") from None


def _write_export(destination: Path, name: str, environments: list[tuple[EnvSpec, str]], out: TextIO) -> int:
    try:
        manifest = write_pool(destination, name, environments, validated=True)
    except OSError as error:
        raise UsageError(f"cannot write the pool to {destination}: {error.strerror or error}") from None
    out.write(f"wrote {len(manifest.entries)} environments to {destination}\n")
    return EXIT_OK


def cmd_serve_openenv(args: argparse.Namespace, out: TextIO) -> int:
    """Serve a pool as an OpenEnv environment server on loopback until interrupted."""
    # OpenEnv drives every session on a worker thread, where the inprocess backend cannot interrupt a call
    # (its limit is a SIGALRM, main thread only): a --timeout there would be silently ignored.
    if args.sandbox == "inprocess" and args.timeout is not None:
        raise UsageError("--timeout cannot be enforced with --sandbox inprocess here (OpenEnv runs sessions on "
                         "threads, where an in-process call cannot be stopped); use --sandbox process or wasm, "
                         "or leave --timeout out")
    timeout = SERVE_TIMEOUT_S if args.timeout is None else args.timeout
    from spade_envs.interop.pool_env import load_pool, pool_card, sandbox_backend

    environments = load_pool(args.pool, allow_unvalidated=args.allow_unvalidated)  # the pool is checked first
    try:
        from spade_envs.interop.openenv_server import banner, create_app, serve
    except ImportError:
        raise UsageError("serve-openenv needs OpenEnv; install it with: pip install 'spade-toolkit[interop]'") from None
    _check_port_free(args.host, args.port)
    app = create_app(environments, sandbox_backend(args.sandbox, timeout), max_sessions=args.max_sessions,
                     card=pool_card(args.pool))
    out.write(banner(len(environments), printable(args.pool), f"http://{args.host}:{args.port}", args.sandbox,
                     args.max_sessions) + "\n")
    out.flush()
    serve(app, host=args.host, port=args.port)
    return EXIT_OK


def _check_port_free(host: str, port: int) -> None:
    """Fail with one line before loading the server when the address cannot be listened on."""
    import socket

    try:
        with socket.create_server((host, port)):
            pass
    except OSError as error:
        raise UsageError(f"cannot listen on {host}:{port} ({error.strerror or error}); choose another --port "
                         "or --host") from None


def cmd_list(args: argparse.Namespace, out: TextIO) -> int:
    entries = list(bundled_registry())
    if args.json:
        rows = [{"name": e.name, "class_name": e.class_name, "kind": e.kind, "skill": e.skill,
                 "max_turns": e.max_turns, "path": str(e.path), "description": e.description} for e in entries]
        out.write(json.dumps(rows, indent=2) + "\n")
        return EXIT_OK
    Screen.of(out).table(("name", "kind", "skill", "description"),
                         ([styled((e.name, "figure")), e.kind, e.skill, e.description] for e in entries))
    return EXIT_OK


# ---------------------------------------------------------------------- parser and entry point
def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(prog="spade-envs", description="Author, validate and play SPADE environments.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=OneLineParser)

    def add_runtime_options(sub: argparse.ArgumentParser) -> None:
        sub.add_argument("--sandbox", default=DEFAULT_BACKEND, choices=backend_names(),
                         help=f"where environment code runs (default: {DEFAULT_BACKEND})")
        sub.add_argument("--timeout", type=positive_seconds(MAX_CALL_SECONDS), default=10.0,
                         help="seconds of work allowed per environment call (default 10): the sandbox counts them "
                         "as guest instructions, the same on every machine and load")
        sub.add_argument("--max-turns", type=positive_int(MAX_TURNS), default=None,
                         help=f"construct with this max_turns (1 to {MAX_TURNS})")
        sub.add_argument("--env-args", type=_env_args, default=None, metavar="JSON",
                         help="a JSON object of arguments for a verifiers environment's load_environment")

    def add_validation_options(sub: argparse.ArgumentParser, examples: int) -> None:
        sub.add_argument("paths", nargs="*", metavar="PATH",
                         help=".py files, directories, exported pool directories, bundled names, or a library's task or "
                         "game: reasoning_gym:TASK, textarena:GAME, gem:GAME, verifiers:FOLDER, verifiers:ENV_ID or "
                         "openenv:FOLDER (with --sandbox process)")
        sub.add_argument("--bundled", action="store_true", help="also check every bundled environment")
        sub.add_argument("--json", action="store_true", help="print one JSON document instead of text")
        sub.add_argument("--seeds", type=positive_int(MAX_SEEDS), default=3,
                         help="how many seeds the contract checks use (default 3)")
        sub.add_argument("--seed", type=int, default=0, help="first contract seed (default 0)")
        sub.add_argument("--examples", type=int, default=examples,
                         help=f"fuzz examples per environment (default {examples}; 0 skips fuzzing)")
        sub.add_argument("--fuzz-seed", type=int, default=0, help="seed of the fuzzer (default 0)")
        sub.add_argument("--judge", metavar="URL[#MODEL]", default=None,
                         help="also ask a model judge (any OpenAI-compatible endpoint) whether the checker "
                         "accepts what the text asks, the task is solvable from what the agent sees, and no "
                         "hint or reply gives the answer away; a heuristic, off by default")
        sub.add_argument("--judge-severity", choices=("error", "warning"), default="error",
                         help="whether the judge's findings reject (error, the default) or only warn")
        sub.add_argument("--plan-seed", type=int_in_range(0, 2**31 - 1), default=None, metavar="N",
                         help="seed that draws the 32-bit seeds every check plays (default: derived from each "
                         "file's content and your plan key, so the same file gets the same verdict, and "
                         "recorded in the report as plan_seed; give it to replay a verdict)")
        sub.add_argument("--plan-key", type=Path, default=None, metavar="FILE",
                         help="file holding the secret that, with each file's content, draws its plan seed "
                         "(default ~/.config/spade/plan-key, made on first use; share one to agree on verdicts)")
        sub.add_argument("--hint", help="also check that this hint does not leak any answer")
        sub.add_argument("--jobs", type=positive_int(MAX_JOBS), default=None,
                         help="worker processes (default: one per core, at most one per file; with --ray, one "
                         "per CPU of the cluster)")
        sub.add_argument("--ray", nargs="?", const="", default=None, metavar="ADDRESS",
                         help="validate on a Ray cluster: the one at ADDRESS (host:port, or auto), or a new "
                         "local one without ADDRESS; shows a progress line on stderr")
        sub.add_argument("--results", metavar="FILE", default=None,
                         help="append each file's report to FILE (JSON lines) as it finishes, and skip the "
                         "files FILE already holds a report for: a killed run resumes where it stopped")
        sub.add_argument("--file-timeout", type=positive_seconds(MAX_FILE_SECONDS), default=None, metavar="SECONDS",
                         help="seconds allowed for validating one file (default: no limit beyond --timeout per call)")
        sub.add_argument("--file-memory", type=positive_int(MAX_FILE_MEMORY_MB), default=WorkerLimits.memory_mb,
                         metavar="MB", help="host memory one file's validation may add, its sandboxes included "
                         f"(default {WorkerLimits.memory_mb})")
        sub.add_argument("--no-recursive", dest="recursive", action="store_false",
                         help="do not search the subdirectories of a directory PATH")
        sub.add_argument("--allow-import", action="append", default=[], metavar="MODULE",
                         help="also allow importing MODULE (e.g. numpy; needs --sandbox process)")
        sub.add_argument("--reward", action="append", default=[], metavar="FILE.py:FUNCTION",
                         help="also validate a TRL-style reward function, scored on the rows of --data "
                         "(its code runs in the sandbox)")
        sub.add_argument("--data", metavar="FILE.jsonl", default=None,
                         help="the dataset of --reward: one JSON object per line, with a prompt column and, "
                         "for the known-answer probes, an answer column")
        sub.add_argument("--data-rows", type=positive_int(MAX_DATA_ROWS), default=64, metavar="N",
                         help="how many rows of --data to validate on (default 64)")
        sub.add_argument("--prompt-column", default=None, metavar="NAME",
                         help=f"the prompt column of --data (default: the first of {', '.join(PROMPT_COLUMNS)})")
        sub.add_argument("--reward-range", type=_reward_range, default=DEFAULT_RANGE, metavar="LOW,HIGH",
                         help="the range the --reward function's scores lie in (default -1,1; the GRPO examples "
                         "pay 2.0 for a right answer: write 0,2)")
        sub.add_argument("--answer-column", default=None, metavar="NAME",
                         help=f"the answer column of --data (default: the first of {', '.join(ANSWER_COLUMNS)})")
        sub.add_argument("--fail-on", action="append", default=[], metavar="CONDITION",
                         help="also fail (exit 1) on CONDITION: 'warning', or a known-answer figure and a "
                         "threshold, e.g. 'ceiling>0.1', 'answer_free>=0.2', 'refused>0.05' (comma-separated "
                         "or repeated); a rejected environment always fails")
        sub.add_argument("--sarif", metavar="FILE", default=None,
                         help="also write the findings to FILE as SARIF 2.1.0 (code scanning)")
        sub.add_argument("--junit", metavar="FILE", default=None,
                         help="also write the verdicts to FILE as JUnit XML (CI test reports)")
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
    moves = play.add_mutually_exclusive_group()
    moves.add_argument("--actions", metavar="FILE", help="read moves from FILE, one per line, as if typed")
    moves.add_argument("--solution", action="store_true", help="replay the environment's own solution()")
    play.add_argument("--hint", help="append a hint to the first observation, as hinted rollouts do")
    play.add_argument("--raw", action="store_true", help="send typed lines as they are (no \\boxed{} wrapping)")
    play.add_argument("--log", metavar="FILE", help="write the episode as an EpisodeLog JSON file")
    add_runtime_options(play)

    schema = commands.add_parser("schema", help="write the JSON Schemas of the spec models")
    schema.add_argument("--out", default="schemas", help="directory (default: schemas)")
    schema.add_argument("--check", action="store_true", help="only report whether the files are stale")

    listing = commands.add_parser("list", help="list the bundled environments")
    listing.add_argument("--json", action="store_true", help="print one JSON document instead of a table")

    export = commands.add_parser("export", help="validate environments and pack them into a pool")
    export.add_argument("out", metavar="OUT", help="directory to write manifest.json and environments.jsonl to")
    export.add_argument("paths", nargs="*", metavar="PATH",
                        help=".py files, directories, pools or DIR#ID entries (none: the bundled library)")
    export.add_argument("--bundled", action="store_true", help="also pack every bundled environment")
    export.add_argument("--name", help="the pool's name in its manifest (default: OUT's name)")
    export.add_argument("--skill", default=DEFAULT_SKILL,
                        help=f"the skill recorded for plain files (default {DEFAULT_SKILL!r})")
    export.add_argument("--seeds", type=positive_int(MAX_SEEDS), default=3,
                        help="how many seeds the contract checks use (default 3)")
    export.add_argument("--seed", type=int, default=0, help="first contract seed (default 0)")
    export.add_argument("--examples", type=int, default=100,
                        help="fuzz examples per environment (default 100; 0 skips fuzzing)")
    export.add_argument("--fuzz-seed", type=int, default=0, help="seed of the fuzzer (default 0)")
    export.add_argument("--jobs", type=positive_int(MAX_JOBS), default=None,
                        help="worker processes (default: one per core, at most one per file)")
    export.add_argument("--allow-import", action="append", default=[], metavar="MODULE",
                        help="also allow importing MODULE (e.g. numpy; needs --sandbox process)")
    add_runtime_options(export)

    openenv = commands.add_parser("serve-openenv", help="serve a pool as an OpenEnv environment server")
    openenv.add_argument("pool", metavar="POOL", help="a pool directory, DIR#ID, or 'bundled'")
    openenv.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    openenv.add_argument("--port", type=positive_int(65_535), default=8000, help="port (default 8000)")
    openenv.add_argument("--max-sessions", type=positive_int(MAX_SESSIONS), default=64,
                         help="client sessions at once, one sandbox each (default 64)")
    openenv.add_argument("--sandbox", default=DEFAULT_BACKEND, choices=backend_names(),
                         help=f"where environment code runs (default: {DEFAULT_BACKEND})")
    openenv.add_argument("--timeout", type=positive_seconds(MAX_CALL_SECONDS), default=None,
                         help=f"seconds allowed per environment call (default {SERVE_TIMEOUT_S:g}; not with "
                         "--sandbox inprocess, which cannot stop a call on the server's threads)")
    openenv.add_argument("--allow-unvalidated", action="store_true",
                         help="serve a pool whose manifest says some environments were not validated")
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
        if args.command == "serve-openenv":
            return cmd_serve_openenv(args, stream)
        return cmd_list(args, stream)

    return run_command("spade-envs", body)


if __name__ == "__main__":
    sys.exit(main())
