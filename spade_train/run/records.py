"""The run directory's files as data: their names, the history files' JSON lines, file digests, and
the error for a run directory that cannot be used as asked.

The run directory itself (its layout, appends and checkpoints) is ``spade_train.run.directory``;
what a resume checks is ``spade_train.run.resume``.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spade_envs.errors import SpadeError

STATE_FILE = "trainer_state.json"
METRICS_FILE = "metrics.jsonl"
TIMINGS_FILE = "timings.jsonl"
ATTEMPTS_FILE = "attempts.jsonl"
MEMORY_FILE = "memory.sqlite3"
HISTORY_FILES = (METRICS_FILE, TIMINGS_FILE, ATTEMPTS_FILE)
"""The run's records, one JSON line per row, each row with its iteration's ``step``."""
HISTORY_DIR = "history"
"""Inside a checkpoint: the history files and the memory as they were at the checkpoint's step."""
DIGESTS_FILE = "files.json"
"""Inside ``checkpoints/reference``: the SHA-256 of its files (a checkpoint keeps them in its state)."""


class RunDirectoryError(SpadeError):
    """The run directory cannot be used as asked: a run already there, nothing to resume, or a file a
    resume needs is missing, damaged or disagrees with the checkpoint (the message names it and the
    way out)."""


def is_timing(key: str) -> bool:
    """Whether a metric is wall-clock time (it goes to ``timings.jsonl``, not ``metrics.jsonl``)."""
    return key == "seconds" or key.endswith("_seconds")


@dataclass(frozen=True)
class JsonLines:
    """A history file as read: its readable rows, and where lines could not be read.

    A run appends whole lines, so a process killed mid-write leaves at most a *torn tail*: unreadable
    bytes after the last complete row, which ``torn_tail`` counts (lines) and a resume drops. An
    unreadable line with good rows after it cannot come from a kill: ``damaged_line`` is its number.
    """

    rows: list[dict[str, Any]]
    lines: list[bytes]
    """Each row's line as written (without its newline)."""
    damaged_line: int | None = None
    torn_tail: int = 0


def _row(line: bytes) -> dict[str, Any] | None:
    """The JSON object ``line`` holds with an integer ``step``, or None (bytes of another file, a torn write)."""
    try:
        row = json.loads(line.decode("utf-8"))
    except ValueError:  # UnicodeDecodeError is a ValueError too
        return None
    if not isinstance(row, dict) or type(row.get("step")) is not int:
        return None
    return row


def read_json_lines(path: Path) -> JsonLines:
    """Read a history file (``JsonLines``); a missing file has no rows."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return JsonLines([], [])
    except OSError as error:
        raise RunDirectoryError(f"cannot read {path}: {error.strerror or error}; make it a readable file again "
                                "(or move it aside and resume with --repair)") from None
    rows: list[dict[str, Any]] = []
    lines: list[bytes] = []
    unreadable: list[int] = []
    damaged_line = None
    for number, line in enumerate(data.splitlines(), start=1):
        if not line.strip():
            continue
        row = _row(line)
        if row is None:
            unreadable.append(number)
            continue
        if unreadable and damaged_line is None:
            damaged_line = unreadable[0]
        unreadable.clear()
        rows.append(row)
        lines.append(line)
    return JsonLines(rows, lines, damaged_line=damaged_line, torn_tail=len(unreadable))


def file_digests(directory: Path) -> dict[str, str]:
    """The SHA-256 of every file under ``directory``, by its path relative to it."""
    digests = {}
    for path in sorted(directory.rglob("*")):
        if path.is_file():
            sha = hashlib.sha256()
            with open(path, "rb") as handle:
                for block in iter(lambda: handle.read(1 << 20), b""):
                    sha.update(block)
            digests[path.relative_to(directory).as_posix()] = sha.hexdigest()
    return digests
