"""The checker-level hostile corpus (tests/hostile/checker/): its headers, and the validator runs it is judged by.

Each program is a complete environment that attacks the *host code around the sandbox*: the checker's
analyses of what it returned, the reply checks, the human report, the batch. Its header says how the
run must end::

    # verdict: valid | invalid | any        the report's ok (any: it changes with the checker barrier)
    # findings: CHECK[|CHECK...] ...        (optional) each group names checks of which one must fail
    # never: CHECK ...                      (optional) checks that must not fail (a forged timeout is no timeout)
    # tier: static|contract|feasibility|fuzz  (optional) the tier the report says failed
    # message: TEXT                         (optional) text one finding's message contains
    # static: passes | fails                whether it gets past the static tier (the ones that pass matter most)
    # backends: wasm [process]              where it runs (default: wasm)
    # slow: REASON                          (optional) it runs in the batch with the fuzzer's full budget (100
    #                                       examples) and a short --file-timeout: it costs host time until the
    #                                       checker barrier bounds it, or needs many examples to show its attack
    # barrier: valid|invalid|any ["TEXT"]   (optional) the verdict once the checker barrier of the issue-15
    #                                       branch lands, and text a finding then holds (any: only that the
    #                                       checker neither fails nor stalls; tests/test_hostile_analysis.py)
    # attack: TEXT                          what it does

The programs are validated by the real command line, ``spade-envs validate DIR --json``, in a child
process, together with two known-good environments placed first and last in the batch, so every test can
also check that every other file of its batch was reported. The run is shared by all tests of a pytest
session (across xdist workers, through a lock file), because it is the expensive part.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spade_envs.runtime import ExecutionLimits
from tests.conftest import COUNTER_ENV, REPO_ROOT
from tests.pace import wall_seconds_for

CHECKER_DIR = Path(__file__).resolve().parent / "hostile" / "checker"
GOOD_FIRST, GOOD_LAST = "aa_known_good_first", "zz_known_good_last"
CALL_TIMEOUT_S = 1.0
FILE_TIMEOUT_S = 20.0  # only a backstop: each program's own time is held to CALL_TIMEOUT_S + 1 s over an
# ordinary file's (test_hostile_checker). At 8 s the known-good first file, which pays the batch's cold start,
# passed the limit once with the whole suite running on a slow day of the 2-core VM
SLOW_FILE_TIMEOUT_S = 30.0  # the full fuzz budget, and the probes play 5,000-digit moves on many seeds; about
# 1 s each alone, but one passed 15 s once with the whole suite running on 2 cores
FILE_MEMORY_MB = 200
MEMORY_BUDGET_MB = 256
"""No file may grow its validator's resident memory by this much (the issue's target)."""
SETTINGS = ["--timeout", f"{CALL_TIMEOUT_S:g}", "--seeds", "2", "--jobs", "2", "--file-memory", str(FILE_MEMORY_MB)]
TIMED_OUT_CALLS_AT_MOST = 2
"""Calls of one program's validation that may run to their instruction budget (a hint that hangs is met
twice: by the hint check and by its readers)."""
VERDICTS = ("valid", "invalid", "any")
TIERS = ("static", "contract", "feasibility", "fuzz")


@dataclass(frozen=True)
class CheckerProgram:
    path: Path
    verdict: str
    findings: tuple[frozenset[str], ...]
    never: frozenset[str]
    tier: str | None
    message: str | None
    static: str
    backends: tuple[str, ...]
    slow: str | None
    barrier: tuple[str, str | None] | None
    attack: str

    @property
    def name(self) -> str:
        return self.path.stem


def _header(lines: list[str], key: str) -> str | None:
    for line in lines:
        match = re.match(rf"#\s*{key}:\s*(.+?)\s*$", line)
        if match:
            return match.group(1)
    return None


def read_checker_program(path: Path) -> CheckerProgram:
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.startswith("#")]
    verdict = _header(lines, "verdict")
    static = _header(lines, "static")
    attack = _header(lines, "attack")
    if verdict not in VERDICTS or static not in ("passes", "fails") or not attack:
        raise ValueError(f"{path.name}: needs '# verdict: valid|invalid|any', '# static: passes|fails' and "
                         "'# attack: ...' headers")
    tier = _header(lines, "tier")
    if tier is not None and tier not in TIERS:
        raise ValueError(f"{path.name}: unknown tier {tier!r}")
    barrier = None
    if (text := _header(lines, "barrier")) is not None:
        match = re.fullmatch(r'(valid|invalid|any)(?:\s+"([^"]+)")?', text)
        if match is None:
            raise ValueError(f"{path.name}: '# barrier: valid|invalid|any [\"TEXT\"]', got {text!r}")
        barrier = (match.group(1), match.group(2))
    return CheckerProgram(
        path=path,
        verdict=verdict,
        findings=tuple(frozenset(group.split("|")) for group in (_header(lines, "findings") or "").split()),
        never=frozenset((_header(lines, "never") or "").split()),
        tier=tier,
        message=_header(lines, "message"),
        static=static,
        backends=tuple((_header(lines, "backends") or "wasm").split()),
        slow=_header(lines, "slow"),
        barrier=barrier,
        attack=attack,
    )


CHECKER_PROGRAMS = [read_checker_program(path) for path in sorted(CHECKER_DIR.glob("*.py"))]
BY_NAME = {program.name: program for program in CHECKER_PROGRAMS}


# --------------------------------------------------------------------------------------------- the runs
@dataclass(frozen=True)
class CorpusRun:
    """One ``spade-envs validate DIR --json`` over a batch of corpus programs and the two known-good files."""

    names: tuple[str, ...]
    """Every file of the batch, by stem."""
    returncode: int
    output: str
    """stdout and stderr together (must hold no traceback)."""
    seconds: float
    results: dict[str, dict[str, Any]]
    host: dict[str, dict[str, float]]
    file_timeout_s: float

    def report(self, name: str) -> dict[str, Any]:
        return self.results[name]


RUNS: dict[str, tuple[str, tuple[str, ...], float, int]] = {
    # kind -> (backend, programs, per-file limit, fuzz examples)
    "wasm": ("wasm", tuple(p.name for p in CHECKER_PROGRAMS if not p.slow), FILE_TIMEOUT_S, 4),
    "process": ("process", tuple(p.name for p in CHECKER_PROGRAMS if not p.slow and "process" in p.backends),
                FILE_TIMEOUT_S, 4),
    "slow": ("wasm", tuple(p.name for p in CHECKER_PROGRAMS if p.slow), SLOW_FILE_TIMEOUT_S, 100),
}


def _run(kind: str, folder: Path) -> dict[str, Any]:
    backend, programs, file_timeout, examples = RUNS[kind]
    batch = folder / f"batch-{kind}"
    shutil.rmtree(batch, ignore_errors=True)
    batch.mkdir(parents=True)
    for name in programs:
        shutil.copy(BY_NAME[name].path, batch / f"{name}.py")
    for name in (GOOD_FIRST, GOOD_LAST):
        (batch / f"{name}.py").write_text(COUNTER_ENV.replace("CounterEnv", "KnownGoodEnv"))
    command = [sys.executable, "-m", "spade_envs.cli", "validate", str(batch), "--json", "--sandbox", backend,
               "--file-timeout", f"{file_timeout:g}", "--examples", str(examples), *SETTINGS]
    started = time.monotonic()
    completed = subprocess.run(command, cwd=REPO_ROOT, capture_output=True, text=True, timeout=300, check=False)
    seconds = time.monotonic() - started
    try:
        document = json.loads(completed.stdout)
    except ValueError:
        document = {"results": [], "host": []}
    return {
        "names": [*programs, GOOD_FIRST, GOOD_LAST],
        "returncode": completed.returncode,
        "output": completed.stderr + ("" if document["results"] else completed.stdout[-2000:]),
        "seconds": seconds,
        "results": {Path(r["path"]).stem: r for r in document["results"]},
        "host": {Path(h["path"]).stem: h for h in document["host"]},
        "file_timeout_s": file_timeout,
    }


def corpus_run(kind: str, tmp_path_factory: Any) -> CorpusRun:
    """The run of one batch, made once per pytest session however many xdist workers ask for it."""
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    cache = shared / f"hostile-corpus-{kind}.json"
    with open(shared / f"hostile-corpus-{kind}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if cache.exists():
            data = json.loads(cache.read_text())
        else:
            data = _run(kind, shared)
            cache.write_text(json.dumps(data))
    return CorpusRun(names=tuple(data["names"]), returncode=data["returncode"], output=data["output"],
                     seconds=data["seconds"], results=data["results"], host=data["host"],
                     file_timeout_s=data["file_timeout_s"])


def failed_tier(report: dict[str, Any]) -> str | None:
    return next((t["tier"] for t in report["tiers"] if t["status"] == "failed"), None)


def failed_checks(report: dict[str, Any]) -> set[str]:
    return {f["check"] for f in report["failures"]}


# --------------------------------------------------------------------------------------------- host cost
def ordinary_seconds(run: CorpusRun) -> float:
    """How long validating a known-good file took in this batch."""
    return max(run.host[name]["seconds"] for name in (GOOD_FIRST, GOOD_LAST) if name in run.host)


def ordinary_instructions(run: CorpusRun) -> int:
    """The guest work of validating a known-good file in this batch (sandbox only)."""
    return max(run.host[name]["guest_instructions"] for name in (GOOD_FIRST, GOOD_LAST) if name in run.host)


def sandbox_allowance(program: CheckerProgram, run: CorpusRun) -> tuple[int, float]:
    """The guest instructions a program's validation may cost in the sandbox, and the wall-clock backstop
    for its actual cost: a few ordinary validations and two calls run to their limit, and that work at
    the pace of a machine three times slower than the reference VM."""
    limit = ExecutionLimits(call_timeout_s=CALL_TIMEOUT_S).call_instructions or 0
    instructions_allowed = 4 * ordinary_instructions(run) + TIMED_OUT_CALLS_AT_MOST * limit
    spent = run.host.get(program.name, {}).get("guest_instructions") or 0
    seconds = ordinary_seconds(run) + 1 + wall_seconds_for(spent)
    return instructions_allowed, seconds
