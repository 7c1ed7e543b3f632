"""Resuming a run: every file a resume reads is checked before anything is written.

A run directory holds hours of work, and a resume that reads a damaged or emptied file would quietly
build on it: an emptied memory database would be recreated holding only the new iterations, a deleted
``metrics.jsonl`` recreated with only the new rows, a checkpoint's corrupted weights fed to a native
loader. So before a resume writes anything, ``prepare_resume``

1. checks every file of the checkpoint (and of ``checkpoints/reference``) against the SHA-256 saved with
   it, so nothing damaged reaches ``from_pretrained`` or ``torch.load``;
2. checks each history file (``metrics.jsonl``, ``timings.jsonl``, ``attempts.jsonl``) and the memory
   database against the copies the checkpoint kept of them (``history/``): the rows up to the
   checkpoint's step must be exactly the copy's, and the memory must be a sound database holding at
   least what the copy holds;
3. refuses, in one line naming the file and the way out, when anything is missing or damaged; with
   ``repair`` it restores the history files and the memory from the checkpoint's copies instead, and
   says what it restored (a damaged checkpoint cannot be repaired: nothing else holds the model);
4. brings the run back to the checkpoint's step: rows of later iterations (and a torn last line of a
   run killed mid-write) are dropped, and the memory is replaced by the checkpoint's copy, so rows a
   killed iteration wrote after the checkpoint are not written twice when the iteration is redone.

A checkpoint saved before digests were kept (no ``files`` in its state) gets the checks that need no
copy: whole rows, one per iteration, up to its step.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spade_envs.fileio import write_atomically
from spade_envs.runtime.replies import one_line
from spade_train.run.records import (
    DIGESTS_FILE,
    HISTORY_DIR,
    HISTORY_FILES,
    MEMORY_FILE,
    METRICS_FILE,
    TIMINGS_FILE,
    RunDirectoryError,
    file_digests,
    read_json_lines,
)

NEW_RUN = "start a new run with another --out"


@dataclass(frozen=True)
class Problem:
    """A run file a resume cannot use as it is."""

    name: str
    """The file, relative to the run directory."""
    what: str
    """What is wrong with it, as the end of a sentence that starts with its name."""


def prepare_resume(run: Path, checkpoint: Path, state: dict[str, Any], *, repair: bool = False) -> list[str]:
    """Check the run in ``run`` against ``checkpoint`` (whose state is ``state``), repair it when asked,
    and roll it back to the checkpoint's step; returns one line per thing changed (nothing when the
    directory was as the checkpoint left it). ``RunDirectoryError`` names the first problem."""
    step = int(state["step"])
    notes: list[str] = []
    copies = copies_of(checkpoint) if verify_checkpoint(run, checkpoint, state) else None
    if copies is None and isinstance(state.get("files"), dict):
        notes.append(f"{_shown(copies_of(checkpoint), run)} is missing or damaged: the history is checked without "
                     "it, and the memory is not rolled back")
    problems = [problem for name in HISTORY_FILES
                if (problem := _check_history(run, name, step, copies)) is not None]
    memory_problem, counts = _check_memory(run, step, copies)
    if memory_problem is not None:
        problems.append(memory_problem)
    if problems and not repair:
        first = problems[0]
        way_out = (f"pass --repair to restore it from {_shown(checkpoint, run)} (as of iteration {step}), or {NEW_RUN}"
                   if copies is not None else f"restore it from a backup, or {NEW_RUN}")
        more = f" ({len(problems) - 1} more file(s) too)" if len(problems) > 1 else ""
        raise RunDirectoryError(f"cannot resume {run}: {first.name} {first.what}{more}; {way_out}")
    if problems and copies is None:
        raise RunDirectoryError(f"--repair: {problems[0].name} cannot be restored: the checkpoint keeps no sound "
                                f"copy of it; restore it from a backup, or {NEW_RUN}")
    notes += [_restore(run, problem.name, copies, step) for problem in problems if copies is not None]
    repaired = {problem.name for problem in problems}
    notes += [note for name in HISTORY_FILES if name not in repaired
              and (note := _drop_after(run / name, step)) is not None]
    if copies is not None and MEMORY_FILE not in repaired:
        note = _roll_back_memory(run, copies, step, counts)
        if note is not None:
            notes.append(note)
    return notes


# ---------------------------------------------------------------------------------------------- checkpoint
def verify_checkpoint(run: Path, checkpoint: Path, state: dict[str, Any]) -> bool:
    """Every file of ``checkpoint`` (whose state is ``state``) and of the run's reference model has the
    SHA-256 saved with it, so nothing damaged reaches a loader; else ``RunDirectoryError`` naming it.

    The copies of the history (``history/``) are no part of the model: returns whether they are there
    and sound (False also for a checkpoint saved before copies were kept)."""
    digests = state.get("files")
    copies_sound = False
    if isinstance(digests, dict):
        differing = _differing(checkpoint, digests)  # every file hashed once (a real model is gigabytes)
        _refuse_any(checkpoint, [item for item in differing if not item[0].startswith(f"{HISTORY_DIR}/")], run)
        copies_sound = not differing
    reference = checkpoint.parent / "reference"
    if (reference / DIGESTS_FILE).is_file():
        _refuse_any(reference, _differing(reference, _read_digests(reference / DIGESTS_FILE, run)), run)
    elif state.get("reference_kept"):
        raise RunDirectoryError(f"cannot use {run}: {_shown(reference, run)} is missing (the post-warm-up model the "
                                "run trains against); restore it from a backup, or " + NEW_RUN)
    return copies_sound


def copies_of(checkpoint: Path) -> Path:
    """Where ``checkpoint`` keeps its copies of the history files and the memory."""
    return checkpoint / HISTORY_DIR


def _shown(path: Path, run: Path) -> str:
    """``path`` as a person finds it: relative to the run directory when inside it."""
    with contextlib.suppress(ValueError):
        return path.relative_to(run).as_posix()
    return str(path)


def _read_digests(path: Path, run: Path) -> dict[str, str]:
    try:
        digests = json.loads(path.read_bytes().decode("utf-8"))
    except (OSError, ValueError) as error:
        raise RunDirectoryError(f"cannot use {run}: {_shown(path, run)} cannot be read ({error}); restore it "
                                f"from a backup, or {NEW_RUN}") from None
    if not isinstance(digests, dict):
        raise RunDirectoryError(f"cannot use {run}: {_shown(path, run)} is not a table of file digests; restore "
                                f"it from a backup, or {NEW_RUN}")
    return digests


def _differing(directory: Path, digests: dict[str, Any]) -> list[tuple[str, bool]]:
    """The files ``digests`` lists that ``directory`` lacks or holds with another SHA-256: (name, missing)."""
    found = file_digests(directory)
    return [(name, name not in found) for name, digest in sorted(digests.items()) if found.get(name) != digest]


def _refuse_any(directory: Path, differing: list[tuple[str, bool]], run: Path) -> None:
    """``RunDirectoryError`` naming the first of ``differing`` (``_differing``'s files of ``directory``)."""
    for name, missing in differing[:1]:
        what = "is missing" if missing else "is damaged (its SHA-256 differs from the one saved with it)"
        raise RunDirectoryError(f"cannot use {run}: {_shown(directory / name, run)} {what}; a checkpoint cannot "
                                f"be repaired (nothing else holds the model): restore it from a backup, or {NEW_RUN}")


@contextmanager
def loading_checkpoint(checkpoint: Path) -> Iterator[None]:
    """Loading a checkpoint: whatever its loaders raise (a checkpoint saved before file digests were
    kept, or damaged since in a way its digests cannot see) is one line naming it, not a traceback."""
    try:
        yield
    except Exception as error:  # noqa: BLE001 - transformers, safetensors, torch and json each raise their own
        raise RunDirectoryError(f"cannot load the checkpoint {checkpoint} ({type(error).__name__}: "
                                f"{one_line(str(error), 200)}); restore it from a backup, or start a new run with "
                                "another --out") from None


# ---------------------------------------------------------------------------------------------- history
def _check_history(run: Path, name: str, step: int, copies: Path | None) -> Problem | None:
    """What is wrong with history file ``name`` for a resume after ``step`` (None: nothing)."""
    path = run / name
    live = read_json_lines(path)
    if live.damaged_line is not None:
        return Problem(name, f"has an unreadable line {live.damaged_line} followed by good rows (damage, not a "
                             "write cut short by a kill)")
    kept = [line for line, row in zip(live.lines, live.rows) if row["step"] <= step]
    if copies is not None:
        expected = read_json_lines(copies / name).lines
        if kept == expected:
            return None
        if not path.exists():
            return Problem(name, f"is missing (the checkpoint's copy holds {len(expected)} rows)")
        if not kept:
            return Problem(name, f"holds none of the {len(expected)} rows of iterations 1-{step}")
        differs = next((index for index, (a, b) in enumerate(zip(kept, expected)) if a != b), min(len(kept),
                                                                                              len(expected)))
        return Problem(name, f"differs from the checkpoint's copy at row {differs + 1} ({len(kept)} rows of "
                             f"iterations 1-{step}, the copy {len(expected)})")
    if name not in (METRICS_FILE, TIMINGS_FILE) or step == 0:
        return None
    steps = [row["step"] for row in live.rows if row["step"] <= step]
    if steps == list(range(1, step + 1)):
        return None
    if not path.exists():
        return Problem(name, f"is missing (the checkpoint is at iteration {step})")
    return Problem(name, f"holds {len(steps)} rows of iterations 1-{step}, not one per iteration")


def _drop_after(path: Path, step: int) -> str | None:
    """Drop the rows of iterations after ``step`` and a torn tail; says what it dropped (None: nothing)."""
    live = read_json_lines(path)
    kept = [line for line, row in zip(live.lines, live.rows) if row["step"] <= step]
    later = len(live.rows) - len(kept)
    if not later and not live.torn_tail:
        return None
    write_atomically(path, b"".join(line + b"\n" for line in kept))
    parts = ([f"{later} row(s) of iterations after {step}"] if later else []) + (
        [f"{live.torn_tail} unreadable last line(s) (a write cut short)"] if live.torn_tail else [])
    return f"{path.name}: dropped {' and '.join(parts)}"


# ---------------------------------------------------------------------------------------------- memory
def memory_counts(path: Path, *, immutable: bool = False) -> tuple[int, int]:
    """(environments, evaluations) in a memory database; ``sqlite3.DatabaseError`` if it is not a sound one.

    A run's live database is opened as SQLite opens it for writing (closing it then folds a write-ahead
    log left by a killed run into the file); a checkpoint's copy is ``immutable``: read, never touched."""
    conn = (sqlite3.connect(f"{path.resolve().as_uri()}?immutable=1", uri=True) if immutable
            else sqlite3.connect(path))
    try:
        verdict = conn.execute("PRAGMA quick_check").fetchone()[0]
        if verdict != "ok":
            raise sqlite3.DatabaseError(f"quick_check: {verdict}")
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if not {"environments", "evaluations"} <= tables:
            return 0, 0
        return (conn.execute("SELECT COUNT(*) FROM environments").fetchone()[0],
                conn.execute("SELECT COUNT(*) FROM evaluations").fetchone()[0])
    finally:
        conn.close()


def _check_memory(run: Path, step: int, copies: Path | None) -> tuple[Problem | None, tuple[int, int] | None]:
    """What is wrong with the run's memory against the checkpoint's copy, and (when it is sound) how many
    rows it holds beyond the copy's: (environments, evaluations) written after the checkpoint."""
    if copies is None:
        return None, None
    path, copy = run / MEMORY_FILE, copies / MEMORY_FILE
    expected = memory_counts(copy, immutable=True) if copy.is_file() else (0, 0)
    if not path.exists():
        return (None if expected == (0, 0) else Problem(MEMORY_FILE, f"is missing (the checkpoint's copy holds "
                                                                     f"{expected[0]} environments)")), (0, 0)
    try:
        found = memory_counts(path)
    except sqlite3.DatabaseError as error:
        return Problem(MEMORY_FILE, f"is not a sound SQLite database ({error})"), None
    if found[0] < expected[0] or found[1] < expected[1]:
        return Problem(MEMORY_FILE, f"holds {found[0]} environments and {found[1]} evaluations, fewer than the "
                                    f"{expected[0]} and {expected[1]} it held at iteration {step}"), None
    return None, (found[0] - expected[0], found[1] - expected[1])


def _replace_memory(run: Path, copies: Path) -> None:
    """Make the run's memory the checkpoint's copy (or remove it when the checkpoint kept none): the
    write-ahead log goes first, since a log left beside another database would be replayed into it."""
    path, copy = run / MEMORY_FILE, copies / MEMORY_FILE
    staged = path.with_name(f".{MEMORY_FILE}.restore")
    if copy.is_file():
        try:
            shutil.copyfile(copy, staged)
            with open(staged, "rb") as handle:
                os.fsync(handle.fileno())
        except BaseException:
            staged.unlink(missing_ok=True)  # a full disk: leave the room the copy took
            raise
    for suffix in ("-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(f"{path}{suffix}")
    if copy.is_file():
        os.replace(staged, path)
    else:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)


def _roll_back_memory(run: Path, copies: Path, step: int, later: tuple[int, int] | None) -> str | None:
    """Replace the sound memory by the checkpoint's copy; ``later``: the rows that rolls back
    (``_check_memory``). Says what it rolled back (None: nothing)."""
    _replace_memory(run, copies)
    if not later or later == (0, 0):
        return None
    return (f"{MEMORY_FILE}: rolled back {later[0]} environment(s) and {later[1]} evaluation(s) written after "
            f"iteration {step}")


# ---------------------------------------------------------------------------------------------- repair
def _restore(run: Path, name: str, copies: Path | None, step: int) -> str:
    assert copies is not None
    if name == MEMORY_FILE:
        _replace_memory(run, copies)
        counts = memory_counts(run / MEMORY_FILE) if (run / MEMORY_FILE).exists() else (0, 0)
        return (f"repaired {MEMORY_FILE}: restored from the checkpoint's copy as of iteration {step} "
                f"({counts[0]} environments, {counts[1]} evaluations)")
    data = (copies / name).read_bytes() if (copies / name).is_file() else b""
    write_atomically(run / name, data)
    rows = len(read_json_lines(run / name).rows)
    return f"repaired {name}: restored from the checkpoint's copy as of iteration {step} ({rows} rows)"
