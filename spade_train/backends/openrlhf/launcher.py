"""``spade-train run`` with ``run.backend = "openrlhf"``: write the run's data, build the command, submit it.

``prepare_run`` writes ``config.json`` (the resolved configuration, which the driver reads) and the
role-tagged prompt rows, and builds the ``train_ppo_ray`` arguments. ``run_openrlhf`` then checks every
flag against the installed OpenRLHF (when it is installed here; the driver checks again where it runs),
and either prints the command (``--dry-run``), runs the driver here (Ray starts locally), or submits it
as a Ray job to ``--address``.

The run directory must be on storage every node mounts at the same path: OpenRLHF writes checkpoints
from every rank and the rollout engines read the prompt data, as in any OpenRLHF run.
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from spade_envs.errors import SpadeError
from spade_envs.fileio import write_atomically
from spade_train.backends.openrlhf.command import (
    OPENRLHF_VERSION,
    RunPaths,
    installed_train_script,
    installed_version,
    parser_flags,
    train_flags,
    unknown_flags,
)
from spade_train.backends.openrlhf.data import RowCounts, plan_rows, write_prompt_data
from spade_train.backends.openrlhf.ray_actor import NAMESPACE, state_actor_name
from spade_train.backends.openrlhf.resources import resources_line
from spade_train.backends.openrlhf.shared_state import STATE_DIR
from spade_train.backends.openrlhf.sizing import kv_sizing
from spade_train.config.sections import RunConfig
from spade_train.release_prompts import prompts_line

DRIVER_MODULE = "spade_train.backends.openrlhf.driver"
REMOTE_PYTHON = "python"
"""The interpreter named in a submitted job's entrypoint (the cluster's environment decides which)."""


class LaunchError(SpadeError):
    """A run that cannot start as asked; the message is one line naming the fix."""


@dataclass(frozen=True)
class LaunchPlan:
    config: RunConfig
    paths: RunPaths
    actor_name: str
    rows: RowCounts
    train_flags: list[str]
    resume: bool

    def driver_command(self, python: str) -> list[str]:
        command = [python, "-m", DRIVER_MODULE, "--run-dir", str(self.paths.run_dir)]
        if self.resume:
            command.append("--resume")
        if self.config.openrlhf.logger == "wandb":
            command += ["--wandb-key-env", self.config.openrlhf.wandb_key_env]
        return [*command, "--", *self.train_flags]


def has_started(paths: RunPaths) -> bool:
    """A run has started once its shared state or OpenRLHF checkpoints exist (a dry run leaves neither)."""
    return (paths.run_dir / STATE_DIR).exists() or paths.checkpoints.exists()


def with_absolute_paths(config: RunConfig) -> RunConfig:
    """The configuration with its file paths (pools, corpus) made absolute from this directory.

    The driver may run elsewhere (a Ray job's working directory); absolute paths mean the same file on
    every node that mounts it at the same place.
    """
    section, loop = config.openrlhf, config.loop
    updates = {}
    if section.fixed_pool:
        updates["fixed_pool"] = str(Path(section.fixed_pool).resolve())
    if section.seed_pool != "bundled":
        updates["seed_pool"] = str(Path(section.seed_pool).resolve())
    corpus = loop.corpus
    if corpus != "demo" and not corpus.startswith("hf:"):
        corpus = str(Path(corpus).resolve())
    return config.model_copy(update={"openrlhf": section.model_copy(update=updates),
                                     "loop": loop.model_copy(update={"corpus": corpus})})


def prepare_run(config: RunConfig, out: Path, *, resume: bool) -> LaunchPlan:
    """Write ``config.json`` and the prompt rows into ``out``; nothing else is created."""
    config = with_absolute_paths(config)
    paths = RunPaths(out.resolve())
    if resume and not has_started(paths):
        raise LaunchError(f"--resume: {out} holds no started OpenRLHF run; drop --resume to start one")
    if not resume and has_started(paths):
        raise LaunchError(f"{out} already holds a started run; pass --resume to continue it or choose another --out")
    try:
        paths.work.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise LaunchError(f"cannot create {out}: {error.strerror or error}") from None
    write_atomically(paths.config, json.dumps(json.loads(config.model_dump_json()), indent=2, sort_keys=True) + "\n")
    name = state_actor_name(paths.run_dir)
    rows = write_prompt_data(paths.data, plan_rows(config, actor=name, namespace=NAMESPACE))
    return LaunchPlan(config=config, paths=paths, actor_name=name, rows=rows,
                      train_flags=train_flags(config, paths, resume=resume), resume=resume)


def check_installed_flags(flags: list[str]) -> tuple[str, list[str]] | None:
    """(version, unknown flags) against the installed OpenRLHF, or None when it is not installed here."""
    script = installed_train_script()
    if script is None:
        return None
    return installed_version() or "unknown", unknown_flags(flags, parser_flags(script))


def format_command(argv: list[str]) -> str:
    """A shell command, one flag and its values per line."""
    lines: list[list[str]] = [[]]
    for argument in argv:
        if argument.startswith("--") and lines[-1]:
            lines.append([])
        lines[-1].append(shlex.quote(argument))
    return " \\\n    ".join(" ".join(line) for line in lines)


def importance_line(config: RunConfig) -> str:
    """What the trained rows' log-probs are against the trainer's, for the dry run.

    OpenRLHF asks vLLM for processed log-probs (after top-k/top-p) whenever importance correction is on, and
    its trainer recomputes log-probs at the rollout temperature alone; the two agree only when nothing is
    truncated (``semantics.trained_sampling``).
    """
    if config.openrlhf.importance_correction == "off":
        return "importance correction off: the trainer does not read the engines' log-probs"
    truncation = config.sampling.truncation()
    if not truncation:
        return (f"log-probs: trained rows sample at temperature {config.sampling.temperature} alone, so vLLM's "
                "log-probs are the distribution the trainer recomputes")
    return (f"log-probs: trained rows sample with {', '.join(truncation)} (trained_sampling \"truncated\", the "
            "release's); vLLM returns the truncated distribution's log-probs, the trainer recomputes at the "
            "temperature alone: importance ratios sit below 1 by the mass cut away")


def run_openrlhf(config: RunConfig, out: Path, *, resume: bool, dry_run: bool, address: str | None,
                 stream: TextIO) -> int:
    plan = prepare_run(config, out, resume=resume)
    stream.write(f"wrote {plan.paths.data}: {plan.rows.total} rows ({plan.rows.designer} designer, "
                 f"{plan.rows.agent} agent), {plan.config.openrlhf.n_samples_per_prompt} samples each\n")
    checked = check_installed_flags(plan.train_flags)
    if checked is None:
        stream.write(f"OpenRLHF is not installed here: flags not checked (the driver checks them where it runs; "
                     f"pinned version {OPENRLHF_VERSION})\n")
    else:
        version, unknown = checked
        if unknown:
            raise LaunchError(f"the installed OpenRLHF {version} has no flag {', '.join(unknown)}; "
                              f"install openrlhf=={OPENRLHF_VERSION} or fix openrlhf.extra_flags")
        note = "" if version == OPENRLHF_VERSION else f" (this code is tested with {OPENRLHF_VERSION})"
        stream.write(f"all {sum(f.startswith('--') for f in plan.train_flags)} flags exist in the installed "
                     f"OpenRLHF {version}{note}\n")
    sizing = kv_sizing(plan.config)
    stream.write((sizing.line() if sizing is not None else
                  f"KV cache per engine: not estimated (the shape of {plan.config.model.path} is not known here; a "
                  "local model directory's config.json gives it)") + "\n")
    stream.write(importance_line(plan.config) + "\n")
    stream.write(resources_line(plan.config) + "\n")
    prompts = prompts_line(plan.config.semantics.release_dir, plan.config.semantics.mode)
    if prompts is not None:
        stream.write(prompts + "\n")
    section = plan.config.openrlhf
    if section.environments == "fixed" and not Path(str(section.fixed_pool)).is_dir():
        stream.write(f"note: the fixed pool {section.fixed_pool} is not a directory here; it must exist where the "
                     "driver runs\n")
    if dry_run:
        python = REMOTE_PYTHON if address else sys.executable
        command = format_command(plan.driver_command(python))
        if address:
            command = f"ray job submit --address {shlex.quote(address)} -- \\\n    {command}"
        stream.write(f"command (dry run, nothing started):\n{command}\n")
        return 0
    if address:
        return _submit(plan, address, stream)
    stream.write(f"starting Ray locally; run directory {plan.paths.run_dir}\n")
    stream.flush()
    return subprocess.call(plan.driver_command(sys.executable))


def _submit(plan: LaunchPlan, address: str, stream: TextIO) -> int:
    try:
        from ray.job_submission import JobSubmissionClient
    except ImportError:
        raise LaunchError('submitting to a Ray cluster needs Ray: pip install "spade-toolkit[openrlhf]"') from None
    try:
        client = JobSubmissionClient(address)
        job = client.submit_job(entrypoint=shlex.join(plan.driver_command(REMOTE_PYTHON)),
                                metadata={"spade_run": str(plan.paths.run_dir)})
    except Exception as error:  # noqa: BLE001 - any failure to reach the cluster is one line for the user
        raise LaunchError(f"could not submit to the Ray cluster at {address}: {error}") from None
    stream.write(f"submitted job {job} to {address}; follow it with: ray job logs --follow --address "
                 f"{shlex.quote(address)} {job}\n")
    return 0
