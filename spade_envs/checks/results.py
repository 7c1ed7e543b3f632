"""A results file that makes a long validation resumable: one JSON line per finished file.

A pool of thousands of environments takes minutes to hours to validate; a run that is killed (a
preempted node, a laptop lid) must not start over. Every finished file's report is appended to the
results file as soon as it is known, and a rerun with the same file skips every environment the file
already holds a report for.

A line says which environment it is about (the label, and the ``env_id`` hash of its code) and under
which settings it was validated (``settings_digest``: the backend, the limits and the validator
configuration). A report only counts for a rerun with the same code and the same settings, so editing a
file or changing ``--examples`` validates it again. A line cut short by a kill is ignored.

The same path is read and then appended to, so ``finished`` first makes sure the file is ours: a
directory, a file that is not UTF-8 text or any line that is not one of these records (nor the start of
one, cut by a kill) is a ``ResultsFileError``, and nothing is appended to someone else's file.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import re
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from spade_envs.checks.batch import JobResult, ValidationJob, WorkerLimits
from spade_envs.checks.validate import ValidatorConfig
from spade_envs.errors import SpadeError
from spade_envs.fileio import append_whole, check_writable_directory
from spade_envs.runtime.limits import ExecutionLimits
from spade_envs.spec.models import ValidationReport, env_id_for

FORMAT = "spade-validation-results/1"
_RECORD_START = b'{"format":"spade-validation-results/'
"""How every record ``append`` writes begins (its first key is the format)."""
_OURS = re.compile(rb'\s*\{\s*"format"\s*:\s*"spade-validation-results/')


class ResultsFileError(SpadeError):
    """The results path is not a results file this command may read and append to (one line, exit 2)."""


def _is_our_line(line: bytes) -> bool:
    """A record of ours (any version, any JSON spacing), a blank line, or the start of a record cut
    short by a kill."""
    stripped = line.strip()
    return not stripped or _OURS.match(line) is not None or _RECORD_START.startswith(stripped)


def settings_digest(backend_name: str, limits: ExecutionLimits, config: ValidatorConfig,
                    worker_limits: WorkerLimits) -> str:
    """A short hash of everything besides the code that decides a report."""

    def plain(value: Any) -> Any:
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
        if isinstance(value, (set, frozenset)):
            return sorted(plain(v) for v in value)
        if isinstance(value, (list, tuple)):
            return [plain(v) for v in value]
        if isinstance(value, dict):
            return {str(k): plain(v) for k, v in value.items()}
        return value

    text = json.dumps([backend_name, plain(limits), plain(config), plain(worker_limits)], sort_keys=True,
                      default=repr)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


class ResultsFile:
    """Append-only JSON lines of finished jobs; ``finished`` reads back those made with these settings."""

    def __init__(self, path: Path, digest: str) -> None:
        self.path = path
        self.digest = digest

    def finished(self) -> dict[tuple[str, str], JobResult]:
        """(label, env_id) -> result, for every complete line made with these settings.

        Raises ``ResultsFileError`` when the path is not a results file (see the module's docstring)."""
        start_over = "give a new file name, or delete it to start over"
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            return {}
        except IsADirectoryError:
            raise ResultsFileError(f"{self.path} is a directory; name a file in it, e.g. "
                                   f"{self.path / 'results.jsonl'}") from None
        except OSError as error:
            raise ResultsFileError(f"cannot read {self.path}: {error.strerror or error}") from None
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise ResultsFileError(f"{self.path} is not a validation results file (it is not UTF-8 text); "
                                   f"{start_over}") from None
        found: dict[tuple[str, str], JobResult] = {}
        for number, line in enumerate(text.split("\n"), start=1):
            if not _is_our_line(line.encode("utf-8")):
                raise ResultsFileError(f"{self.path} is not a validation results file (line {number} is not one "
                                       f"of its records); {start_over}")
            entry = self._entry(line)
            if entry is not None:
                found[(entry.report.path or "", entry.report.env_id)] = entry
        return found

    def check_writable(self) -> None:
        """Raise ``OSError`` unless ``append`` can write here, without changing anything: called before
        the first file is validated, so that a read-only place fails at once instead of after the work."""
        if self.path.exists():
            os.close(os.open(self.path, os.O_WRONLY | os.O_APPEND))
        else:
            check_writable_directory(self.path.parent)

    def _entry(self, line: str) -> JobResult | None:
        try:
            record = json.loads(line)
        except ValueError:
            return None  # a line cut short by a kill, or not ours
        if not isinstance(record, dict) or record.get("format") != FORMAT or record.get("settings") != self.digest:
            return None
        try:
            report = ValidationReport.model_validate(record.get("report"))
        except ValidationError:
            return None
        seconds, memory, work = record.get("seconds"), record.get("memory_mb"), record.get("instructions")
        return JobResult(report, float(seconds) if isinstance(seconds, (int, float)) else 0.0,
                         float(memory) if isinstance(memory, (int, float)) else 0.0,
                         work if isinstance(work, int) and not isinstance(work, bool) and work >= 0 else None)

    def append(self, result: JobResult) -> None:
        """Add one finished job, durably enough that a kill right after it loses nothing."""
        record = {"format": FORMAT, "settings": self.digest, "report": result.report.model_dump(mode="json"),
                  "seconds": round(result.seconds, 3), "memory_mb": round(result.memory_mb, 1),
                  "instructions": result.instructions}
        line = (json.dumps(record, separators=(",", ":")) + "\n").encode("utf-8")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        append_whole(self.path, line)  # after a run killed mid-line, on a line of its own


def split_finished(jobs: list[ValidationJob], results: ResultsFile | None) -> tuple[dict[int, JobResult], list[int]]:
    """(job index -> result already in the file, indices of the jobs still to validate)."""
    known = results.finished() if results is not None else {}
    done: dict[int, JobResult] = {}
    todo: list[int] = []
    for index, job in enumerate(jobs):
        result = known.get((job.label, env_id_for(job.source)))
        if result is not None:
            done[index] = result
        else:
            todo.append(index)
    return done, todo
