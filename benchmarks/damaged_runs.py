"""Nothing lost, nothing crashes: damaged run state, bad input, kills and full disks, as a user meets them.

Every case runs the real command line in a subprocess (so a crash is a crash, a segfault an exit code)
against a copy of one tiny embedded run, and the table says what was expected and what happened: the
exit code and the first line of the error. Kills are real SIGKILLs at random moments of a run (not at
chosen points, as ``tests/test_resume.py`` does), each followed by ``--resume``; the records of the
killed-and-resumed run are then compared with an uninterrupted one.

    python benchmarks/damaged_runs.py [--kills 5] [--seed 0]

Writes ``benchmarks/results/damaged_runs.json`` and prints a Markdown table. About 5 minutes on the
2-core VM. The full-disk and read-only cases need mounts (root); elsewhere they are reported as skipped.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
RESULTS = REPO / "benchmarks" / "results" / "damaged_runs.json"
sys.path.insert(0, str(REPO))
from tests.tiny_runs import RESUMED_RUN, tiny_run_config  # the tests' tiny run, kept in one place

COUNTER_ENV = '''
class CounterEnv:
    def __init__(self, max_turns=4, **kwargs):
        self.max_turns = max_turns
        self.reset()

    def reset(self, seed=None):
        self.turn = 0
        return "Say 3 in \\\\boxed{}.", {}

    def step(self, action):
        self.turn += 1
        won = action.strip() == "\\\\boxed{3}"
        return ("right" if won else "wrong"), float(won), won, self.turn >= self.max_turns, {}

    def solution(self):
        return ["\\\\boxed{3}"]
'''


@dataclass
class Case:
    name: str
    expected: str
    exit_code: int | None
    line: str
    ok: bool


def spade(program: str, *args: str, cwd: Path, timeout: float = 600) -> tuple[int, str, str]:
    result = subprocess.run([str(BIN / program), *args], cwd=cwd, capture_output=True, text=True, timeout=timeout,
                            check=False)
    return result.returncode, result.stdout, result.stderr


def first_error(stderr: str) -> str:
    lines = [line for line in stderr.splitlines() if "error:" in line or "Traceback" in line or "Error" in line]
    return (lines[0] if lines else stderr.strip().splitlines()[-1] if stderr.strip() else "")[:220]


def one_line(stderr: str) -> bool:
    return "Traceback" not in stderr and sum("error:" in line for line in stderr.splitlines()) == 1


def scramble(path: Path, size: int = 3000) -> None:
    path.write_bytes(random.Random(0).randbytes(size))


def scramble_tensors(path: Path) -> None:
    data = path.read_bytes()
    header = 8 + int.from_bytes(data[:8], "little")
    path.write_bytes(data[:header] + random.Random(1).randbytes(len(data) - header))


RUN_DAMAGE: list[tuple[str, Callable[[Path], None], int, str]] = [
    ("empty memory database beside a good checkpoint", lambda r: (r / "memory.sqlite3").write_bytes(b""), 2,
     "memory.sqlite3"),
    ("memory database deleted", lambda r: (r / "memory.sqlite3").unlink(), 2, "memory.sqlite3"),
    ("memory database truncated", lambda r: os.truncate(r / "memory.sqlite3", 5000), 2, "memory.sqlite3"),
    ("memory database random bytes", lambda r: scramble(r / "memory.sqlite3", 20000), 2, "memory.sqlite3"),
    ("metrics.jsonl deleted", lambda r: (r / "metrics.jsonl").unlink(), 2, "metrics.jsonl"),
    ("trainer_state.json garbage", lambda r: (r / "checkpoints/latest/trainer_state.json").write_text("garbage"), 2,
     "trainer_state.json"),
    ("model.safetensors garbage", lambda r: scramble(r / "checkpoints/latest/model.safetensors"), 2,
     "model.safetensors"),
    ("optimizer.pt garbage", lambda r: (r / "checkpoints/latest/optimizer.pt").write_text("garbage"), 2,
     "optimizer.pt"),
    ("tokenizer.json garbage", lambda r: (r / "checkpoints/latest/tokenizer.json").write_text("garbage"), 2,
     "tokenizer.json"),
    ("reference model: tensor bytes random behind a valid header",
     lambda r: scramble_tensors(r / "checkpoints/reference/model.safetensors"), 2, "reference/model.safetensors"),
    ("reference model: file random bytes", lambda r: scramble(r / "checkpoints/reference/model.safetensors"), 2,
     "reference/model.safetensors"),
]


def run_damage_cases(run: Path, config: Path, work: Path) -> list[Case]:
    cases = []
    for name, damage, code, names in RUN_DAMAGE:
        copy = work / "copy"
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(run, copy)
        damage(copy)
        got, _, err = spade("spade-train", "run", "--config", str(config), "--out", str(copy), "--resume",
                            "--set", "run.iterations=3", cwd=work)
        cases.append(Case(f"resume: {name}", f"exit {code}, one line naming {names}", got, first_error(err),
                          got == code and one_line(err) and names in err))
    # Bytes appended to attempts.jsonl: a torn tail, dropped with a note; the run goes on.
    copy = work / "copy"
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(run, copy)
    with open(copy / "attempts.jsonl", "ab") as handle:
        handle.write(random.Random(2).randbytes(300).replace(b"\n", b" "))
    got, out, err = spade("spade-train", "run", "--config", str(config), "--out", str(copy), "--resume",
                          "--set", "run.iterations=3", cwd=work)
    note = next((line for line in out.splitlines() if line.startswith("resume:")), "")
    cases.append(Case("resume: random bytes appended to attempts.jsonl", "exit 0, the torn tail dropped with a note",
                      got, note or first_error(err), got == 0 and "unreadable last line" in note))
    # --repair restores an emptied memory and a deleted metrics.jsonl from the checkpoint's copies.
    shutil.rmtree(copy)
    shutil.copytree(run, copy)
    (copy / "memory.sqlite3").write_bytes(b"")
    (copy / "metrics.jsonl").unlink()
    got, out, err = spade("spade-train", "run", "--config", str(config), "--out", str(copy), "--resume", "--repair",
                          "--set", "run.iterations=3", cwd=work)
    repaired = [line for line in out.splitlines() if line.startswith("resume: repaired")]
    cases.append(Case("resume --repair: emptied memory and deleted metrics", "exit 0, both restored and named", got,
                      "; ".join(repaired)[:220], got == 0 and len(repaired) == 2))
    return cases


def command_line_cases(run: Path, config: Path, work: Path) -> list[Case]:
    (work / "binary.toml").write_bytes(bytes(range(256)))
    (work / "latin1.toml").write_bytes("[run]\n# caf\u00e9\niterations = 2\n".encode("latin-1"))
    (work / "empty.toml").write_text("")
    (work / "comments.toml").write_text("# a run\n[run]\n# iterations = 3\n")
    (work / "counter_env.py").write_text(COUNTER_ENV)
    (work / "results-dir").mkdir(exist_ok=True)
    scramble(work / "results.bin")
    train = ["spade-train", "run", "--out", str(work / "new")]
    rows: list[tuple[str, list[str], int, str]] = [
        ("run --config a binary file", [*train, "--config", "binary.toml"], 2, "not UTF-8"),
        ("run --config a non-UTF-8 file", [*train, "--config", "latin1.toml"], 2, "not UTF-8"),
        ("run --config an empty file", [*train, "--config", "empty.toml"], 2, "sets nothing"),
        ("run --config a comment-only file", [*train, "--config", "comments.toml"], 2, "sets nothing"),
        ("--set run.seed=99999999999999999999", [*train, "--config", str(config), "--set",
                                                 "run.seed=99999999999999999999"], 2, "run.seed"),
        ('--set run.iterations="3" (a string)', [*train, "--config", str(config), "--set", 'run.iterations="3"'], 2,
         "run.iterations"),
        ("--set grpo.learning_rate=nan", [*train, "--config", str(config), "--set", "grpo.learning_rate=nan"], 2,
         "finite"),
        ("a new run over a directory that holds one", ["spade-train", "run", "--out", str(run), "--config",
                                                       str(config)], 2, "already holds a run"),
        ("validate --results a directory", ["spade-envs", "validate", "counter_env.py", "--results", "results-dir"], 2,
         "is a directory"),
        ("validate --results a binary file", ["spade-envs", "validate", "counter_env.py", "--results", "results.bin"],
         2, "not a validation results file"),
        ("validate --allow-import numpy on the wasm sandbox", ["spade-envs", "validate", "counter_env.py",
                                                               "--allow-import", "numpy"], 2, "--sandbox process"),
    ]
    cases = []
    for name, argv, code, text in rows:
        started = time.monotonic()
        got, _, err = spade(argv[0], *argv[1:], cwd=work)
        seconds = time.monotonic() - started
        cases.append(Case(name, f"exit {code} at once, one line ({text})", got, f"{first_error(err)} [{seconds:.1f} s]",
                          got == code and one_line(err) and text in err))
    return cases


def has_checkpoint(run: Path) -> bool:
    return any((run / "checkpoints" / name / "trainer_state.json").exists() for name in ("latest", "previous"))


def records(run: Path) -> dict[str, bytes]:
    return {name: (run / name).read_bytes() for name in ("metrics.jsonl", "attempts.jsonl")}


def memory_rows(run: Path) -> list:
    import sqlite3

    conn = sqlite3.connect(run / "memory.sqlite3")
    try:
        return [conn.execute("SELECT id, valid, spec_json FROM environments ORDER BY id").fetchall(),
                conn.execute("SELECT id, env_id, step, regret, plays FROM evaluations ORDER BY id").fetchall()]
    finally:
        conn.close()


def kill_cases(config: Path, work: Path, kills: int, seed: int) -> list[Case]:
    """SIGKILL at random moments, each followed by --resume, against a run that never stopped."""
    rng = random.Random(seed)
    reference = work / "uninterrupted"
    assert spade("spade-train", "run", "--config", str(config), "--out", str(reference), "--set", "run.iterations=8",
                 "--set", "warmup.checkpoint_every=20", cwd=work)[0] == 0
    run = work / "killed"
    moments, notes = [], []
    for attempt in range(kills):
        resume = ["--resume"] if has_checkpoint(run) else []
        child = subprocess.Popen([str(BIN / "spade-train"), "run", "--config", str(config), "--out", str(run),
                                  "--set", "run.iterations=8", "--set", "warmup.checkpoint_every=20", *resume],
                                 cwd=work, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        moment = rng.uniform(5.0, 12.0)  # imports take ~4 s, the warm-up ~5 s, an iteration 1-2 s
        time.sleep(moment)
        if child.poll() is None:
            child.send_signal(signal.SIGKILL)
            moments.append(round(moment, 1))
        out = child.communicate()[0]
        notes += [line for line in out.splitlines() if line.startswith(("resume", "resuming"))]
        if child.returncode == 0:
            break
    got, out, _err = spade("spade-train", "run", "--config", str(config), "--out", str(run), "--set",
                          "run.iterations=8", "--set", "warmup.checkpoint_every=20", "--resume", cwd=work)
    notes += [line for line in out.splitlines() if line.startswith(("resume", "resuming"))]
    same = got == 0 and records(run) == records(reference) and memory_rows(run) == memory_rows(reference)
    observed = (f"killed at {moments} s; resumes said: {' | '.join(dict.fromkeys(notes))[:300]}; "
                f"records and memory {'equal to' if same else 'DIFFERENT from'} the uninterrupted run's")
    return [Case(f"{len(moments)} SIGKILLs at random moments, each resumed", "exit 0 at the end; metrics, attempts "
                 "and memory rows equal to an uninterrupted run's", got, observed, same)]


def disk_cases(run: Path, config: Path, work: Path) -> list[Case]:
    mount = work / "disk"
    mount.mkdir()
    need = sum(path.stat().st_size for path in run.rglob("*") if path.is_file())
    if subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={need // 2}", "tmpfs", str(mount)], capture_output=True,
                      check=False).returncode != 0:
        return [Case("full disk", "exit 1, one line; resumes with room", None, "skipped: cannot mount a tmpfs", True)]
    try:
        got, _, err = spade("spade-train", "run", "--config", str(config), "--out", str(mount / "run"), cwd=work)
        leftovers = [str(path) for path in (mount / "run").rglob(".*")]
        full = Case("spade-train run on a disk half the size it needs", "exit 1, one line, no partial file", got,
                    first_error(err), got == 1 and one_line(err) and not leftovers)
        subprocess.run(["mount", "-o", f"remount,size={need * 4}", str(mount)], check=True)
        again, _out, err = spade("spade-train", "run", "--config", str(config), "--out", str(mount / "run"),
                                *(["--resume"] if has_checkpoint(mount / "run") else []), cwd=work)
        same = again == 0 and records(mount / "run") == records(run) and memory_rows(mount / "run") == memory_rows(run)
        resumed = Case("... the same command with --resume after making room", "exit 0, records equal to a run "
                       "that had room", again, "records and memory equal" if same else first_error(err), same)
        subprocess.run(["mount", "-o", "remount,ro", str(mount)], check=True)
        got, _, err = spade("spade-train", "run", "--config", str(config), "--out", str(mount / "run"), "--resume",
                            "--set", "run.iterations=3", cwd=work)
        read_only = Case("--resume in a read-only run directory", "exit 2 before any work, one line", got,
                         first_error(err), got == 2 and one_line(err))
        return [full, resumed, read_only]
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="damaged-runs-") as name:
        work = Path(name)
        config = tiny_run_config(work, **RESUMED_RUN)
        run = work / "run"
        started = time.monotonic()
        code, _, err = spade("spade-train", "run", "--config", str(config), "--out", str(run), cwd=work)
        assert code == 0, err
        print(f"tiny run: {time.monotonic() - started:.1f} s", file=sys.stderr)
        cases = [*run_damage_cases(run, config, work), *command_line_cases(run, config, work),
                 *kill_cases(config, work, args.kills, args.seed), *disk_cases(run, config, work)]
    print("| case | expected | exit | observed | as expected |\n| --- | --- | --- | --- | --- |")
    for case in cases:
        line = case.line.replace("|", "\\|")
        print(f"| {case.name} | {case.expected} | {case.exit_code} | {line} | {'yes' if case.ok else '**no**'} |")
    print(f"\n{sum(case.ok for case in cases)} of {len(cases)} as expected")
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps([asdict(case) for case in cases], indent=1) + "\n")


if __name__ == "__main__":
    main()
