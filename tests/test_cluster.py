"""Pools validated on Ray, resumable results files, and the progress line.

The Ray test starts a local cluster of its own (two CPUs), validates on it through the API with a Ray
worker killed in the middle, then through the command line as a second driver on the same cluster, with
that driver killed in the middle and run again. It also checks that starting and stopping Ray leaves this
process's sandbox able to turn a guest trap into an error.
"""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from spade_envs.checks.batch import JobResult, ValidationJob, WorkerLimits
from spade_envs.checks.progress import Progress
from spade_envs.checks.results import ResultsFile, settings_digest, split_finished
from spade_envs.checks.validate import ValidatorConfig
from spade_envs.cli import main
from spade_envs.fuzz.runner import FuzzConfig
from spade_envs.runtime import ExecutionLimits
from spade_envs.spec.models import ValidationReport, env_id_for

ZOO = Path(__file__).resolve().parent / "zoo"
CASES = {  # zoo file -> the check it fails, or None for a valid environment
    "valid_single_answer": None,
    "valid_small_task_space": None,
    "valid_balanced_yes_no": None,
    "reward_out_of_range": "reward_range",
    "garbage_index_error": "garbage_actions",
    "fuzz_post_win_reward": "fuzz_post_episode",
}
CONFIG = ValidatorConfig(fuzz=FuzzConfig(examples=20))
LIMITS = ExecutionLimits(call_timeout_s=5.0)


def _jobs() -> list[ValidationJob]:
    return [ValidationJob(str(ZOO / f"{name}.py"), (ZOO / f"{name}.py").read_text(encoding="utf-8"))
            for name in CASES]


def _check_verdicts(reports: list[ValidationReport]) -> None:
    assert len(reports) == len(CASES)
    for report in reports:
        expected = CASES[Path(report.path or "").stem]
        if expected is None:
            assert report.ok, (report.path, [(f.check, f.message) for f in report.failures])
        else:
            assert expected in {f.check for f in report.failures}, (report.path, report.failures)


def _cli(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(argv), out=out, stdin=io.StringIO("")), out.getvalue()


# ---------------------------------------------------------------------- the results file
def _result(path: str, source: str, ok: bool = True) -> JobResult:
    report = ValidationReport(path=path, env_id=env_id_for(source), backend="wasm", ok=ok, duration_s=1.5)
    return JobResult(report, 1.5, 12.0, 7_000_000_000 if ok else None)


def test_results_file_keeps_finished_jobs_and_ignores_cut_lines(tmp_path: Path) -> None:
    jobs = [ValidationJob("a.py", "A = 1"), ValidationJob("b.py", "B = 2"), ValidationJob("c.py", "C = 3")]
    path = tmp_path / "results.jsonl"
    digest = settings_digest("wasm", LIMITS, CONFIG, WorkerLimits())
    results = ResultsFile(path, digest)
    results.append(_result("a.py", "A = 1"))
    with path.open("a", encoding="utf-8") as handle:
        handle.write('{"format": "spade-validation-results/1", "settings": "')  # killed mid-line
    results.append(_result("b.py", "B = 2", ok=False))

    done, todo = split_finished(jobs, results)
    assert sorted(done) == [0, 1] and todo == [2]
    assert done[1].report.ok is False and done[0].seconds == 1.5 and done[0].memory_mb == 12.0
    assert done[0].instructions == 7_000_000_000 and done[1].instructions is None  # the guest work, where counted

    other_settings = ResultsFile(path, settings_digest("wasm", LIMITS, ValidatorConfig(), WorkerLimits()))
    assert split_finished(jobs, other_settings) == ({}, [0, 1, 2])  # another configuration validates again
    edited = [ValidationJob("a.py", "A = 10")] + jobs[1:]
    assert 0 in split_finished(edited, results)[1]  # so does edited code


def test_settings_digest_is_stable_across_processes() -> None:
    digest = settings_digest("wasm", LIMITS, CONFIG, WorkerLimits())
    code = ("from spade_envs.checks.results import settings_digest; from spade_envs.checks.batch import WorkerLimits;"
            "from spade_envs.checks.validate import ValidatorConfig; from spade_envs.fuzz.runner import FuzzConfig;"
            "from spade_envs.runtime import ExecutionLimits;"
            "print(settings_digest('wasm', ExecutionLimits(call_timeout_s=5.0), "
            "ValidatorConfig(fuzz=FuzzConfig(examples=20)), WorkerLimits()))")
    other = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert other == digest  # frozensets of module names must not change it


def test_cli_resumes_from_its_results_file(tmp_path: Path) -> None:
    results = tmp_path / "results.jsonl"
    first = [str(ZOO / "valid_single_answer.py"), str(ZOO / "reward_out_of_range.py")]
    code, _ = _cli("validate", *first, "--examples", "5", "--results", str(results), "--json")
    assert code == 1 and len(results.read_text().splitlines()) == 2
    everything = first + [str(ZOO / "valid_small_task_space.py")]
    code, out = _cli("validate", *everything, "--examples", "5", "--results", str(results), "--json")
    document = json.loads(out)
    assert code == 1
    assert document["summary"]["validated"] == 1 and document["summary"]["already_done"] == 2
    assert [r["path"] for r in document["results"]] == everything  # the report keeps the command line's order
    assert [r["ok"] for r in document["results"]] == [True, False, True]
    assert len(results.read_text().splitlines()) == 3
    # the sandbox's count of guest work, kept in the results file for the files validated earlier
    assert all(isinstance(h["guest_instructions"], int) and h["guest_instructions"] > 0 for h in document["host"])


def test_progress_line_counts_rate_and_resumed_files() -> None:
    stream = io.StringIO()
    progress = Progress(10, stream, already_done=4, every_s=0.0)
    progress.advance()
    progress.advance(ok=False)
    line = stream.getvalue().splitlines()[-1]
    assert " 6/10 envs" in line and "1 invalid" in line
    assert "envs/s" not in line and "eta" not in line  # 2 files in microseconds: no rate worth showing
    progress._started -= 10.0  # as if the files had taken 10 s
    progress.advance()
    line = stream.getvalue().splitlines()[-1]
    assert " 7/10 envs  0.3 envs/s  1 invalid  eta 10s" in line


# ---------------------------------------------------------------------- Ray
def check_pool_survives_a_killed_worker_and_a_killed_driver(ray: Any, tmp_path: Path) -> None:
    """A pool validated on the running Ray cluster (it needs two free CPUs) survives a killed worker and a
    killed driver. ``tests/test_ray_cluster.py`` runs it, in the one test that starts Ray for every check
    that needs a cluster (two clusters at once on 2 cores thrash, and each takes seconds to start)."""
    from spade_envs.cluster import RaySettings
    from spade_envs.cluster.ray_validate import RayValidation

    jobs = _jobs()
    # The API: a worker killed after the first report; its files are validated again elsewhere.
    with RayValidation("wasm", LIMITS, CONFIG, settings=RaySettings(workers=2)) as cluster:
        pids = cluster.worker_pids()
        assert len(set(pids)) == 2
        finished: dict[int, JobResult] = {}
        for index, result in cluster.run(jobs):
            if not finished:
                os.kill(pids[0], signal.SIGKILL)
            finished[index] = result
        assert sorted(finished) == list(range(len(jobs)))
        _check_verdicts([finished[i].report for i in range(len(jobs))])
        assert not any("Ray worker" in f.message for r in finished.values() for f in r.report.failures)
        assert cluster.worker_pids()[0] != pids[0]  # Ray restarted the killed worker

    # The command line, as another driver on this cluster: killed after its first report, then run again.
    address = ray.get_runtime_context().gcs_address
    results = tmp_path / "results.jsonl"
    command = [sys.executable, "-m", "spade_envs.cli", "validate", *[job.label for job in jobs],
               "--examples", "20", "--timeout", "5", "--ray", address, "--results", str(results), "--json"]
    driver = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and driver.poll() is None:
        if results.exists() and results.read_text().count("\n") >= 1:
            break
        time.sleep(0.2)
    driver.kill()
    driver.communicate()
    done_before = results.read_text().count("\n")
    assert 1 <= done_before
    rerun = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    assert rerun.returncode == 1, rerun.stderr[-2000:]
    document = json.loads(rerun.stdout)
    assert document["summary"]["already_done"] == done_before
    assert document["summary"]["validated"] == len(jobs) - done_before  # no file validated twice
    assert "envs/s" in rerun.stderr  # the progress line
    _check_verdicts([ValidationReport.model_validate(r) for r in document["results"]])
    lines = [json.loads(line) for line in results.read_text().splitlines() if line.strip().endswith("}")]
    assert sorted(line["report"]["path"] for line in lines) == sorted(job.label for job in jobs)
