"""The one run driver: ``SelfPlayRun(config, policies, trainer=None).run()``.

Both commands are this driver. ``spade-train run`` gives it a trainer (the embedded GRPO backend,
``spade_train.backends.embedded.trainer``); ``spade-train generate-pool`` gives it none, so the models
only play. For each iteration the driver

1. lets the trainer prepare (``Trainer.begin_iteration``);
2. runs ``SelfPlayLoop.run_iteration`` (designs, checks, hints, rollouts, regret, memory);
3. has the trainer learn from the result (``Trainer.update``, whose metrics join the iteration's row);
4. appends the row and the attempts to the run directory, and saves a checkpoint (the loop's state, the
   trainer's files, and copies of the history and the memory that a resume checks the run against);
5. stops the run, with the cause, when none of the iteration's model calls did anything: every designer
   call failed, or every episode ended on a failed agent call (an endpoint that is down, a prompt longer
   than the model's context); or when every design of ``run.stop_after_malformed`` consecutive
   iterations was malformed (a designer out of its reply format plays and trains nothing). The
   iterations' records are kept and the command exits 1.

At the end it exports the memory's valid environments to ``pool/``, plots the curves and prints the run's
figures (``spade_train.run.figures``). A run restarts from its latest checkpoint when there is one; the
run directory was checked and rolled back to it when it was opened (``spade_train.run.resume``).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TextIO

from spade_envs.cliutil import printable
from spade_envs.errors import SpadeError
from spade_envs.runtime.backend import ExecutionBackend, create_backend
from spade_envs.runtime.limits import ExecutionLimits
from spade_envs.runtime.replies import one_line
from spade_train.config.sections import RunConfig
from spade_train.corpus import Corpus
from spade_train.loop.design import Outcome
from spade_train.loop.iteration import IterationResult, SelfPlayLoop
from spade_train.memory import EnvironmentMemory
from spade_train.policies.roles import Policies
from spade_train.release_prompts import prompts_line
from spade_train.run.directory import RunDirectory
from spade_train.run.figures import progress_figures, summary_lines
from spade_train.run.loggers import open_logger
from spade_train.run.plots import plot_metrics
from spade_train.run.progress import progress_bar
from spade_train.run.tracking import with_follow


class RunFailed(SpadeError):
    """The run stopped because its work could not go on (the message names the cause)."""

    exit_code = 1


class Trainer(Protocol):
    """What trains the models between iterations."""

    def begin_iteration(self, step: int) -> None:
        """Called before iteration ``step`` runs."""
        ...

    def update(self, result: IterationResult) -> dict[str, float | None]:
        """Learn from one iteration; returns the training metrics for its row of ``metrics.jsonl``."""
        ...

    def save(self, directory: Path) -> None:
        """Write what a resumed run needs (model, optimizer) into a checkpoint directory."""
        ...


@dataclass(frozen=True)
class RunSummary:
    iterations: int
    """Iterations in the run directory (earlier runs of a resumed one included)."""
    exported: int
    """Valid environments in the exported pool."""
    plot: Path | None


def run_description(config: RunConfig, policies: Policies, config_source: str | None) -> str:
    """One line naming the models in the roles and the configuration, for the curves' title."""
    names = {role: getattr(policies, role).name for role in ("designer", "agent")}
    if config.model.path is None and names["agent"] == "embedded-tiny":
        if config.design.language == "python":  # built by pretraining (spade_train/pretraining)
            shape = config.pretraining
            built = (f"qwen2, {shape.num_layers} layers x {shape.hidden_size}, pretrained on {shape.programs} "
                     f"programs for {shape.steps} steps")
        else:
            tiny = config.model.tiny
            built = f"{tiny.architecture}, {tiny.num_layers} layers x {tiny.hidden_size}"
        names = {role: f"{name} ({built})" if name == "embedded-tiny" else name for role, name in names.items()}
    models = (f"model {names['agent']}" if len(set(names.values())) == 1
              else f"designer {names['designer']}, agent {names['agent']}")
    loop = config.loop
    settings = (f"{loop.envs_per_iteration} designs x {loop.episodes_per_condition} episodes per condition "
                f"per iteration, seed {config.run.seed}")
    return f"{models}; config {config_source or 'as given'}; {settings}"


class SelfPlayRun:
    """One run of ``config`` with ``policies`` in the roles, trained by ``trainer`` if there is one."""

    def __init__(self, config: RunConfig, policies: Policies, trainer: Trainer | None = None, *,
                 directory: RunDirectory, out: TextIO | None = None, backend: ExecutionBackend | None = None,
                 title: str = "spade-train run", config_source: str | None = None) -> None:
        self.config, self.policies, self.trainer, self.directory = config, policies, trainer, directory
        self.out = out or sys.stdout
        self.backend = backend or create_backend(config.run.sandbox, ExecutionLimits())
        self.title = title
        self.config_source = config_source
        """How the configuration was given (the file and its --set overrides), for the curves' title."""

    async def run(self) -> RunSummary:
        """Run the iterations still to do, export, plot and print; ``RunFailed`` if the run had to stop."""
        config, directory = self.config, self.directory
        loop_settings = config.loop
        corpus = Corpus.load(loop_settings.corpus, seed=config.run.seed) if (
            loop_settings.use_corpus or "corpus_grounded" in loop_settings.kinds) else None
        directory.write_config(config)
        prompts = prompts_line(config.semantics.release_dir, config.semantics.mode)
        if prompts is not None and config.design.language == "python":
            self.out.write(prompts + "\n")
        state = directory.checkpoints.state() or {"step": 0, "loop": None}
        for note in directory.resume_notes:
            self.out.write(f"resume: {note}\n")
        if state["step"]:
            self.out.write(f"resuming after iteration {state['step']} from {directory.checkpoints.find()}\n")
        if directory.checkpoints.find() is None:  # a run without a trainer: nothing saved its start yet
            directory.save_checkpoint(state)  # so that a run stopped in its first iterations can --resume
        with EnvironmentMemory(directory.memory_path) as memory:
            loop = SelfPlayLoop(config, self.policies, backend=self.backend, memory=memory, corpus=corpus)
            if state.get("loop"):
                loop.load_state_dict(state["loop"])
            try:
                failure = await self._iterations(loop, state, memory)
            finally:
                loop.close()
            manifest = memory.export_pool(directory.pool_path, f"spade-{directory.path.name}")
        rows = directory.metrics()
        if config.design.hinter == "design":  # hints name design families: the mechanism panel can be drawn
            rows = with_follow(rows, directory.attempts())
        plot = plot_metrics(rows, directory.plot_path, title=f"{self.title}: {directory.path.name}",
                            subtitle=run_description(config, self.policies, self.config_source))
        self.out.write("\n" + "\n".join(summary_lines(rows)) + "\n")
        self.out.write(f"{len(manifest.entries)} valid environments exported to {directory.pool_path}\n")
        if plot is not None:
            self.out.write(f"learning curves: {plot}\n")
        if failure is not None:
            raise RunFailed(failure)
        return RunSummary(iterations=len(rows), exported=len(manifest.entries), plot=plot)

    async def _iterations(self, loop: SelfPlayLoop, state: dict[str, Any], memory: EnvironmentMemory) -> str | None:
        """Steps ``state["step"] + 1`` to ``run.iterations``; returns why the run stopped early, if it did."""
        config, directory, trainer = self.config, self.directory, self.trainer
        first = state["step"] + 1
        rows = directory.metrics()
        logger = open_logger(config.run.logger, directory.path, first_step=first)
        progress = progress_bar(self.out, iterable=range(first, config.run.iterations + 1), desc="self-play",
                                unit="iter", initial=first - 1, total=config.run.iterations)
        try:
            for step in progress:
                if trainer is not None:
                    trainer.begin_iteration(step)
                result = await loop.run_iteration(step)
                extra = trainer.update(result) if trainer is not None else {}
                rows.append(directory.record(result, extra))
                logger.log(rows[-1])
                cause = result.model_failure() or self._malformed_streak(rows, result)
                # A run that stops early saves where it stopped: a resume then keeps its last iterations.
                if step % config.run.checkpoint_every == 0 or step == config.run.iterations or cause is not None:
                    state = {**state, "step": step, "loop": loop.state_dict()}
                    directory.save_checkpoint(state, memory, trainer.save if trainer is not None else None)
                progress.set_postfix(progress_figures(rows), refresh=False)
                if cause is not None:
                    return (f"iteration {step}: {cause}; the run stops (its records are in {directory.path})")
        finally:
            progress.close()
            logger.close()
        return None

    def _malformed_streak(self, rows: list[dict[str, Any]], result: IterationResult) -> str | None:
        """Why the run stops when every design of the last ``run.stop_after_malformed`` iterations
        (counted over the run directory's rows, so a resume keeps the count) was malformed; else None."""
        limit = self.config.run.stop_after_malformed
        if limit is None or len(rows) < limit:
            return None
        if not all(row.get("designs") and row.get("malformed_rate") == 1.0 for row in rows[-limit:]):
            return None
        reasons = [a.detail for a in result.attempts if a.outcome is Outcome.MALFORMED]
        why = printable(one_line(reasons[0], 160)) if reasons else "no design in any reply"
        return (f"every design of the last {limit} iterations was malformed (the designer has left its reply "
                f"format; the last iteration's first: {why}), so nothing was played or trained; "
                f"run.stop_after_malformed sets how many such iterations stop a run")
