"""``spade-train``: SPADE self-play from the command line. Both commands read a run configuration file
(``configs/``) with ``--set key=value`` overrides, and both are ``SelfPlayRun``:

``run --config FILE`` trains: the embedded CPU backend by default (``configs/embedded.toml``), or OpenRLHF
on a Ray cluster (``run.backend = "openrlhf"``, ``configs/recipes/``; ``--dry-run`` writes the data and
prints the command, ``--address`` submits to a remote cluster).

``generate-pool --config FILE`` runs the same loop for inference only (designer -> checker -> hints ->
rollouts -> regret -> memory) with the models ``[policies]`` names (any OpenAI-compatible endpoint, a
local checkpoint, vLLM) and leaves a scored environment pool in the run directory.

``probe RUN_DIR`` holds a run's final agent fixed and compares its designers' designs (the final model's,
the post-warm-up model's) with uniformly chosen valid ones (``spade_train/run/probe.py``); ``run`` does it
at the end (``probe.at_end``).

Exit codes: 0 done, 1 the run failed, 2 bad usage; either error is one line, without a traceback.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from spade_envs.cli import schema_command
from spade_envs.cliutil import EXIT_OK, OneLineParser, UsageError, run_command
from spade_train.config import TRAIN_SCHEMA_MODELS, RunConfig, load_run_config
from spade_train.run.directory import RunDirectory

SET_HELP = ("override a setting of the file, e.g. --set run.iterations=3 or --set loop.kinds='[\"tool_use\"]' "
            "(the value is TOML; repeat --set for several)")


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(prog="spade-train", description="SPADE self-play: designer, hints, regret, memory.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=OneLineParser)
    run = commands.add_parser("run", help="self-play training from a configuration file")
    pool = commands.add_parser("generate-pool", help="inference-only self-play that leaves a scored pool")
    for command in (run, pool):
        command.add_argument("--config", required=True, type=Path, help="TOML or JSON run configuration (see configs/)")
        command.add_argument("--out", required=True, type=Path, help="run directory")
        command.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE",
                             help=SET_HELP)
        command.add_argument("--resume", action="store_true", help="continue the run in --out from its latest checkpoint "
                             "(every file it reads is checked first; a missing or damaged one is refused)")
        command.add_argument("--repair", action="store_true",
                             help="with --resume: restore missing or damaged history files and the memory from the "
                             "checkpoint's copies, and say what was restored")
        command.add_argument("--logger", choices=("none", "tensorboard"),
                             help="also write each iteration's metrics as TensorBoard events to --out/tensorboard "
                             "(the same as --set run.logger=\"tensorboard\"; default: the file's run.logger)")
    run.add_argument("--dry-run", action="store_true",
                     help="openrlhf: write the run's data and print the command without starting anything")
    run.add_argument("--address", metavar="ADDR",
                     help="openrlhf: submit to this Ray cluster (e.g. http://head:8265) instead of running here")

    pre = commands.add_parser("pretrain", help="pretrain a tiny designer on generated environment programs "
                              "([pretraining]) and measure what it writes")
    pre.add_argument("--config", required=True, type=Path, help="TOML or JSON run configuration (its [pretraining], "
                     "run.seed, run.sandbox and checker settings are read)")
    pre.add_argument("--out", required=True, type=Path, help="a new directory: the model, its tokenizer and "
                     "pretrain.json go there")
    pre.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE", help=SET_HELP)
    pre.add_argument("--samples", type=int, default=12, help="programs sampled and checked at the end (default 12)")

    probe = commands.add_parser("probe", help="the designer probe of a run: its designers' designs at its final agent")
    probe.add_argument("run_dir", type=Path, metavar="RUN_DIR", help="a run directory of spade-train run")
    probe.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE",
                       help="override a setting of the run's config.json, e.g. --set probe.designer_samples=96")
    probe.add_argument("--json", action="store_true", help="print the report as JSON (it is written to probe-N.json "
                       "either way)")

    schema = commands.add_parser("schema", help="write the JSON Schema of the run configuration file")
    schema.add_argument("--out", type=Path, default=Path("schemas"), help="directory (default: schemas)")
    schema.add_argument("--check", action="store_true", help="only report whether the file is stale")
    return parser


def config_source(args: argparse.Namespace) -> str:
    """The configuration as the command line gave it: the file's name and each override."""
    return " ".join([args.config.name, *(f"--set {item}" for item in args.overrides)])


def train(config: RunConfig, args: argparse.Namespace, out: TextIO) -> int:
    """``spade-train run``: the configured backend trains the model in every role."""
    if any(getattr(config.policies, role) for role in ("designer", "agent", "hinter")):
        raise UsageError("[policies] names the models of generate-pool; spade-train run trains [model] in every "
                         "role: remove policies.* or run generate-pool")
    if config.run.backend == "openrlhf":
        if args.repair:
            raise UsageError("--repair is for the embedded backend's run directory; an OpenRLHF run resumes from "
                             "its own state (drop --repair)")
        from spade_train.backends.openrlhf.launcher import run_openrlhf

        return run_openrlhf(config, args.out, resume=args.resume, dry_run=args.dry_run, address=args.address,
                            stream=out)
    if args.dry_run or args.address:
        raise UsageError("--dry-run and --address are for the openrlhf backend; add --set run.backend=openrlhf")
    if config.sampling.truncation():
        raise UsageError(f"sampling.{config.sampling.truncation()[0]} truncates what the embedded trainer's rows "
                         "are sampled from, and it recomputes their log-probs at the temperature alone, which "
                         "biases every importance ratio: drop it for spade-train run (generate-pool may keep it)")
    if config.model.path is not None and not Path(config.model.path).is_dir():
        raise UsageError(f"model.path {config.model.path} is not a directory; point it at a local transformers "
                         "checkpoint (models are never downloaded at run time)")
    directory = RunDirectory.open(args.out, resume=args.resume, repair=args.repair)
    from spade_envs.runtime.backend import create_backend
    from spade_envs.runtime.limits import ExecutionLimits
    from spade_train.backends.embedded.trainer import EmbeddedTrainer
    from spade_train.run.driver import SelfPlayRun

    backend = create_backend(config.run.sandbox, ExecutionLimits())
    trainer = EmbeddedTrainer.build(config, directory.checkpoints, backend, out)
    asyncio.run(SelfPlayRun(config, trainer.policies, trainer, directory=directory, out=out, backend=backend,
                            config_source=config_source(args)).run())
    if config.probe.at_end:
        from spade_train.run.probe import probe_run

        probe_run(args.out, config, out, backend=backend)
    return EXIT_OK


def probe(args: argparse.Namespace, out: TextIO) -> int:
    """``spade-train probe RUN_DIR``: the designer probe of a finished (or interrupted) run."""
    from spade_train.run.probe import next_probe_file, probe_run

    config_file = args.run_dir / "config.json"
    if not config_file.is_file():
        raise UsageError(f"{args.run_dir} holds no run (no config.json); give the --out of a spade-train run")
    probe_run(args.run_dir, load_run_config(config_file, args.overrides), out, file=next_probe_file(args.run_dir),
              as_json=args.json, progress=sys.stderr if args.json else None)
    return EXIT_OK


def generate_pool(config: RunConfig, args: argparse.Namespace, out: TextIO) -> int:
    """``spade-train generate-pool``: the same run with no trainer, played by ``[policies]``."""
    from spade_train.policies.roles import inference_policies
    from spade_train.run.driver import SelfPlayRun

    policies = inference_policies(config)
    directory = RunDirectory.open(args.out, resume=args.resume, repair=args.repair)
    asyncio.run(SelfPlayRun(config, policies, directory=directory, out=out, title="spade-train generate-pool",
                            config_source=config_source(args)).run())
    return EXIT_OK


def pretrain_designer(config: RunConfig, args: argparse.Namespace, out: TextIO) -> int:
    """``spade-train pretrain``: draw the program corpus, pretrain on it, save the model, check samples."""
    import json
    import shutil
    import time

    from spade_envs.checks.validate import validate_source
    from spade_envs.fileio import write_atomically
    from spade_envs.runtime.backend import create_backend
    from spade_envs.runtime.limits import ExecutionLimits
    from spade_train.backends.embedded.model import save_checkpoint_files
    from spade_train.pretraining.pretrain import check_samples, pretrain

    if args.samples < 0:
        raise UsageError("--samples must be 0 or more")
    if args.out.exists() and (not args.out.is_dir() or any(args.out.iterdir())):
        raise UsageError(f"{args.out} already holds files; choose a new --out")
    settings = config.pretraining
    started = time.perf_counter()

    def progress(step: int, loss: float) -> None:
        if step % 50 == 0 or step == settings.steps:
            out.write(f"pretraining step {step}/{settings.steps}: loss {loss:.3f}\n")
            out.flush()

    backend = create_backend(config.run.sandbox, ExecutionLimits())
    result = pretrain(settings, seed=config.run.seed, backend=backend, on_step=progress)
    seconds = time.perf_counter() - started
    staging = args.out.with_name(f".{args.out.name}.staging")
    shutil.rmtree(staging, ignore_errors=True)  # what a killed pretraining left
    save_checkpoint_files(result.model, result.tokenizer, staging / "model")
    validator = config.loop.validator(plan_salt=config.run.seed)
    checked = check_samples(result, settings, lambda code: validate_source(code, backend, config=validator),
                            count=args.samples, seed=config.run.seed)
    report = {"seed": config.run.seed, "settings": settings.model_dump(), "train_seconds": round(seconds, 1),
              "programs": len(result.corpus), "defective": sum(not p.valid for p in result.corpus),
              "loss_first": result.losses[0] if result.losses else None,
              "loss_last": result.losses[-1] if result.losses else None, "samples": checked.to_json()}
    write_atomically(staging / "pretrain.json", json.dumps(report, indent=1) + "\n")
    if args.out.exists():
        args.out.rmdir()
    staging.rename(args.out)
    out.write(f"pretrained on {len(result.corpus)} programs in {seconds:.0f} s; of {checked.samples} sampled "
              f"programs {checked.valid} passed the checker (verbatim copies of a corpus program: {checked.verbatim}); "
              f"model in {args.out / 'model'}, figures in {args.out / 'pretrain.json'}\n")
    return EXIT_OK


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    stream = out or sys.stdout

    def body() -> int:
        args = build_parser().parse_args(argv)
        if args.command == "schema":
            return schema_command(args.out, args.check, stream, program="spade-train", models=TRAIN_SCHEMA_MODELS)
        if args.command == "probe":
            return probe(args, stream)
        if args.command == "pretrain":
            return pretrain_designer(load_run_config(args.config, args.overrides), args, stream)
        overrides = [*args.overrides, *([f'run.logger="{args.logger}"'] if args.logger else [])]
        config = load_run_config(args.config, overrides)
        return (train if args.command == "run" else generate_pool)(config, args, stream)

    return run_command("spade-train", body,
                       interrupted="interrupted; finished iterations are in the run directory",
                       disk_refused_advice="rerun the same command with --resume (the last checkpoint is whole)")


if __name__ == "__main__":
    sys.exit(main())
