"""The run directory: where a run leaves everything a person or a resumed run needs.

    config.json         the resolved configuration
    metrics.jsonl       one line of metrics per iteration (appended, flushed, fsynced); null where a
                        mean had nothing to average (no design played: no regret)
    timings.jsonl       the same iterations' wall-clock seconds, kept apart so that metrics.jsonl is
                        what the run learnt and nothing else: the same config and seed reproduce it
    attempts.jsonl      one line per design attempt: outcome, verdict, the environment's kind, hint,
                        regret, and the designer's reward with the baseline it was centred on
    memory.sqlite3      the environment memory (WAL)
    pool/               the exported environment pool (environments.jsonl + manifest.json)
    plots/curves.png    learning curves
    checkpoints/latest  the run's state after its last saved iteration (loop state; with a trainer, its
                        model, tokenizer and optimizer too)
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from spade_envs.errors import SpadeError
from spade_envs.fileio import write_atomically
from spade_train.config.sections import RunConfig
from spade_train.loop.iteration import IterationResult

STATE_FILE = "trainer_state.json"
ATTEMPTS_FILE = "attempts.jsonl"


class RunDirectoryError(SpadeError):
    """The run directory cannot be used as asked (a run already there, nothing to resume)."""


def is_timing(key: str) -> bool:
    """Whether a metric is wall-clock time (it goes to ``timings.jsonl``, not ``metrics.jsonl``)."""
    return key == "seconds" or key.endswith("_seconds")


def _step_of(line: str) -> int:
    try:
        return int(json.loads(line).get("step", 0))
    except (ValueError, AttributeError):
        return 1 << 62  # a torn last line (the process died mid-write) is dropped


class Checkpoints:
    """``checkpoints/latest`` in a run directory, replaced whole after every saved iteration.

    A checkpoint is ``trainer_state.json`` (the step, the loop's state and what its writer adds) and
    whatever files the trainer writes beside it. The new checkpoint is written beside the old one and
    swapped in by renames, so a run killed at any moment leaves one complete checkpoint (``latest``, or
    ``previous`` while swapping).
    """

    def __init__(self, root: Path) -> None:
        self.root = root
        self.latest = root / "latest"
        self.previous = root / "previous"
        self.reference = root / "reference"
        """The model as training began (after the warm-up): the KL regulariser's anchor, kept for a resume."""

    def find(self) -> Path | None:
        """The newest complete checkpoint, or None."""
        for path in (self.latest, self.previous):
            if (path / STATE_FILE).is_file():
                return path
        return None

    def state(self) -> dict[str, Any] | None:
        """The newest checkpoint's state, or None."""
        found = self.find()
        return json.loads((found / STATE_FILE).read_text(encoding="utf-8")) if found is not None else None

    def save(self, state: dict[str, Any], write_files: Callable[[Path], None] | None = None) -> Path:
        """Write ``state`` (and the files ``write_files`` puts in the directory it is given) as the latest."""
        staging = self.root / f".staging-{state['step']}"
        shutil.rmtree(staging, ignore_errors=True)
        staging.mkdir(parents=True)
        if write_files is not None:
            write_files(staging)
        write_atomically(staging / STATE_FILE, json.dumps(state, indent=1) + "\n")
        shutil.rmtree(self.previous, ignore_errors=True)
        if self.latest.exists():
            self.latest.rename(self.previous)
        staging.rename(self.latest)
        shutil.rmtree(self.previous, ignore_errors=True)
        return self.latest


class RunDirectory:
    def __init__(self, path: Path) -> None:
        self.path = path
        path.mkdir(parents=True, exist_ok=True)
        self.checkpoints = Checkpoints(path / "checkpoints")

    @classmethod
    def open(cls, path: Path, *, resume: bool) -> RunDirectory:
        """The directory for a new run (refusing one that holds a run) or for resuming one (which needs a
        checkpoint). A new run replaces checkpoints that a start killed before its first iteration left."""
        if resume and Checkpoints(path / "checkpoints").find() is None:
            raise RunDirectoryError(f"--resume: {path} has no checkpoints to resume from; drop --resume to "
                                    "start a run")
        if not resume and (path / "metrics.jsonl").exists():
            raise RunDirectoryError(f"{path} already holds a run; pass --resume to continue it or choose "
                                    "another --out")
        try:
            directory = cls(path)
        except OSError as error:
            raise RunDirectoryError(f"cannot create {path}: {error.strerror or error}") from None
        if not resume:
            shutil.rmtree(directory.checkpoints.root, ignore_errors=True)
        return directory

    @property
    def memory_path(self) -> Path:
        return self.path / "memory.sqlite3"

    @property
    def pool_path(self) -> Path:
        return self.path / "pool"

    @property
    def plot_path(self) -> Path:
        return self.path / "plots" / "curves.png"

    def write_config(self, config: RunConfig) -> None:
        write_atomically(self.path / "config.json", config.model_dump_json(indent=2) + "\n")

    def _append(self, name: str, rows: list[dict[str, Any]]) -> None:
        with open(self.path / name, "a", encoding="utf-8") as handle:
            handle.writelines(json.dumps(row) + "\n" for row in rows)
            handle.flush()
            os.fsync(handle.fileno())  # a killed run keeps every finished iteration

    def truncate_records(self, after_step: int) -> None:
        """Drop metric and attempt lines of iterations after ``after_step`` (a resume redoes them)."""
        for name in ("metrics.jsonl", "timings.jsonl", ATTEMPTS_FILE):
            path = self.path / name
            if not path.exists():
                continue
            lines = path.read_text(encoding="utf-8").splitlines()
            kept = [line for line in lines if line.strip() and _step_of(line) <= after_step]
            if len(kept) != len(lines):
                write_atomically(path, "".join(line + "\n" for line in kept))

    def record(self, result: IterationResult, extra: dict[str, float | None] | None = None) -> dict[str, Any]:
        """Append the iteration's metrics (with ``extra``, the trainer's), its timings (the loop's seconds
        and every ``*_seconds`` key of ``extra``) and its attempts; returns the metrics row."""
        extra = extra or {}
        timings = {"step": result.step, "seconds": round(result.seconds, 3),
                   **{key: round(value, 3) for key, value in extra.items() if is_timing(key) and value is not None}}
        row = {"step": result.step, **result.metrics,
               **{key: value for key, value in extra.items() if not is_timing(key)}}
        self._append("metrics.jsonl", [row])
        self._append("timings.jsonl", [timings])
        self._append(ATTEMPTS_FILE, [summary.to_json() for summary in result.summaries()])
        return row

    def attempts(self) -> list[dict[str, Any]]:
        """The run's attempt rows; a line that is not a JSON object (a run killed mid-write) is skipped."""
        path = self.path / ATTEMPTS_FILE
        if not path.exists():
            return []
        rows = []
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            try:
                row = json.loads(line)
            except ValueError:
                continue
            if isinstance(row, dict):
                rows.append(row)
        return rows

    def metrics(self) -> list[dict[str, Any]]:
        path = self.path / "metrics.jsonl"
        if not path.exists():
            return []
        return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
