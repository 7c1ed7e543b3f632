"""A results file that makes a long validation resumable: one JSON line per finished file.

A pool of thousands of environments takes minutes to hours to validate; a run that is killed (a
preempted node, a laptop lid) must not start over. Every finished file's report is appended to the
results file as soon as it is known, and a rerun with the same file skips every environment the file
already holds a report for.

A line says which environment it is about (the label, and the ``env_id`` hash of its code) and under
which settings it was validated (``settings_digest``: the backend, the limits and the validator
configuration). A report only counts for a rerun with the same code and the same settings, so editing a
file or changing ``--examples`` validates it again. A line cut short by a kill is ignored.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from spade_envs.checks.batch import JobResult, ValidationJob, WorkerLimits
from spade_envs.checks.validate import ValidatorConfig
from spade_envs.runtime.limits import ExecutionLimits
from spade_envs.spec.models import ValidationReport, env_id_for

FORMAT = "spade-validation-results/1"


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
        """(label, env_id) -> result, for every complete line made with these settings."""
        found: dict[tuple[str, str], JobResult] = {}
        try:
            with self.path.open(encoding="utf-8") as lines:
                for line in lines:
                    entry = self._entry(line)
                    if entry is not None:
                        found[(entry.report.path or "", entry.report.env_id)] = entry
        except FileNotFoundError:
            pass
        return found

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
        descriptor = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            if os.fstat(descriptor).st_size and not _ends_with_newline(self.path):
                line = b"\n" + line  # the previous run was killed in the middle of a line
            os.write(descriptor, line)
        finally:
            os.close(descriptor)


def _ends_with_newline(path: Path) -> bool:
    with path.open("rb") as handle:
        handle.seek(-1, os.SEEK_END)
        return handle.read(1) == b"\n"


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
