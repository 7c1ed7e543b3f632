"""Where a run's metrics go besides ``metrics.jsonl``: ``run.logger`` (``--logger`` on the command line).

``metrics.jsonl`` is always written and is the record a resumed run, the curves and the summary read.
A logger only mirrors each finished iteration's row for people who watch runs in other tools:
``tensorboard`` writes TensorBoard event files under ``<run>/tensorboard/``, one scalar per number of the
row, tagged with the row's own key (``valid_rate``, ``rejected/distinct_tasks``, ``train_agent_loss``;
a space, which TensorBoard does not keep in a tag, becomes "_": ``skill/Logical_Deduction/regret_mean``),
at the iteration as the global step. A null (a mean
over nothing) is left out, so TensorBoard shows a gap as the curves do. W&B users can sync that
directory (``wandb sync --sync-tensorboard``) or read ``metrics.jsonl``.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any, Protocol

from spade_envs.errors import SpadeError

TENSORBOARD_DIR = "tensorboard"


class LoggerUnavailable(SpadeError):
    """The configured logger's package is not installed (the message says how to install it)."""

    exit_code = 2


class MetricsLogger(Protocol):
    def log(self, row: dict[str, Any]) -> None:
        """Mirror one iteration's row of ``metrics.jsonl`` (its ``step`` is the iteration)."""
        ...

    def close(self) -> None:
        ...


class NoLogger:
    """``run.logger = "none"``: ``metrics.jsonl`` only."""

    def log(self, row: dict[str, Any]) -> None:
        return None

    def close(self) -> None:
        return None


_TAG_UNSAFE = re.compile(r"[^A-Za-z0-9_./-]")
"""Characters TensorBoard does not keep in a tag (it would turn them into "_" itself)."""


def scalars(row: dict[str, Any]) -> dict[str, float]:
    """The row's finite numbers by tag (``step`` is the global step; nulls and non-numbers are dropped)."""
    found = {}
    for key, value in row.items():
        if key == "step" or isinstance(value, bool) or not isinstance(value, (int, float)):
            continue
        if math.isfinite(value):
            found[_TAG_UNSAFE.sub("_", key)] = float(value)
    return found


class TensorBoardLogger:
    """TensorBoard event files in ``directory`` (see the module docstring).

    ``purge_step`` is the first iteration this process writes: on a resume, TensorBoard drops what an
    earlier process logged from that step on (the iterations the resume redoes), so no step shows twice.
    """

    def __init__(self, directory: Path, *, purge_step: int | None = None) -> None:
        try:
            from tensorboardX import SummaryWriter
        except ImportError:
            raise LoggerUnavailable("run.logger = \"tensorboard\" needs tensorboardX: pip install "
                                    "'spade-toolkit[tensorboard]', or set run.logger = \"none\"") from None
        self.directory = directory
        self._writer = SummaryWriter(logdir=str(directory), purge_step=purge_step, flush_secs=10)

    def log(self, row: dict[str, Any]) -> None:
        step = int(row["step"])
        for tag, value in scalars(row).items():
            self._writer.add_scalar(tag, value, global_step=step)
        self._writer.flush()  # a killed run keeps what it logged, as metrics.jsonl does

    def close(self) -> None:
        self._writer.close()


def open_logger(name: str, run_directory: Path, *, first_step: int) -> MetricsLogger:
    """The logger ``run.logger`` names, for a run whose next iteration is ``first_step``."""
    if name == "tensorboard":
        return TensorBoardLogger(run_directory / TENSORBOARD_DIR, purge_step=first_step if first_step > 1 else None)
    return NoLogger()
