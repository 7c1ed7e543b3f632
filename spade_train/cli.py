"""``spade-train``: SPADE self-play from the command line.

``generate-pool`` runs the loop for inference only (designer -> checker -> hints -> rollouts -> regret
-> memory) against any model endpoint and leaves a scored environment pool in the run directory.
``run --config FILE`` trains: the embedded CPU backend by default (``configs/embedded.toml``), or
OpenRLHF on a Ray cluster (``--backend openrlhf``, ``configs/recipes/``; ``--dry-run`` writes the data
and prints the command, ``--address`` submits to a remote cluster).

Exit codes: 0 done, 1 the run failed, 2 bad usage (one line, no traceback).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from spade_envs.checks.batch import default_jobs
from spade_envs.checks.validate import ValidatorConfig
from spade_envs.cli import schema_command
from spade_envs.cliutil import EXIT_OK, OneLineParser, UsageError, run_command
from spade_envs.fuzz.runner import FuzzConfig
from spade_envs.runtime.backend import backend_names, create_backend
from spade_envs.runtime.limits import ExecutionLimits
from spade_train.corpus import Corpus, CorpusError
from spade_train.designer.skills import ENV_KINDS, default_skills_for
from spade_train.loop import LoopConfig, SelfPlayLoop
from spade_train.memory import EnvironmentMemory
from spade_train.plots import plot_metrics
from spade_train.policies.base import Policy, SamplingParams
from spade_train.policies.factory import create_policy
from spade_train.progress import progress_bar
from spade_train.rewards import VARIANTS, DesignerRewardConfig
from spade_train.rollout import RolloutConfig
from spade_train.run_config import (
    TRAIN_SCHEMA_MODELS,
    ConfigError,
    RunConfig,
    load_run_config,
    parse_run_config,
)
from spade_train.run_dir import RunDirectory


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(prog="spade-train", description="SPADE self-play: designer, hints, regret, memory.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=OneLineParser)
    pool = commands.add_parser("generate-pool", help="inference-only self-play that leaves a scored pool")
    pool.add_argument("--designer", required=True, metavar="SPEC",
                      help="model for the designer: openai:URL#model, hf:PATH or vllm:PATH")
    pool.add_argument("--agent", metavar="SPEC", help="model for the agent (default: the designer's)")
    pool.add_argument("--hinter", metavar="SPEC", help="model that writes hints (default: the designer's)")
    pool.add_argument("--api-key-env", metavar="VAR", help="environment variable holding the endpoint's API key")
    pool.add_argument("--out", required=True, type=Path, help="run directory")
    pool.add_argument("--iterations", type=int, default=1, help="self-play iterations (default 1)")
    pool.add_argument("--envs", type=int, default=24, help="designs per iteration (default 24)")
    pool.add_argument("--episodes", type=int, default=16, help="K: episodes with and without the hint (16)")
    pool.add_argument("--kinds", default="multi_turn_game", help=f"comma-separated, from: {', '.join(ENV_KINDS)}")
    pool.add_argument("--corpus", default="demo", help="JSONL/Parquet path, hf:DATASET, demo, or none")
    pool.add_argument("--reward", default="blend", choices=VARIANTS, help="designer reward variant (default blend)")
    pool.add_argument("--repair-turns", type=int, default=0,
                      help="designer turns fed with the checker's feedback after a failed design (default 0)")
    pool.add_argument("--max-turns", type=int, default=25, help="turn limit of every episode (default 25)")
    pool.add_argument("--designer-max-tokens", type=int, default=16384, help="per designer reply (default 16384)")
    pool.add_argument("--agent-max-tokens", type=int, default=8192, help="per agent turn (default 8192)")
    pool.add_argument("--temperature", type=float, default=0.6, help="sampling temperature, both roles (0.6)")
    pool.add_argument("--fuzz-examples", type=int, default=50,
                      help="Hypothesis examples per design in the checker's fuzz tier (default 50; 0 skips it)")
    pool.add_argument("--sandbox", default="wasm", choices=backend_names(),
                      help="where designed environments run (default wasm; inprocess only for trusted code)")
    pool.add_argument("--no-memory", action="store_true", help="ablation: no memory examples in prompts")
    pool.add_argument("--validation-workers", type=int, default=-1,
                      help="processes that validate designs (default: one per core; 0: in this process)")
    pool.add_argument("--seed", type=int, default=0, help="seed of planning, corpus sampling and rollouts (0)")

    run = commands.add_parser("run", help="self-play training from a configuration file")
    run.add_argument("--config", required=True, type=Path, help="TOML or JSON run configuration (see configs/)")
    run.add_argument("--out", required=True, type=Path, help="run directory")
    run.add_argument("--resume", action="store_true",
                     help="continue the run in --out from its latest checkpoint")
    run.add_argument("--iterations", type=int, help="override run.iterations")
    run.add_argument("--sandbox", choices=backend_names(), help="override run.sandbox")
    run.add_argument("--backend", choices=("embedded", "openrlhf"), help="override run.backend")
    run.add_argument("--dry-run", action="store_true",
                     help="openrlhf: write the run's data and print the command without starting anything")
    run.add_argument("--address", metavar="ADDR",
                     help="openrlhf: submit to this Ray cluster (e.g. http://head:8265) instead of running here")

    schema = commands.add_parser("schema", help="write the JSON Schema of the run configuration file")
    schema.add_argument("--out", type=Path, default=Path("schemas"), help="directory (default: schemas)")
    schema.add_argument("--check", action="store_true", help="only report whether the file is stale")
    return parser


def _policy(spec: str, api_key: str | None) -> Policy:
    options = {"api_key": api_key} if api_key and spec.startswith("openai:") else {}
    try:
        return create_policy(spec, **options)
    except (ValueError, ImportError) as error:
        raise UsageError(str(error).splitlines()[0]) from None


def loop_config_from_args(args: argparse.Namespace) -> LoopConfig:
    kinds = tuple(k.strip() for k in args.kinds.split(",") if k.strip())
    unknown = [k for k in kinds if k not in ENV_KINDS]
    if unknown or not kinds:
        raise UsageError(f"unknown --kinds {', '.join(unknown) or '(empty)'}; choose from {', '.join(ENV_KINDS)}")
    for name in ("iterations", "envs", "episodes"):
        if getattr(args, name) < 1:
            raise UsageError(f"--{name} must be at least 1")
    skills = tuple(dict.fromkeys(s for kind in kinds for s in default_skills_for(kind)))
    return LoopConfig(
        envs_per_iteration=args.envs, kinds=kinds, skills=skills, max_turns=args.max_turns,
        designer_sampling=SamplingParams(temperature=args.temperature, max_tokens=args.designer_max_tokens),
        repair_turns=args.repair_turns,
        validation=ValidatorConfig(fuzz=FuzzConfig(examples=max(1, args.fuzz_examples)),
                                   tiers=("static", "contract", "feasibility", "fuzz") if args.fuzz_examples
                                   else ("static", "contract", "feasibility")),
        rollout=RolloutConfig(episodes_per_condition=args.episodes, seed=args.seed,
                              sampling=SamplingParams(temperature=args.temperature,
                                                      max_tokens=args.agent_max_tokens)),
        rewards=DesignerRewardConfig(variant=args.reward), use_corpus=args.corpus != "none",
        use_memory=not args.no_memory, seed=args.seed,
        validation_workers=args.validation_workers if args.validation_workers >= 0 else default_jobs(8),
    )


async def generate_pool(
    run: RunDirectory,
    config: LoopConfig,
    *,
    designer: Policy,
    agent: Policy,
    hinter: Policy,
    corpus: Corpus | None,
    sandbox: str,
    iterations: int,
    out: TextIO,
) -> int:
    """Run ``iterations`` inference-only iterations; leaves metrics, memory, pool and plots in ``run``."""
    run.write_config({"loop": config, "iterations": iterations, "sandbox": sandbox,
                      "designer": designer.name, "agent": agent.name, "hinter": hinter.name})
    backend = create_backend(sandbox, ExecutionLimits())
    with EnvironmentMemory(run.memory_path) as memory:
        loop = SelfPlayLoop(designer=designer, agent=agent, hinter=hinter, backend=backend, memory=memory,
                            corpus=corpus, config=config)
        start = len(run.metrics())
        progress = progress_bar(out, iterable=range(start + 1, start + iterations + 1), desc="self-play", unit="iter")
        for step in progress:
            result = await loop.run_iteration(step)
            row = run.record(result)
            progress.set_postfix(valid=f"{row['valid_rate']:.2f}", regret=f"{row['regret_mean']:.3f}",
                                 win=f"{row['win_rate_unhinted']:.2f}", refresh=False)
        loop.close()
        manifest = memory.export_pool(run.pool_path, f"spade-{run.path.name}")
    plot = plot_metrics(run.metrics(), run.plot_path, title=f"spade-train generate-pool: {run.path.name}")
    out.write(f"\n{len(manifest.entries)} valid environments exported to {run.pool_path}\n")
    if plot is not None:
        out.write(f"learning curves: {plot}\n")
    return EXIT_OK


def train_run(args: argparse.Namespace, out: TextIO) -> int:
    """``spade-train run``: load and check everything a run needs before any work starts."""
    try:
        config = load_run_config(args.config)
    except ConfigError as error:
        raise UsageError(str(error)) from None
    overrides: dict[str, object] = {}
    if args.iterations is not None:
        if args.iterations < 1:
            raise UsageError("--iterations must be at least 1")
        overrides["iterations"] = args.iterations
    if args.sandbox is not None:
        overrides["sandbox"] = args.sandbox
    if args.backend is not None:
        overrides["backend"] = args.backend
    if overrides:
        raw = json.loads(config.model_dump_json())
        raw["run"].update(overrides)
        try:  # validated again: the backend decides which settings must agree
            config = parse_run_config(raw, source=f"{args.config} with the command line's overrides")
        except ConfigError as error:
            raise UsageError(str(error)) from None
    if config.run.backend == "openrlhf":
        return _run_openrlhf(config, args, out)
    if args.dry_run or args.address:
        raise UsageError("--dry-run and --address are for the openrlhf backend; add --backend openrlhf")
    if config.model.path is not None and not Path(config.model.path).is_dir():
        raise UsageError(f"model.path {config.model.path} is not a directory; point it at a local transformers "
                         "checkpoint (models are never downloaded at run time)")
    if args.resume and not (args.out / "checkpoints").is_dir():
        raise UsageError(f"--resume: {args.out} has no checkpoints to resume from; drop --resume to start a run")
    if not args.resume and (args.out / "metrics.jsonl").exists():
        raise UsageError(f"{args.out} already holds a run; pass --resume to continue it or choose another --out")
    try:
        run = RunDirectory(args.out)
    except OSError as error:
        raise UsageError(f"cannot create {args.out}: {error.strerror or error}") from None
    run.write_config(json.loads(config.model_dump_json()))
    from spade_train.embedded.trainer import EmbeddedRun

    asyncio.run(EmbeddedRun(config, run, out).train(resume=args.resume))
    return EXIT_OK


def _run_openrlhf(config: RunConfig, args: argparse.Namespace, out: TextIO) -> int:
    """The OpenRLHF backend: data, command, submission (``spade_train.backends.openrlhf.launcher``)."""
    from spade_train.backends.openrlhf.launcher import LaunchError, run_openrlhf

    try:
        return run_openrlhf(config, args.out, resume=args.resume, dry_run=args.dry_run, address=args.address,
                            stream=out)
    except LaunchError as error:
        raise UsageError(str(error)) from None


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    stream = out or sys.stdout

    def body() -> int:
        args = build_parser().parse_args(argv)
        if args.command == "run":
            return train_run(args, stream)
        if args.command == "schema":
            return schema_command(args.out, args.check, stream, program="spade-train", models=TRAIN_SCHEMA_MODELS)
        config = loop_config_from_args(args)
        api_key = os.environ.get(args.api_key_env) if args.api_key_env else None
        if args.api_key_env and api_key is None:
            raise UsageError(f"--api-key-env names {args.api_key_env}, which is not set")
        designer = _policy(args.designer, api_key)
        agent = _policy(args.agent, api_key) if args.agent else designer
        hinter = _policy(args.hinter, api_key) if args.hinter else designer
        try:
            corpus = None if args.corpus == "none" else Corpus.load(args.corpus, seed=args.seed)
        except CorpusError as error:
            raise UsageError(str(error)) from None
        if corpus is None and "corpus_grounded" in config.kinds:
            raise UsageError("corpus_grounded environments need a corpus; pass --corpus PATH or demo")
        try:
            run = RunDirectory(args.out)
        except OSError as error:
            raise UsageError(f"cannot create {args.out}: {error.strerror or error}") from None
        return asyncio.run(generate_pool(run, config, designer=designer, agent=agent, hinter=hinter,
                                         corpus=corpus, sandbox=args.sandbox, iterations=args.iterations,
                                         out=stream))

    return run_command("spade-train", body,
                       interrupted="interrupted; finished iterations are in the run directory")


if __name__ == "__main__":
    sys.exit(main())
