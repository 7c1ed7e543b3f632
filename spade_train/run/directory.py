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
                        model, tokenizer and optimizer too), with a copy of the history files and the
                        memory as they were at that iteration (``history/``), and the SHA-256 of every
                        file, so that a resume can tell a damaged file from a good one
                        (``spade_train.run.resume``)
    checkpoints/reference  the model as training began, with its own file digests (``files.json``)
"""

from __future__ import annotations

import errno
import json
import os
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from spade_envs.fileio import append_whole, check_writable_directory, disk_refused, write_atomically
from spade_train.config.sections import RunConfig
from spade_train.loop.iteration import IterationResult
from spade_train.run.records import (
    ATTEMPTS_FILE,
    DIGESTS_FILE,
    HISTORY_DIR,
    HISTORY_FILES,
    MEMORY_FILE,
    METRICS_FILE,
    STATE_FILE,
    TIMINGS_FILE,
    RunDirectoryError,
    file_digests,
    is_timing,
    read_json_lines,
)

if TYPE_CHECKING:
    from spade_train.memory import EnvironmentMemory

NEARLY_FULL_BYTES = 1 << 20
"""Free space below which a failed checkpoint write is taken for the disk being full (a partial write may
leave a few blocks)."""


def _disk_full(error: Exception, directory: Path) -> str | None:
    """Why writing under ``directory`` failed when it was the disk (None: something else). torch.save says
    a full disk in words of its own, so an error raised while under ``NEARLY_FULL_BYTES`` are free counts
    too: ask before the failed write's partial output is removed."""
    refused = disk_refused(error)
    if refused is not None or not isinstance(error, (OSError, RuntimeError)):
        return refused
    try:
        usage = os.statvfs(directory)
    except OSError:
        return None
    return os.strerror(errno.ENOSPC) if usage.f_bavail * usage.f_frsize < NEARLY_FULL_BYTES else None


@contextmanager
def _removed_on_failure(staging: Path) -> Iterator[None]:
    """A fresh staging directory for a checkpoint, removed again if writing it fails (a full disk): a
    failed save leaves the previous checkpoint and nothing else."""
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    try:
        yield
    except BaseException as error:
        full = _disk_full(error, staging) if isinstance(error, Exception) else None  # asked while still full
        shutil.rmtree(staging, ignore_errors=True)
        if full is not None and not isinstance(error, OSError):
            raise OSError(errno.ENOSPC, full, str(staging)) from error
        raise


class Checkpoints:
    """``checkpoints/latest`` in a run directory, replaced whole after every saved iteration.

    A checkpoint is ``trainer_state.json`` (the step, the loop's state, what its writer adds, and under
    ``files`` the SHA-256 of every other file in the checkpoint) and whatever files the trainer and the
    run directory write beside it. The new checkpoint is written beside the old one and swapped in by
    renames, so a run killed at any moment leaves one complete checkpoint (``latest``, or ``previous``
    while swapping).
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
        """The newest checkpoint's state, or None; ``RunDirectoryError`` when its state file is damaged."""
        found = self.find()
        if found is None:
            return None
        path = found / STATE_FILE
        try:
            state = json.loads(path.read_bytes().decode("utf-8"))
        except (OSError, ValueError) as error:
            raise RunDirectoryError(f"{path} cannot be read ({type(error).__name__}: {error}); the run cannot "
                                    "resume from a damaged checkpoint: restore it from a backup, or start a new "
                                    "run with another --out") from None
        step = state.get("step") if isinstance(state, dict) else None
        if type(step) is not int or step < 0:
            raise RunDirectoryError(f"{path} is not a checkpoint's state (no whole step number >= 0); restore it "
                                    "from a backup, or start a new run with another --out")
        return state

    def save(self, state: dict[str, Any], write_files: Callable[[Path], None] | None = None) -> Path:
        """Write ``state`` (and the files ``write_files`` puts in the directory it is given) as the latest;
        the state records every file's SHA-256 under ``files``."""
        staging = self.root / f".staging-{state['step']}"
        with _removed_on_failure(staging):
            if write_files is not None:
                write_files(staging)
            state = {**state, "files": file_digests(staging),
                     "reference_kept": (self.reference / DIGESTS_FILE).is_file()}
            write_atomically(staging / STATE_FILE, json.dumps(state, indent=1) + "\n")
        if (self.latest / STATE_FILE).is_file():
            shutil.rmtree(self.previous, ignore_errors=True)
            self.latest.rename(self.previous)
        else:  # no whole latest (a run resumed from ``previous``): previous stays until the new one is in place
            shutil.rmtree(self.latest, ignore_errors=True)
        staging.rename(self.latest)
        shutil.rmtree(self.previous, ignore_errors=True)
        return self.latest

    def save_reference(self, write_files: Callable[[Path], None]) -> Path:
        """Write the reference model (the files ``write_files`` puts in the directory it is given) with
        their digests in ``files.json``, whole or not at all: a run killed mid-write leaves none."""
        staging = self.root / ".staging-reference"
        with _removed_on_failure(staging):
            write_files(staging)
            write_atomically(staging / DIGESTS_FILE, json.dumps(file_digests(staging), indent=1) + "\n")
        shutil.rmtree(self.reference, ignore_errors=True)
        staging.rename(self.reference)
        return self.reference


class RunDirectory:
    def __init__(self, path: Path) -> None:
        self.path = path
        path.mkdir(parents=True, exist_ok=True)
        self.checkpoints = Checkpoints(path / "checkpoints")
        self.resume_notes: list[str] = []
        """What opening it for a resume changed (``spade_train.run.resume.prepare_resume``), to be shown."""

    @classmethod
    def open(cls, path: Path, *, resume: bool, repair: bool = False) -> RunDirectory:
        """The directory for a new run (refusing one that holds any of a run's work) or for resuming one:
        then it needs a checkpoint, and every file the resume reads is checked first and the directory
        rolled back to the checkpoint's step (``prepare_resume``; ``repair`` restores damaged history
        from the checkpoint's copies)."""
        if repair and not resume:
            raise RunDirectoryError("--repair goes with --resume: it restores a run's damaged history before "
                                    "resuming it")
        checkpoints = Checkpoints(path / "checkpoints")
        if resume and checkpoints.find() is None:
            raise RunDirectoryError(f"--resume: {path} has no checkpoints to resume from; drop --resume to "
                                    "start a run")
        if not resume:
            held = [name for name in (*HISTORY_FILES, MEMORY_FILE) if (path / name).exists()]
            if checkpoints.find() is not None:
                held.append("checkpoints")
            if held:
                raise RunDirectoryError(f"{path} already holds a run ({', '.join(held)}); pass --resume to "
                                        "continue it or choose another --out")
        try:
            directory = cls(path)
            check_writable_directory(path)
        except OSError as error:
            raise RunDirectoryError(f"cannot write to the run directory {path}: {error.strerror or error}; choose "
                                    "another --out, or make it writable") from None
        if resume:
            from spade_train.run.resume import prepare_resume

            found = checkpoints.find()
            state = checkpoints.state()
            assert found is not None and state is not None
            directory.resume_notes = prepare_resume(path, found, state, repair=repair)
        else:
            shutil.rmtree(directory.checkpoints.root, ignore_errors=True)  # a start killed mid-save
        return directory

    @property
    def memory_path(self) -> Path:
        return self.path / MEMORY_FILE

    @property
    def pool_path(self) -> Path:
        return self.path / "pool"

    @property
    def plot_path(self) -> Path:
        return self.path / "plots" / "curves.png"

    def write_config(self, config: RunConfig) -> None:
        write_atomically(self.path / "config.json", config.model_dump_json(indent=2) + "\n")

    def _append(self, name: str, rows: list[dict[str, Any]]) -> None:
        # fsynced: a killed run keeps every finished iteration
        append_whole(self.path / name, "".join(json.dumps(row) + "\n" for row in rows).encode("utf-8"), fsync=True)

    def record(self, result: IterationResult, extra: dict[str, float | None] | None = None) -> dict[str, Any]:
        """Append the iteration's metrics (with ``extra``, the trainer's), its timings (the loop's seconds
        and every ``*_seconds`` key of ``extra``) and its attempts; returns the metrics row."""
        extra = extra or {}
        timings = {"step": result.step, "seconds": round(result.seconds, 3),
                   **{key: round(value, 3) for key, value in extra.items() if is_timing(key) and value is not None}}
        row = {"step": result.step, **result.metrics,
               **{key: value for key, value in extra.items() if not is_timing(key)}}
        self._append(METRICS_FILE, [row])
        self._append(TIMINGS_FILE, [timings])
        self._append(ATTEMPTS_FILE, [summary.to_json() for summary in result.summaries()])
        return row

    def save_checkpoint(self, state: dict[str, Any], memory: EnvironmentMemory | None = None,
                        write_trainer_files: Callable[[Path], None] | None = None) -> Path:
        """Save ``state`` as the latest checkpoint with the trainer's files, and a copy of the history files
        and of ``memory`` as they are now (``history/``): what a resume checks the run against, and
        restores from with ``--repair``."""
        def write(staging: Path) -> None:
            if write_trainer_files is not None:
                write_trainer_files(staging)
            history = staging / HISTORY_DIR
            history.mkdir()
            for name in HISTORY_FILES:
                if (self.path / name).exists():
                    shutil.copyfile(self.path / name, history / name)
                else:
                    (history / name).write_bytes(b"")
            if memory is not None:
                memory.backup_to(history / MEMORY_FILE)

        return self.checkpoints.save(state, write)

    def attempts(self) -> list[dict[str, Any]]:
        """The run's attempt rows (an unreadable line is skipped)."""
        return read_json_lines(self.path / ATTEMPTS_FILE).rows

    def metrics(self) -> list[dict[str, Any]]:
        """The run's metrics rows (an unreadable line is skipped)."""
        return read_json_lines(self.path / METRICS_FILE).rows
