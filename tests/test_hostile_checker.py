"""Hostile environments against the host code around the sandbox, judged through ``spade-envs validate``.

The programs are in tests/hostile/checker/ (see tests/hostile_corpus.py for their headers). For every one,
run in a batch with two known-good files by the real command line in a child process:

* the verdict, the findings and the tier its header names, and that its findings are bounded (one-line
  messages, lines of its own source, a bounded class name);
* the exit code of the batch (1: it holds invalid files) and no traceback anywhere;
* that every other file of its batch was reported, the known-good ones as valid;
* that validating it grew its worker's resident memory by less than 256 MB;
* in the sandbox, that the guest work it cost (instructions, counted the same on every machine and load) is
  at most ``TIMED_OUT_CALLS_AT_MOST`` calls run to their limit beyond a few ordinary validations: the
  limit held, and what the host did around it was not repeated without end;
* that it took no more wall-clock time than a machine three times slower than the project's 2-core VM
  would need for that work beside an ordinary file of the same batch (a generous backstop: a verdict on
  seconds tighter than that is a coin toss on a slower or busier machine). With the process backend the
  call limit is wall-clock time itself, and the bound is twice the limit plus an ordinary file's time.
  Programs marked ``slow`` run in a batch of their own with the fuzzer's full budget and a
  ``--file-timeout``, and are held to that limit.

Expectations that need that checker barrier (a precise finding instead of a checker failure, host time
within the call limit) are in tests/test_hostile_analysis.py.
"""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from spade_envs.cliutil import EXIT_INVALID
from tests.conftest import COUNTER_ENV, REPO_ROOT
from tests.hostile_corpus import (
    CALL_TIMEOUT_S,
    CHECKER_PROGRAMS,
    GOOD_FIRST,
    GOOD_LAST,
    MEMORY_BUDGET_MB,
    TIMED_OUT_CALLS_AT_MOST,
    CheckerProgram,
    CorpusRun,
    corpus_run,
    failed_checks,
    failed_tier,
    ordinary_seconds,
    sandbox_allowance,
)

NEW_PROGRAMS_AT_LEAST = 30
MAX_CLASS_NAME_CHARS = 200


@pytest.fixture(scope="module")
def wasm_run(tmp_path_factory) -> CorpusRun:
    return corpus_run("wasm", tmp_path_factory)


@pytest.fixture(scope="module")
def process_run(tmp_path_factory) -> CorpusRun:
    return corpus_run("process", tmp_path_factory)


@pytest.fixture(scope="module")
def slow_run(tmp_path_factory) -> CorpusRun:
    return corpus_run("slow", tmp_path_factory)


def batch_problems(run: CorpusRun) -> list[str]:
    """What is wrong with the batch as a whole: exit code, tracebacks, lost reports, the known-good files."""
    problems = []
    if run.returncode != EXIT_INVALID:
        problems.append(f"the batch exited with {run.returncode}, expected {EXIT_INVALID}")
    if "Traceback" in run.output:
        problems.append(f"a traceback was printed: {run.output[-600:]}")
    missing = sorted(set(run.names) - set(run.results))
    if missing or len(run.results) != len(run.names):
        problems.append(f"files of the batch without a report: {missing} ({len(run.results)} of {len(run.names)})")
    for good in (GOOD_FIRST, GOOD_LAST):
        report = run.results.get(good)
        if report is not None and not report["ok"]:
            problems.append(f"the known-good {good} was reported invalid: {report['failures']}")
    return problems


def program_problems(program: CheckerProgram, run: CorpusRun, *, seconds_allowed: float,
                     instructions_allowed: int | None = None) -> list[str]:
    """Why ``program``'s report in ``run`` is not what its header says, or breaks a host limit."""
    report = run.results.get(program.name)
    if report is None:
        return [f"{program.name} has no report"]
    problems = []
    checks = failed_checks(report)
    if program.verdict != "any" and report["ok"] != (program.verdict == "valid"):
        problems.append(f"ok={report['ok']}, expected {program.verdict}: {report['failures']}")
    for group in program.findings:
        if not group & checks:
            problems.append(f"no finding of {'/'.join(sorted(group))}; failed checks: {sorted(checks)}")
    if program.never & checks:
        problems.append(f"findings it must not have: {sorted(program.never & checks)}")
    if program.tier is not None and failed_tier(report) != program.tier:
        problems.append(f"failed tier {failed_tier(report)}, expected {program.tier}: {report['tiers']}")
    if program.message is not None and not any(program.message in f["message"] for f in report["failures"]):
        problems.append(f"no finding says {program.message!r}: {[f['message'] for f in report['failures']]}")
    static = next(t["status"] for t in report["tiers"] if t["tier"] == "static")
    if (static == "passed") != (program.static == "passes") and static != "skipped":
        problems.append(f"the static tier {static}, the header says it {program.static}")
    source_lines = program.path.read_text(encoding="utf-8").count("\n") + 1
    for finding in report["failures"] + report["warnings"]:
        if "\n" in finding["message"] or len(finding["message"]) > 2_000:
            problems.append(f"[{finding['check']}] message is not one bounded line ({len(finding['message'])} chars)")
        if finding["line"] is not None and not 1 <= finding["line"] <= source_lines:
            problems.append(f"[{finding['check']}] line {finding['line']} is not a line of the source")
    if report["class_name"] is not None and len(report["class_name"]) > MAX_CLASS_NAME_CHARS:
        problems.append(f"class name of {len(report['class_name'])} characters")
    host = run.host[program.name]
    if host["peak_memory_mb"] >= MEMORY_BUDGET_MB:
        problems.append(f"its validation grew the host by {host['peak_memory_mb']:.0f} MB")
    if instructions_allowed is not None:
        spent = host.get("guest_instructions")
        if not isinstance(spent, int):
            problems.append(f"the sandbox counted no guest instructions for it ({spent!r})")
        elif spent > instructions_allowed:
            problems.append(f"its validation executed {spent:.3g} guest instructions, more than "
                            f"{instructions_allowed:.3g} (a few ordinary validations and {TIMED_OUT_CALLS_AT_MOST} "
                            "calls run to their limit)")
    if host["seconds"] > seconds_allowed:
        problems.append(f"its validation took {host['seconds']:.2f} s, more than {seconds_allowed:.3g} s")
    return problems


def _ids(programs: list[CheckerProgram]) -> list[Any]:
    return [pytest.param(program, id=program.name) for program in programs]


FAST = [p for p in CHECKER_PROGRAMS if not p.slow]
SLOW = [p for p in CHECKER_PROGRAMS if p.slow]
PROCESS = [p for p in FAST if "process" in p.backends]


@pytest.mark.parametrize("program", _ids(FAST))
def test_hostile_program_through_the_validator_in_wasm(program: CheckerProgram, wasm_run: CorpusRun) -> None:
    instructions, seconds = sandbox_allowance(program, wasm_run)
    problems = batch_problems(wasm_run) + program_problems(program, wasm_run, seconds_allowed=seconds,
                                                           instructions_allowed=instructions)
    assert not problems, f"{program.name}: {problems}"


@pytest.mark.parametrize("program", _ids(PROCESS))
def test_hostile_program_through_the_validator_in_process(program: CheckerProgram, process_run: CorpusRun) -> None:
    allowed = 2 * (CALL_TIMEOUT_S + ordinary_seconds(process_run)) + 2
    problems = batch_problems(process_run) + program_problems(program, process_run, seconds_allowed=allowed)
    assert not problems, f"{program.name}: {problems}"


@pytest.mark.parametrize("program", _ids(SLOW))
def test_host_time_is_bounded_by_the_file_limit(program: CheckerProgram, slow_run: CorpusRun) -> None:
    """Until the checker barrier bounds these analyses, the batch supervisor stops them at --file-timeout."""
    problems = batch_problems(slow_run) + program_problems(program, slow_run,
                                                           seconds_allowed=slow_run.file_timeout_s + 1)
    assert not problems, f"{program.name}: {problems}"


def test_corpus_headers_and_size() -> None:
    assert len(CHECKER_PROGRAMS) >= NEW_PROGRAMS_AT_LEAST
    passing_static = [p.name for p in CHECKER_PROGRAMS if p.static == "passes"]
    assert len(passing_static) >= 20, passing_static
    for program in CHECKER_PROGRAMS:
        try:
            tree = ast.parse(program.path.read_text(encoding="utf-8"))
        except RecursionError:  # too deep to parse is the point of one program
            assert program.findings == (frozenset({"syntax"}),), program.name
            continue
        classes = [n.name for n in tree.body if isinstance(n, ast.ClassDef) and n.name.endswith("Env")
                   and not n.name.startswith("_")]
        assert len(classes) == 1, f"{program.name}: expected one public *Env class, found {classes}"
        assert program.verdict != "valid" or not (program.findings or program.tier), program.name


# --------------------------------------------------------------------------------------------- batches
def _cli(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    # Wide lines: these tests read the report line by line (long temporary paths would wrap).
    return subprocess.run([sys.executable, "-m", "spade_envs.cli", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=180, check=False, env={**os.environ, "COLUMNS": "400"})


def test_one_worker_batch_survives_a_checker_crash_and_a_memory_blowup(tmp_path: Path) -> None:
    """--jobs 1: one file that made the checker raise and one that made it grow without bound, between two
    good files: every file gets its report (the bad ones invalid), within the memory budget, no traceback."""
    names = ["a_good", "b_max_turns_negative", "c_max_turns_20_million", "d_good"]
    (tmp_path / "a_good.py").write_text(COUNTER_ENV)
    (tmp_path / "d_good.py").write_text(COUNTER_ENV)
    for name in names[1:3]:
        (tmp_path / f"{name}.py").write_text((REPO_ROOT / "tests/hostile/checker" / f"{name[2:]}.py").read_text())
    completed = _cli(["validate", str(tmp_path), "--json", "--jobs", "1", "--timeout", "1", "--examples", "2",
                      "--seeds", "2", "--file-memory", "200"], tmp_path)
    assert completed.returncode == EXIT_INVALID and "Traceback" not in completed.stderr, completed.stderr[-500:]
    document = json.loads(completed.stdout)
    reports = {Path(r["path"]).stem: r for r in document["results"]}
    assert list(reports) == names
    assert reports["a_good"]["ok"] and reports["d_good"]["ok"]
    assert not reports["b_max_turns_negative"]["ok"] and not reports["c_max_turns_20_million"]["ok"]
    assert all(h["peak_memory_mb"] < MEMORY_BUDGET_MB for h in document["host"]), document["host"]


SPOOFERS = ["spoof_class_name_ansi", "spoof_class_name_bidi", "spoof_exception_message", "spoof_traceback_source",
            "spoof_exception_type_name", "spoof_hint", "spoof_observation_preview"]


def test_the_human_report_cannot_be_spoofed(tmp_path: Path) -> None:
    """Control, escape and bidi characters the environments chose are shown escaped: the report has one
    ok line (the good file's), the true summary, and no character that drives a terminal."""
    (tmp_path / "good.py").write_text(COUNTER_ENV)
    for name in SPOOFERS:
        (tmp_path / f"{name}.py").write_text((REPO_ROOT / "tests/hostile/checker" / f"{name}.py").read_text())
    completed = _cli(["validate", str(tmp_path), "--jobs", "2", "--timeout", "1", "--examples", "2", "--seeds", "2"],
                     tmp_path)
    out = completed.stdout
    assert completed.returncode == EXIT_INVALID, completed.stderr[-500:]
    unsafe = sorted({hex(ord(c)) for c in out if (ord(c) < 32 and c != "\n") or 0x7F <= ord(c) <= 0x9F
                     or c in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200b\u200d\u200e\u200f"})
    assert not unsafe, f"unescaped characters in the human report: {unsafe}"
    ok_lines = [line for line in out.splitlines() if re.match(r"\[ *\d+/\d+\] ok ", line)]  # counters are padded
    assert len(ok_lines) == 1 and "good.py" in ok_lines[0], out[:600]
    assert out.rstrip().splitlines()[-1].startswith(f"1 valid, {len(SPOOFERS)} invalid"), out[-300:]
    assert "\\x1b[2K" in out  # shown, not obeyed
