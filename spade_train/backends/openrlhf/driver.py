"""The process that runs a SPADE training job on the Ray cluster (local or submitted as a Ray job).

``python -m spade_train.backends.openrlhf.driver --run-dir DIR [--resume] -- <train_ppo_ray flags>``:

1. checks the flags against the OpenRLHF installed on this node (a one-line error, before any GPU work);
2. joins (or starts) Ray with the runtime environment OpenRLHF itself would set;
3. starts the run's shared-state actor (preferably on this node), with ``--resume`` restored from the
   shared-state checkpoint of the step OpenRLHF's own checkpoint restarts from (``state/steps/step-N``);
4. runs ``openrlhf.cli.train_ppo_ray`` as ``__main__`` in this process (it reuses the Ray connection);
5. at the end, checkpoints the shared state and exports the memory's valid environments to ``DIR/pool``.

The W&B key is read here from the variable ``--wandb-key-env`` names and handed to the job's workers as
``WANDB_API_KEY`` in its Ray runtime environment, which is where W&B looks first. OpenRLHF only turns
W&B on when ``--logger.wandb.key`` is set, so that flag carries ``WANDB_KEY_PLACEHOLDER``, never the
key: the key is in no command line, in none of the arguments OpenRLHF prints, and in no W&B config.
"""

from __future__ import annotations

import argparse
import json
import os
import runpy
import sys
from collections.abc import Sequence
from pathlib import Path

from spade_envs.cliutil import EXIT_OK, OneLineParser, UsageError, run_command
from spade_train.backends.openrlhf.checkpoints import model_checkpoint_step
from spade_train.backends.openrlhf.command import (
    OPENRLHF_VERSION,
    TRAIN_MODULE,
    RunPaths,
    agent_executor_path,
    installed_train_script,
    parser_flags,
    unknown_flags,
)
from spade_train.backends.openrlhf.resources import ReservationError, release, reserve_engine_cpus
from spade_train.backends.openrlhf.shared_state import StateError
from spade_train.backends.openrlhf.stops import RunStopped, engine_loss, stop_cause
from spade_train.config import ConfigError, RunConfig, parse_run_config

WANDB_KEY_PLACEHOLDER = "from-environment-WANDB_API_KEY"
"""What ``--logger.wandb.key`` says: W&B reads the real key from ``WANDB_API_KEY`` and skips its login."""
RAY_ENV_DEFAULTS = {"TOKENIZERS_PARALLELISM": "true", "NCCL_DEBUG": "WARN", "RAY_ENABLE_ZERO_COPY_TORCH_TENSORS": "1"}
"""The worker environment ``train_ppo_ray`` passes to ``ray.init`` when it starts Ray itself."""


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(prog="spade-openrlhf-driver", description="Run a SPADE job on Ray (see the module doc).")
    parser.add_argument("--run-dir", required=True, type=Path)
    parser.add_argument("--resume", action="store_true")
    parser.add_argument("--wandb-key-env", metavar="VAR")
    return parser


def split_arguments(argv: Sequence[str]) -> tuple[list[str], list[str]]:
    """(the driver's own arguments, the train_ppo_ray flags after ``--``)."""
    arguments = list(argv)
    if "--" not in arguments:
        raise UsageError('pass the train_ppo_ray flags after -- (spade-train run builds them for run.backend = "openrlhf")')
    cut = arguments.index("--")
    return arguments[:cut], arguments[cut + 1:]


def main(argv: Sequence[str] | None = None) -> int:
    def body() -> int:
        own, flags = split_arguments(sys.argv[1:] if argv is None else argv)
        args = build_parser().parse_args(own)
        try:
            config = parse_run_config(json.loads((args.run_dir / "config.json").read_text(encoding="utf-8")),
                                      source=str(args.run_dir / "config.json"))
        except (OSError, ValueError, ConfigError) as error:
            raise UsageError(f"cannot read the run's configuration: {error}") from None
        script = installed_train_script()
        if script is None:
            raise UsageError(f"OpenRLHF is not installed on this node: pip install --no-deps openrlhf=={OPENRLHF_VERSION} "
                             "and its dependencies (see docs/guides/openrlhf.md)")
        unknown = unknown_flags(flags, parser_flags(script))
        if unknown:
            raise UsageError(f"the OpenRLHF on this node has no flag {', '.join(unknown)}; "
                             f"install openrlhf=={OPENRLHF_VERSION}")
        flags = with_local_executor(flags)
        secrets: dict[str, str] = {}
        if args.wandb_key_env:
            key = os.environ.get(args.wandb_key_env)
            if not key:
                raise UsageError(f"openrlhf.logger = \"wandb\" but {args.wandb_key_env} is not set on this node")
            secrets["WANDB_API_KEY"] = key
            flags += ["--logger.wandb.key", WANDB_KEY_PLACEHOLDER]
        return train(config, args.run_dir.resolve(), flags, script=script, resume=args.resume, secrets=secrets)

    return run_command("spade-openrlhf-driver", body, interrupted="interrupted; the shared state is in the run directory")


def with_local_executor(flags: list[str]) -> list[str]:
    """The flags with ``--train.agent_func_path`` naming this node's copy of the executor file.

    The launcher writes the path of its own installation; on a cluster the package may be installed
    elsewhere. The rollout engines must see the same path (nodes share one installation layout).
    """
    flags = list(flags)
    local = str(agent_executor_path())
    if "--train.agent_func_path" in flags:
        flags[flags.index("--train.agent_func_path") + 1] = local
    else:
        flags += ["--train.agent_func_path", local]
    return flags


def train(config: RunConfig, run_dir: Path, flags: list[str], *, script: Path, resume: bool,
          secrets: dict[str, str] | None = None, module: str = TRAIN_MODULE) -> int:
    """Start (or join) Ray, the shared state and OpenRLHF's trainer (``module``); ``secrets`` become
    environment variables of the job's workers (and of this process, which OpenRLHF's trainer may share).

    A rollout that stops the run (``stops.RunStopped``) reaches OpenRLHF's trainer as a Ray task error, and
    so does the death of a rollout engine or another actor of the job (``stops.engine_loss``); either ends
    the job here in one line, with its cause and where to resume from. Before the trainer starts, the
    engines' CPUs are reserved on the GPU nodes (``resources.reserve_engine_cpus``)."""
    import ray

    from spade_envs.cluster.trap_handlers import init_ray
    from spade_train.backends.openrlhf.ray_actor import finish_state, start_state_actor

    secrets = dict(secrets or {})
    os.environ.update(secrets)
    if not ray.is_initialized():
        env_vars = {name: os.environ.get(name, default) for name, default in RAY_ENV_DEFAULTS.items()}
        init_ray(runtime_env={"env_vars": {**env_vars, **secrets}})
    restore = model_checkpoint_step(RunPaths(run_dir).checkpoints) if resume else None
    try:
        state = start_state_actor(config, run_dir, restore=restore)
    except StateError as error:
        raise UsageError(str(error)) from None
    if restore is not None:
        print(f"spade: resuming the shared state at step {restore}, where the model's checkpoint is", flush=True)
    holders: list[object] = []
    sys.argv = [str(script), *flags]
    try:
        holders = reserve_engine_cpus(config)
        runpy.run_module(module, run_name="__main__", alter_sys=True)
    except ReservationError as error:
        raise UsageError(str(error)) from None
    except Exception as error:
        cause = stop_cause(error) or engine_loss(error)
        if cause is None:
            raise
        raise RunStopped(f"the run stopped: {cause}; {resume_advice(run_dir)}") from None
    finally:
        release(holders)
        exported = finish_state(state, config.openrlhf.state_timeout_s)
        if exported is None:
            print(f"spade: the shared state did not finish; its last checkpoint is in {run_dir / 'state'}", flush=True)
        else:
            print(f"spade: {exported} valid environments exported to {run_dir / 'pool'}", flush=True)
    return EXIT_OK


def resume_advice(run_dir: Path) -> str:
    """Where a stopped run resumes from: the model's latest checkpoint, with the shared state saved beside it."""
    step = model_checkpoint_step(RunPaths(run_dir).checkpoints)
    if step == 0:
        return "no model checkpoint was saved yet: start the run again"
    return (f"resume from the model's checkpoint at step {step}, with the shared state saved beside it in "
            f"{run_dir / 'state' / 'steps' / f'step-{step}'}: run the same spade-train run command with --resume")


if __name__ == "__main__":
    sys.exit(main())
