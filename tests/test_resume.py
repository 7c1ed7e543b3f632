"""Nothing a run made is lost on resume: every file it reads is checked first, a damaged one is refused in
one line (exit 2) with nothing written, ``--repair`` restores history from the checkpoint's copies, and a
run killed anywhere in an iteration resumes to exactly what an uninterrupted run leaves.

All on one tiny embedded run (real model, sandbox, checker and memory), copied for each case."""

from __future__ import annotations

import hashlib
import io
import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from spade_train.cli import main
from spade_train.run.directory import RunDirectory
from spade_train.run.records import HISTORY_FILES, RunDirectoryError, read_json_lines
from tests.conftest import REPO_ROOT
from tests.mounts import read_only, read_only_dir, small_disk  # noqa: F401 - fixtures
from tests.pace import SLOWER_MACHINE
from tests.tiny_runs import RESUMED_RUN, tiny_run_config

pytest.importorskip("torch")
pytest.importorskip("transformers")

KILLED_RUN = REPO_ROOT / "tests" / "orphans" / "killed_run.py"


@pytest.fixture(scope="module")
def config(tmp_path_factory) -> Path:
    return tiny_run_config(tmp_path_factory.mktemp("config"), **RESUMED_RUN)


@pytest.fixture(scope="module")
def finished(tmp_path_factory, config) -> Path:
    """A run of two iterations whose memory holds environments and evaluations."""
    out = tmp_path_factory.mktemp("finished") / "run"
    assert main(["run", "--config", str(config), "--out", str(out)], out=io.StringIO()) == 0
    assert _memory_rows(out)["evaluations"], "the fixture run played nothing: the memory cases test nothing"
    return out


def _copy(run: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "run"
    shutil.copytree(run, copy)
    return copy


def _digests(run: Path) -> dict[str, str]:
    return {path.relative_to(run).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
            for path in sorted(run.rglob("*")) if path.is_file()}


def _memory_rows(run: Path) -> dict[str, list[tuple]]:
    """The memory's rows without their wall-clock timestamps."""
    conn = sqlite3.connect(run / "memory.sqlite3")
    try:
        return {"environments": conn.execute("SELECT id, valid, spec_json, designer_step, designer_iteration "
                                             "FROM environments ORDER BY id").fetchall(),
                "evaluations": conn.execute("SELECT id, env_id, step, unhinted_win_rate, hinted_win_rate, regret, "
                                            "plays FROM evaluations ORDER BY id").fetchall()}
    finally:
        conn.close()


def _run(config: Path, run: Path, *extra: str) -> tuple[int, str, str]:
    """``spade-train run`` in this process: its exit code, output and error output."""
    out, err = io.StringIO(), io.StringIO()
    saved, sys.stderr = sys.stderr, err
    try:
        code = main(["run", "--config", str(config), "--out", str(run), *extra], out=out)
    finally:
        sys.stderr = saved
    return code, out.getvalue(), err.getvalue()


def _resume(config: Path, run: Path, *extra: str, iterations: int = 2) -> tuple[int, str, str]:
    return _run(config, run, "--resume", "--set", f"run.iterations={iterations}", *extra)


def _garbage(path: Path, size: int = 3000) -> None:
    path.write_bytes(random.Random(0).randbytes(size))


def _drop_an_evaluation(run: Path) -> None:
    conn = sqlite3.connect(run / "memory.sqlite3")
    conn.execute("DELETE FROM evaluations WHERE id = (SELECT MAX(id) FROM evaluations)")
    conn.commit()
    conn.close()


def _edit_first_row(path: Path) -> None:
    lines = path.read_text().splitlines()
    row = json.loads(lines[0])
    row["edited"] = True
    path.write_text("\n".join([json.dumps(row), *lines[1:]]) + "\n")


def _garbage_line_in_the_middle(path: Path) -> None:
    lines = path.read_bytes().splitlines()
    path.write_bytes(b"\n".join([lines[0], b"\x8a\xff not json", *lines[1:]]) + b"\n")


HISTORY_DAMAGE: dict[str, tuple[str, Callable[[Path], None]]] = {
    "memory emptied": ("memory.sqlite3 holds 0 environments", lambda r: (r / "memory.sqlite3").write_bytes(b"")),
    "memory deleted": ("memory.sqlite3 is missing", lambda r: (r / "memory.sqlite3").unlink()),
    "memory truncated": ("memory.sqlite3 is not a sound SQLite database",
                         lambda r: os.truncate(r / "memory.sqlite3", 5000)),
    "memory random bytes": ("memory.sqlite3 is not a sound SQLite database",
                            lambda r: _garbage(r / "memory.sqlite3", 20000)),
    "memory lost a row": ("fewer than the", _drop_an_evaluation),
    "metrics deleted": ("metrics.jsonl is missing", lambda r: (r / "metrics.jsonl").unlink()),
    "metrics emptied": ("metrics.jsonl holds none of the 2 rows", lambda r: (r / "metrics.jsonl").write_text("")),
    "metrics row edited": ("metrics.jsonl differs from the checkpoint's copy at row 1",
                           lambda r: _edit_first_row(r / "metrics.jsonl")),
    "metrics a directory": ("cannot read", lambda r: ((r / "metrics.jsonl").unlink(), (r / "metrics.jsonl").mkdir())),
    "metrics damaged mid-file": ("metrics.jsonl has an unreadable line 2",
                                 lambda r: _garbage_line_in_the_middle(r / "metrics.jsonl")),
    "timings deleted": ("timings.jsonl is missing", lambda r: (r / "timings.jsonl").unlink()),
    "attempts deleted": ("attempts.jsonl is missing", lambda r: (r / "attempts.jsonl").unlink()),
    "attempts damaged mid-file": ("attempts.jsonl has an unreadable line 2",
                                  lambda r: _garbage_line_in_the_middle(r / "attempts.jsonl")),
}

CHECKPOINT_DAMAGE: dict[str, tuple[str, Callable[[Path], None]]] = {
    "state garbage": ("trainer_state.json cannot be read",
                      lambda r: (r / "checkpoints/latest/trainer_state.json").write_text("garbage")),
    "state not a table": ("is not a checkpoint's state",
                          lambda r: (r / "checkpoints/latest/trainer_state.json").write_text("[1, 2]")),
    "state step a string": ("is not a checkpoint's state",
                            lambda r: (r / "checkpoints/latest/trainer_state.json").write_text('{"step": "2"}')),
    "weights random": ("checkpoints/latest/model.safetensors is damaged",
                       lambda r: _garbage(r / "checkpoints/latest/model.safetensors")),
    "weights truncated": ("checkpoints/latest/model.safetensors is damaged",
                          lambda r: os.truncate(r / "checkpoints/latest/model.safetensors", 20000)),
    "optimizer garbage": ("checkpoints/latest/optimizer.pt is damaged",
                          lambda r: (r / "checkpoints/latest/optimizer.pt").write_text("garbage")),
    "tokenizer garbage": ("checkpoints/latest/tokenizer.json is damaged",
                          lambda r: (r / "checkpoints/latest/tokenizer.json").write_text("garbage")),
    "model config missing": ("checkpoints/latest/config.json is missing",
                             lambda r: (r / "checkpoints/latest/config.json").unlink()),
    # Tensor bytes replaced behind a valid header load without complaint: only the digest sees them.
    "reference tensors random": ("checkpoints/reference/model.safetensors is damaged",
                                 lambda r: _scramble_tensors(r / "checkpoints/reference/model.safetensors")),
    "reference deleted": ("checkpoints/reference is missing", lambda r: shutil.rmtree(r / "checkpoints/reference")),
    "reference digests garbage": ("checkpoints/reference/files.json cannot be read",
                                  lambda r: _garbage(r / "checkpoints/reference/files.json", 100)),
}


def _scramble_tensors(path: Path) -> None:
    data = path.read_bytes()
    header = 8 + int.from_bytes(data[:8], "little")
    path.write_bytes(data[:header] + random.Random(1).randbytes(len(data) - header))


@pytest.mark.parametrize("case", [*HISTORY_DAMAGE, *CHECKPOINT_DAMAGE])
def test_a_damaged_file_is_refused_in_one_line_and_nothing_is_written(finished, config, tmp_path, case):
    run = _copy(finished, tmp_path)
    message, damage = {**HISTORY_DAMAGE, **CHECKPOINT_DAMAGE}[case]
    damage(run)
    before = _digests(run)
    code, _, err = _resume(config, run, iterations=3)
    assert code == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    assert message in err, err
    repairable = case in HISTORY_DAMAGE and case != "metrics a directory"
    assert ("pass --repair" in err) == repairable and ("another --out" in err) == (case != "metrics a directory"), err
    assert _digests(run) == before  # refused before anything was written


@pytest.mark.parametrize("case", [*CHECKPOINT_DAMAGE, "memory random bytes"])
def test_the_probe_refuses_a_damaged_run_in_one_line(finished, tmp_path, case, capsys):
    run = _copy(finished, tmp_path)
    message, damage = {**HISTORY_DAMAGE, **CHECKPOINT_DAMAGE}[case]
    damage(run)
    assert main(["probe", str(run)], out=io.StringIO()) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    assert message in err, err


@pytest.mark.parametrize("case", [case for case in HISTORY_DAMAGE if case != "metrics a directory"])
def test_repair_restores_history_from_the_checkpoint_and_says_so(finished, tmp_path, case):
    run = _copy(finished, tmp_path)
    HISTORY_DAMAGE[case][1](run)
    directory = RunDirectory.open(run, resume=True, repair=True)
    assert directory.resume_notes and all(note.startswith("repaired ") for note in directory.resume_notes)
    for name in ("metrics.jsonl", "timings.jsonl", "attempts.jsonl"):
        assert (run / name).read_bytes() == (finished / name).read_bytes()
    assert _memory_rows(run) == _memory_rows(finished)


def test_repair_needs_resume_and_a_resume_from_the_cli_says_what_it_repaired(finished, config, tmp_path):
    run = _copy(finished, tmp_path)
    with pytest.raises(RunDirectoryError, match="--repair goes with --resume"):
        RunDirectory.open(tmp_path / "new", resume=False, repair=True)
    (run / "metrics.jsonl").unlink()
    (run / "memory.sqlite3").write_bytes(b"")
    code, out, err = _resume(config, run, "--repair")
    assert code == 0, err
    assert "resume: repaired metrics.jsonl: restored from the checkpoint's copy as of iteration 2 (2 rows)" in out
    assert "resume: repaired memory.sqlite3: restored from the checkpoint's copy as of iteration 2" in out


def test_a_torn_last_line_is_dropped_with_a_note(finished, tmp_path):
    run = _copy(finished, tmp_path)
    with open(run / "attempts.jsonl", "ab") as handle:
        handle.write(random.Random(2).randbytes(300).replace(b"\n", b" "))  # bytes of a write cut short
    notes = RunDirectory.open(run, resume=True).resume_notes
    assert notes == ["attempts.jsonl: dropped 1 unreadable last line(s) (a write cut short)"]
    assert (run / "attempts.jsonl").read_bytes() == (finished / "attempts.jsonl").read_bytes()


def test_damaged_history_copies_are_no_reason_to_refuse_a_resume(finished, tmp_path):
    """The copies in ``history/`` are no part of the model: without them the run resumes with the checks
    that need none, and says so; --repair then has nothing to restore from."""
    run = _copy(finished, tmp_path)
    _garbage(run / "checkpoints/latest/history/memory.sqlite3")
    notes = RunDirectory.open(run, resume=True).resume_notes
    assert notes == [("checkpoints/latest/history is missing or damaged: the history is checked without it, and "
                      "the memory is not rolled back")]
    (run / "metrics.jsonl").unlink()
    with pytest.raises(RunDirectoryError, match="keeps no sound copy of it"):
        RunDirectory.open(run, resume=True, repair=True)


def test_a_run_directory_whose_name_sqlite_would_read_as_a_uri_part_resumes(finished, tmp_path):
    run = tmp_path / "exp#2?mode=memory%20"
    shutil.copytree(finished, run)
    (run / "memory.sqlite3").write_bytes(b"")
    with pytest.raises(RunDirectoryError, match="memory.sqlite3 holds 0 environments"):
        RunDirectory.open(run, resume=True)
    assert sorted(path.name for path in tmp_path.iterdir()) == [run.name]  # no database made beside it


def test_a_new_run_never_starts_over_a_directory_that_holds_one(finished, config, tmp_path, capsys):
    for name in ("metrics.jsonl", "attempts.jsonl", "memory.sqlite3", "checkpoints/latest/trainer_state.json"):
        run = tmp_path / name.replace("/", "-")
        (run / name).parent.mkdir(parents=True)
        shutil.copyfile(finished / name, run / name)
        before = _digests(run)
        assert main(["run", "--config", str(config), "--out", str(run)]) == 2
        err = capsys.readouterr().err
        assert "already holds a run" in err and "pass --resume" in err
        assert _digests(run) == before


def test_a_checkpoint_without_copies_resumes_with_the_checks_that_need_none(finished, tmp_path):
    """A checkpoint saved before digests and copies were kept: rows are still checked one per iteration."""
    run = _copy(finished, tmp_path)
    state_file = run / "checkpoints/latest/trainer_state.json"
    state = json.loads(state_file.read_text())
    del state["files"], state["reference_kept"]
    state_file.write_text(json.dumps(state))
    (run / "checkpoints/reference/files.json").unlink()
    assert RunDirectory.open(run, resume=True).resume_notes == []
    (run / "timings.jsonl").write_text((run / "timings.jsonl").read_text().splitlines()[0] + "\n")
    with pytest.raises(RunDirectoryError, match="timings.jsonl holds 1 rows of iterations 1-2, not one per"):
        RunDirectory.open(run, resume=True)
    with pytest.raises(RunDirectoryError, match="keeps no sound copy of it"):
        RunDirectory.open(run, resume=True, repair=True)


# ---------------------------------------------------------------------------------------------- kills
def test_a_run_killed_anywhere_in_an_iteration_resumes_to_the_uninterrupted_result(finished, config, tmp_path):
    """Iteration 3 is killed three times, each resume starting from what the last kill left: after its
    memory rows were committed, after its records were appended, and between the renames that swap its
    checkpoint in. The last resume finishes it and iteration 4; metrics, attempts and memory rows are
    then exactly an uninterrupted run's."""
    reference = _copy(finished, tmp_path / "uninterrupted")
    assert _resume(config, reference, iterations=4)[0] == 0
    assert any(row[2] == 3 for row in _memory_rows(reference)["evaluations"]), \
        "iteration 3 of this config stores no evaluation, so no kill would leave memory rows to roll back"
    run = _copy(finished, tmp_path / "killed")
    for point in ("memory", "records", "checkpoint_swap"):
        killed = subprocess.run(
            [sys.executable, str(KILLED_RUN), point, "3", "--", "run", "--config", str(config), "--out", str(run),
             "--resume", "--set", "run.iterations=4"],
            check=False, cwd=REPO_ROOT, capture_output=True, text=True, timeout=SLOWER_MACHINE * 120)
        assert killed.returncode == -9, (point, killed.returncode, killed.stderr[-2000:])
    code, out, err = _resume(config, run, iterations=4)
    assert code == 0, err
    assert "resume: memory.sqlite3: rolled back" in out and "resuming after iteration 2" in out
    for name in ("metrics.jsonl", "attempts.jsonl"):
        assert (run / name).read_bytes() == (reference / name).read_bytes(), name
    assert _memory_rows(run) == _memory_rows(reference)


def test_a_run_killed_in_its_warm_up_resumes_there_on_the_same_course(finished, config, tmp_path):
    """Killed at warm-up step 75 of 100 (checkpoints every 30 steps), the run resumes at step 60 and
    ends exactly as the run that never stopped: same metrics, attempts and memory rows."""
    run = tmp_path / "run"
    every = ["--set", "warmup.checkpoint_every=30"]
    killed = subprocess.run(
        [sys.executable, str(KILLED_RUN), "warmup", "75", "--", "run", "--config", str(config), "--out", str(run),
         *every], check=False, cwd=REPO_ROOT, capture_output=True, text=True, timeout=SLOWER_MACHINE * 120)
    assert killed.returncode == -9, (killed.returncode, killed.stderr[-2000:])
    state = json.loads((run / "checkpoints/latest/trainer_state.json").read_text())
    assert state["step"] == 0 and state["warmup_progress"]["steps_done"] == 60
    assert main(["run", "--config", str(config), "--out", str(run)], out=io.StringIO()) == 2  # not over it
    code, out, err = _resume(config, run, *every)
    assert code == 0, err
    assert "resuming the warm-up at step 60 of round 1" in out
    for name in ("metrics.jsonl", "attempts.jsonl"):
        assert (run / name).read_bytes() == (finished / name).read_bytes(), name
    assert _memory_rows(run) == _memory_rows(finished)
    assert "warmup_progress" not in json.loads((run / "checkpoints/latest/trainer_state.json").read_text())


# ---------------------------------------------------------------------------------------------- disks
def _disk_use(run: Path) -> int:
    return sum(path.stat().st_size for path in run.rglob("*") if path.is_file())


@pytest.mark.parametrize("share", [0.25, 0.5, 0.8])
def test_a_full_disk_stops_the_run_in_one_line_and_it_resumes_once_there_is_room(
        finished, config, small_disk, share):  # noqa: F811
    """On a disk a share of the size the run needs, the run stops at some write (warm-up checkpoint,
    memory, records, checkpoint) with one line and exit 1, leaving no partial file; given room, the
    same command with --resume (or, when no checkpoint was whole yet, without) finishes it exactly as
    the run that never ran short."""
    need = _disk_use(finished)
    disk = small_disk(int(need * share))
    run = disk / "run"
    code, _, err = _run(config, run)
    assert code == 1 and len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    assert ("No space left on device" in err or "database or disk is full" in err) and "--resume" in err, err
    assert not [path for path in run.rglob(".*")], "a failed write left a partial file behind"
    for name in HISTORY_FILES:
        lines = read_json_lines(run / name)
        assert lines.torn_tail == 0 and lines.damaged_line is None, name
    small_disk(need * 4)
    whole = any((run / "checkpoints" / name / "trainer_state.json").exists() for name in ("latest", "previous"))
    code, _, err = _run(config, run, *(["--resume"] if whole else []))
    assert code == 0, err
    for name in ("metrics.jsonl", "attempts.jsonl"):
        assert (run / name).read_bytes() == (finished / name).read_bytes(), name
    assert _memory_rows(run) == _memory_rows(finished)


def test_a_read_only_run_directory_is_refused_before_any_work(
        finished, config, tmp_path, read_only_dir, capsys):  # noqa: F811
    for out in (read_only_dir / "run", read_only_dir):
        assert main(["run", "--config", str(config), "--out", str(out)]) == 2
        err = capsys.readouterr().err
        assert "cannot write to the run directory" in err and len(err.strip().splitlines()) == 1, err
    run = _copy(finished, tmp_path)
    before = _digests(run)
    with read_only(run):
        code, _, err = _resume(config, run, iterations=3)
    assert code == 2 and "cannot write to the run directory" in err and len(err.strip().splitlines()) == 1, err
    assert _digests(run) == before
