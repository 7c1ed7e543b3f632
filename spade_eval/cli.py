"""``spade-eval``: evaluate a checkpoint or a server on the paper's held-out benchmarks, and compare runs.

Commands: ``run`` (benchmarks -> results.json, report.md in ``--out``; rerunning the same command
resumes from the generation cache), ``report`` (tables and a plot from one or more results files, with
deltas), ``list`` (the benchmarks and their default sampling), ``serve`` (any model as a local
OpenAI-compatible endpoint) and ``schema`` (the results document's JSON Schema).

Exit codes: 0 done, 1 a stale schema (``schema --check``) or a generation cache that could not be written
mid-run, 2 bad usage, missing data, a run directory that cannot be written, a model that cannot be loaded or
a server that cannot be reached (one line, no traceback), 130 interrupted.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, TextIO

from pydantic import ValidationError

from spade_envs.cli import schema_command
from spade_envs.cliutil import EXIT_OK, OneLineParser, UsageError, run_command
from spade_envs.fileio import check_writable_directory
from spade_envs.runtime.backend import DEFAULT_BACKEND, backend_names
from spade_envs.terminal import Screen
from spade_eval.benchmark import Benchmark, BenchmarkDataError, EvalItem, EvalSettings
from spade_eval.models import ModelHandle, load_model, resolve_spec
from spade_eval.registry import ALL, DEFAULT_SUITE, SUITES, Entry, RegistryError, select
from spade_eval.report import labels_for, render_markdown, write_report
from spade_eval.results import RESULTS_SCHEMA_MODELS, EvalResults, RunSettings
from spade_eval.suites.code_exec import CodeExecution

CODE_BENCHMARKS = frozenset({"humaneval_plus", "mbpp_plus", "livecodebench_v6"})
"""The benchmarks that run generated programs (their execution settings go into the results)."""
from spade_eval.runner import run_benchmarks

PROG = "spade-eval"


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog=PROG, description="Evaluate checkpoints on the SPADE paper's held-out benchmarks."
    )
    commands = parser.add_subparsers(dest="command", required=True, parser_class=OneLineParser)

    run = commands.add_parser("run", help="run benchmarks on a model; rerun to resume")
    run.add_argument(
        "--model",
        required=True,
        help="checkpoint directory, server URL (http://host:port[/v1][#model]) or policy spec",
    )
    run.add_argument("--suite", choices=(*SUITES, ALL),
                     help=f"benchmark group (default {DEFAULT_SUITE}; with --benchmarks, every group)")
    run.add_argument(
        "--benchmarks",
        nargs="+",
        metavar="NAME",
        help="only these, from any suite (see `spade-eval list`); comma-separated also works",
    )
    run.add_argument("--data-dir", type=Path, help="root of the local benchmark data")
    run.add_argument("--limit", type=int, help="first N items of each benchmark")
    run.add_argument("--samples", type=int, help="samples per item (default: each benchmark's paper setting)")
    run.add_argument("--out", type=Path, help="run directory (default: runs/eval-<model>-<suite>)")
    run.add_argument("--temperature", type=float, help="override every benchmark's temperature")
    run.add_argument("--top-p", type=float, help="override top-p")
    run.add_argument("--top-k", type=int, help="override top-k (0: none)")
    run.add_argument("--max-tokens", type=int, help="override the completion budget")
    run.add_argument("--seed", type=int, default=0, help="seed of every sampler (sample k of an item uses seed + k) and of episodes (default 0)")
    run.add_argument("--concurrency", type=int, default=16, help="generations in flight (default 16)")
    run.add_argument(
        "--sandbox",
        default=DEFAULT_BACKEND,
        choices=backend_names(),
        help=f"where generated code and environments run (default: {DEFAULT_BACKEND})",
    )
    run.add_argument(
        "--native-code",
        choices=("process", "sandbox"),
        default="process",
        help="code benchmarks: where programs importing numpy run: a child process under evalplus' limits "
        "(default) or the sandbox (where they fail)",
    )
    run.add_argument("--env-pool", type=Path, help="games suite: a SPADE environment pool directory")
    run.add_argument("--user-model", help="tool-use suites: the simulated user's model (default: --model)")
    run.add_argument("--tool-call-format", choices=("fc", "prompt"), default="fc",
                     help="BFCL: function calling (tool schemas, default) or prompting (calls written as text)")
    run.add_argument("--device", help="hf checkpoints: torch device (default cpu)")
    run.add_argument("--api-key-env", metavar="VAR", help="environment variable holding the server's API key")
    run.add_argument("--no-cache", action="store_true", help="ask the model again for everything")

    report = commands.add_parser("report", help="tables (Markdown, HTML) and a plot from results files")
    report.add_argument(
        "results",
        nargs="+",
        type=Path,
        metavar="RESULTS",
        help="results.json files or run directories; the first is the baseline for deltas",
    )
    report.add_argument("--out", type=Path, default=Path("report"), help="directory (default: report)")
    report.add_argument(
        "--label",
        action="append",
        metavar="NAME",
        help="column name of one results file, once per file in order (default: each run's directory)",
    )

    listing = commands.add_parser("list", help="list the benchmarks and their default sampling")
    listing.add_argument("--suite", default=ALL, choices=(*SUITES, ALL), help="list one group only")

    serve = commands.add_parser("serve", help="serve a model as an OpenAI-compatible endpoint on 127.0.0.1")
    serve.add_argument("--model", required=True, help="checkpoint directory or policy spec")
    serve.add_argument("--port", type=int, default=8000, help="loopback port to listen on (default 8000)")
    serve.add_argument("--name", help="served model name (default: the model's)")
    serve.add_argument("--device", help="hf checkpoints: torch device (default cpu)")

    schema = commands.add_parser("schema", help="write the JSON Schema of the results document")
    schema.add_argument("--out", type=Path, default=Path("schemas"), help="directory (default: schemas)")
    schema.add_argument("--check", action="store_true", help="only report whether the file is stale")
    return parser


# ---------------------------------------------------------------------- run
def _benchmark_names(raw: Sequence[str] | None) -> list[str] | None:
    if not raw:
        return None
    return [name for chunk in raw for name in chunk.split(",") if name]


def _suite_of(entries: Sequence[Entry]) -> str:
    """The one suite the selected benchmarks belong to, or ``all`` when they span several."""
    suites = {entry.suite for entry in entries}
    return suites.pop() if len(suites) == 1 else ALL


def _sampling_overrides(args: argparse.Namespace) -> dict[str, Any]:
    overrides: dict[str, Any] = {}
    if args.temperature is not None:
        if args.temperature < 0:
            raise UsageError("--temperature must be >= 0")
        overrides["temperature"] = args.temperature
    if args.top_p is not None:
        if not 0 < args.top_p <= 1:
            raise UsageError("--top-p must be in (0, 1]")
        overrides["top_p"] = args.top_p
    if args.top_k is not None:
        overrides["top_k"] = args.top_k if args.top_k > 0 else None
    if args.max_tokens is not None:
        if args.max_tokens < 1:
            raise UsageError("--max-tokens must be >= 1")
        overrides["max_tokens"] = args.max_tokens
    return overrides


def _policy_options(args: argparse.Namespace, model: str) -> dict[str, Any]:
    options: dict[str, Any] = {}
    looks_remote = model.startswith(("http://", "https://", "openai:"))
    if getattr(args, "api_key_env", None):
        key = os.environ.get(args.api_key_env)
        if not key:
            raise UsageError(f"--api-key-env {args.api_key_env}: that environment variable is empty")
        if looks_remote:
            options["api_key"] = key
    if getattr(args, "device", None) and not looks_remote:
        options["device"] = args.device
    return options


def _load(model: str, args: argparse.Namespace) -> ModelHandle:
    return load_model(model, **_policy_options(args, model))  # a ModelError is one line (spade_envs.errors)


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text.rstrip("/").split("/")[-1]).strip("-") or "model"


def _prepare_run_directory(directory: Path, *, create: bool = True) -> None:
    """Make sure files can be written in the run directory (creating it unless ``create`` is False)
    before any generation: the cache, results.json and the report all go there, and a read-only
    directory would otherwise only show when the first answer is cached, as a traceback."""
    try:
        if create:
            directory.mkdir(parents=True, exist_ok=True)
        check_writable_directory(directory)
    except OSError as error:
        raise UsageError(
            f"cannot write the run directory {directory}: {error.strerror or error}; choose another --out"
        ) from None


def cmd_run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    for flag, value in (
        ("--limit", args.limit),
        ("--samples", args.samples),
        ("--concurrency", args.concurrency),
    ):
        if value is not None and value < 1:
            raise UsageError(f"{flag} must be >= 1")
    overrides = _sampling_overrides(args)
    if args.data_dir is not None and not args.data_dir.is_dir():
        raise UsageError(f"--data-dir {args.data_dir} is not a directory")
    entries = select(args.suite, _benchmark_names(args.benchmarks))
    if not entries:
        raise UsageError(f"suite {args.suite or DEFAULT_SUITE} has no benchmarks installed")
    suite = args.suite or _suite_of(entries)

    from spade_train.run.progress import quiet_transformers

    quiet_transformers()
    spec = resolve_spec(args.model)  # a bad path or a dead server fails before anything loads
    user = _load(args.user_model, args).policy if args.user_model else None
    code_execution = CodeExecution(
        sandbox=args.sandbox, native_backend="process" if args.native_code == "process" else None
    )
    # Every sampler gets a seed (sample k of an item: seed + k), so the same command gives the same
    # generations; servers that ignore seeds are the only exception.
    overrides["seed"] = args.seed
    settings = EvalSettings(
        suite=suite,
        data_dir=args.data_dir,
        sandbox=args.sandbox,
        code_execution=code_execution,
        env_pool=args.env_pool,
        user_simulator=user,
        tool_call_format=args.tool_call_format,
        seed=args.seed,
        samples=args.samples,
        sampling_overrides=overrides,
        limit=args.limit,
        concurrency=args.concurrency,
    )
    named = set(_benchmark_names(args.benchmarks) or ())
    benchmarks: list[tuple[Benchmark, Sequence[EvalItem] | None]] = []
    for entry in entries:  # every benchmark's data is checked before the first generation
        benchmark = entry.factory(settings)
        try:
            benchmarks.append((benchmark, benchmark.load(args.data_dir, args.limit)))
        except BenchmarkDataError as error:
            # Data the user must supply (GPQA, AIME 2026, LiveCodeBench) is skipped when the suite was
            # asked for as a whole; a benchmark named on the command line must have its data.
            if getattr(benchmark, "user_supplied_data", False) and entry.name not in named:
                err.write(f"{PROG}: skipping {entry.name}: {error}\n")
                continue
            raise
    if not benchmarks:
        raise UsageError("no selected benchmark has its data; pass --data-dir or name benchmarks that do")

    if args.out is not None:
        _prepare_run_directory(args.out, create=False)  # a bad --out fails before a checkpoint loads
    model = _load(spec, args)
    directory = args.out or Path("runs") / f"eval-{_slug(model.name)}-{suite}"
    settings = replace(settings, cache_dir=None if args.no_cache else directory / "cache")
    record = RunSettings.of(settings, [b.name for b, _ in benchmarks],
                            ran_code=any(b.name in CODE_BENCHMARKS for b, _ in benchmarks))
    _prepare_run_directory(directory)
    results = asyncio.run(
        run_benchmarks(benchmarks, model, settings, record, directory / "results.json", err)
    )
    labels = labels_for([results], [directory / "results.json"])
    write_report([results], directory, [directory / "results.json"], labels)
    Screen.of(out).markdown(render_markdown([results], labels))
    out.write(f"\nresults: {directory / 'results.json'}; report: {directory / 'report.html'}\n")
    return EXIT_OK


# ---------------------------------------------------------------------- report, list, serve
def cmd_report(args: argparse.Namespace, out: TextIO) -> int:
    documents, paths = [], []
    for given in args.results:
        path = given / "results.json" if given.is_dir() else given
        try:
            documents.append(EvalResults.read(path))
        except OSError as error:
            raise UsageError(f"cannot read {path}: {error.strerror or error}") from None
        except (ValidationError, ValueError) as error:
            raise UsageError(
                f"{path} is not a spade-eval results file ({str(error).splitlines()[0]})"
            ) from None
        paths.append(path)
    if args.label and len(args.label) != len(documents):
        raise UsageError(f"--label was given {len(args.label)} time(s) for {len(documents)} results file(s)")
    labels = labels_for(documents, paths, args.label)
    try:
        written = write_report(documents, args.out, paths, labels)
    except OSError as error:
        raise UsageError(f"cannot write the report to {args.out}: {error.strerror or error}") from None
    Screen.of(out).markdown(render_markdown(documents, labels))
    out.writelines(f"wrote {path}\n" for path in written)
    return EXIT_OK


def cmd_list(args: argparse.Namespace, out: TextIO) -> int:
    suites = SUITES if args.suite == ALL else (args.suite,)
    settings = EvalSettings()
    rows: list[list[str]] = []
    for suite in suites:
        try:
            entries = select(suite)
        except RegistryError as error:
            rows.append([suite, "-", "", f"unavailable: {error}"])
            continue
        for entry in entries:
            benchmark = entry.factory(settings)
            s = benchmark.sampling
            top_k = f" top-k={s.top_k}" if s.top_k else ""
            rows.append([suite, entry.name, f"{benchmark.samples:>7}",  # right-aligned under "samples"
                         f"T={s.temperature:g} top-p={s.top_p:g}{top_k} max-tokens={s.max_tokens}"])
    Screen.of(out).table(("suite", "benchmark", "samples", "sampling"), rows)
    return EXIT_OK


def cmd_serve(args: argparse.Namespace, out: TextIO) -> int:
    from spade_train.policies.serve import PolicyServer
    from spade_train.run.progress import quiet_transformers

    if not 0 <= args.port <= 65535:
        raise UsageError("--port must be in 0..65535")
    quiet_transformers()
    model = _load(args.model, args)
    try:
        server = PolicyServer(model.policy, port=args.port, model_name=args.name or _slug(model.name))
    except OSError as error:
        raise UsageError(f"cannot listen on 127.0.0.1:{args.port}: {error.strerror or error}") from None
    out.write(f"serving {server.model_name} at {server.url} (policy spec: {server.spec}); Ctrl-C stops\n")
    out.flush()
    server.serve_forever()
    return EXIT_OK


def main(argv: Sequence[str] | None = None, out: TextIO | None = None, err: TextIO | None = None) -> int:
    stream = out or sys.stdout
    progress = err or sys.stderr

    def body() -> int:
        args = build_parser().parse_args(argv)
        if args.command == "run":
            return cmd_run(args, stream, progress)
        if args.command == "report":
            return cmd_report(args, stream)
        if args.command == "serve":
            return cmd_serve(args, stream)
        if args.command == "schema":
            return schema_command(args.out, args.check, stream, program=PROG, models=RESULTS_SCHEMA_MODELS)
        return cmd_list(args, stream)

    return run_command(PROG, body)


if __name__ == "__main__":
    sys.exit(main())
