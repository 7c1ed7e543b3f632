"""Bad input through spade-envs: one-line errors for values out of range, directories searched recursively with
what was skipped and why, and play --actions reading lines exactly as typed ones."""

from __future__ import annotations

import io
import json
import os
import random
from pathlib import Path

import pytest

from spade_envs.cli import main
from spade_envs.cliutil import EXIT_INVALID, EXIT_OK, EXIT_USAGE, printable
from spade_envs.fileio import write_atomically
from tests.conftest import COUNTER_ENV, dedent
from tests.mounts import read_only_dir, small_disk  # noqa: F401 - the fixtures


def run(argv: list[str], stdin: str = "") -> tuple[int, str]:
    out = io.StringIO()
    return main(argv, out=out, stdin=io.StringIO(stdin)), out.getvalue()


@pytest.mark.parametrize(
    "argv",
    [
        ["validate", "maze_walk", "--timeout", "0"],
        ["validate", "maze_walk", "--timeout", "-1"],
        ["validate", "maze_walk", "--timeout", "nan"],
        ["validate", "maze_walk", "--timeout", "inf"],
        ["validate", "maze_walk", "--timeout", "soon"],
        ["validate", "maze_walk", "--jobs", "0"],
        ["validate", "maze_walk", "--jobs", "-2"],
        ["validate", "maze_walk", "--max-turns", "0"],
        ["validate", "maze_walk", "--max-turns", "1000001"],
        ["validate", "maze_walk", "--seeds", "0"],
        ["validate", "maze_walk", "--file-timeout", "0"],
        ["validate", "maze_walk", "--file-memory", "0"],
        ["validate", "maze_walk", "--examples", "-1"],
        ["fuzz", "maze_walk", "--timeout", "0"],
        ["play", "maze_walk", "--timeout", "0"],
        ["play", "maze_walk", "--max-turns", "0"],
        ["play", "maze_walk", "--actions", "moves.txt", "--solution"],
        ["replay", "log.json", "--env", "maze_walk", "--timeout", "-5"],
    ],
)
def test_values_out_of_range_are_one_line_usage_errors(argv: list[str], capsys) -> None:
    code, out = run(argv)
    err = capsys.readouterr().err
    assert code == EXIT_USAGE and out == ""
    assert err.count("\n") == 1 and err.startswith("spade-envs: error:") and "Traceback" not in err, err


def _tree(root: Path) -> None:
    bad = COUNTER_ENV.replace("import re\n", "import re\nimport os\n")  # fails the static tier: quick to validate
    (root / "sub" / "deeper").mkdir(parents=True)
    (root / ".hidden").mkdir()
    (root / "__pycache__").mkdir()
    (root / "a_env.py").write_text(bad)
    (root / "sub" / "b_env.py").write_text(bad)
    (root / "sub" / "deeper" / "c_env.py").write_text(bad)
    (root / ".hidden" / "d_env.py").write_text(bad)
    (root / "_helper.py").write_text(bad)
    (root / "notes.txt").write_text("not an environment")
    (root / "sub" / "latin1.py").write_bytes(b"# caf\xe9\n")
    os.symlink(root / "sub", root / "link")


def test_directories_are_searched_recursively_and_skips_are_reported(tmp_path: Path) -> None:
    _tree(tmp_path)
    code, out = run(["validate", str(tmp_path), "--json"])
    document = json.loads(out)
    assert code == EXIT_INVALID
    assert [Path(r["path"]).relative_to(tmp_path).as_posix() for r in document["results"]] == [
        "a_env.py", "sub/b_env.py", "sub/deeper/c_env.py"]
    skipped = {Path(s["path"]).relative_to(tmp_path).as_posix(): s["reason"] for s in document["skipped"]}
    assert skipped == {
        ".hidden": "a hidden or cache directory",
        "__pycache__": "a hidden or cache directory",
        "link": "a link to a directory (not followed)",
        "_helper.py": "a helper module (its name starts with _)",
        "notes.txt": "not a .py file",
        "sub/latin1.py": "not UTF-8 text",
    }
    assert len(document["host"]) == 3


def test_no_recursive_stops_at_the_top_and_says_so(tmp_path: Path) -> None:
    _tree(tmp_path)
    code, out = run(["validate", str(tmp_path), "--no-recursive"])
    assert code == EXIT_INVALID and "[1/1] FAIL" in out
    assert "skipped 4, a subdirectory (--no-recursive)" in out  # .hidden, __pycache__, link, sub
    assert "skipped 1, not a .py file" in out


def test_a_directory_without_environments_is_a_usage_error(tmp_path: Path, capsys) -> None:
    (tmp_path / "notes.txt").write_text("x")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "env.py").write_text(COUNTER_ENV)
    code, _ = run(["validate", str(tmp_path), "--no-recursive"])
    err = capsys.readouterr().err
    assert code == EXIT_USAGE and "contains no .py environment files" in err and "--no-recursive" in err


@pytest.fixture
def counter(tmp_path: Path) -> Path:
    path = tmp_path / "counter_env.py"
    path.write_text(COUNTER_ENV)
    return path


def _played(out: str, typed: list[str]) -> list[str]:
    """What the environment said, without the header (it names where moves come from), prompts and echoed
    input (a terminal echoes typed lines itself)."""
    body = out.split("\n\n", 1)[1]
    lines = [line.removeprefix("action>").strip() for line in body.splitlines()]
    return [line for line in lines if line and line not in {t.strip() for t in typed}]


def test_play_actions_file_lines_are_played_like_typed_lines(counter: Path, tmp_path: Path) -> None:
    moves = tmp_path / "moves.txt"
    moves.write_text("100\n\\boxed{101}\n  102  \n")
    typed_code, typed = run(["play", str(counter), "--seed", "3", "--sandbox", "inprocess"], stdin=moves.read_text())
    file_code, from_file = run(["play", str(counter), "--seed", "3", "--sandbox", "inprocess", "--actions", str(moves)])
    assert typed_code == file_code == EXIT_OK
    lines = moves.read_text().splitlines()
    assert _played(typed, lines) == _played(from_file, lines)
    assert from_file.count("wrong") == 3
    assert "The input ran out after 3 actions; the episode is not over (return so far 0)" in from_file


SEVEN_ENV = dedent(
    """
    class SevenEnv:
        def __init__(self, max_turns=5, **kwargs):
            self.max_turns = max_turns

        def reset(self, seed=None):
            self.turn = 0
            return "Say seven as a number.", {}

        def step(self, action):
            self.turn += 1
            won = action == "\\\\boxed{7}"
            return ("right" if won else "wrong"), float(won), won, self.turn >= self.max_turns, {}

        def solution(self):
            return "7"

        def close(self):
            pass
    """
)


def test_play_actions_file_can_quit_and_win(tmp_path: Path) -> None:
    env = tmp_path / "seven_env.py"
    env.write_text(SEVEN_ENV)
    moves = tmp_path / "moves.txt"
    moves.write_text("1\n7\n5\n")
    _, out = run(["play", str(env), "--sandbox", "inprocess", "--actions", str(moves)])
    assert "Episode over after 2 actions: return 1" in out
    moves.write_text("1\n:quit\n2\n")
    _, out = run(["play", str(env), "--sandbox", "inprocess", "--actions", str(moves)])
    assert "Stopped (:quit) after 1 actions; the episode is not over" in out


ESCAPING_ENV = dedent(
    '''
    class EscapeEnv:
        def __init__(self, max_turns=3, **kwargs):
            self.max_turns = max_turns

        def reset(self, seed=None):
            return "Line one\\n\\x1b[2J\\x1b[Hcleared \\u202eesrever\\r[1/1] ok", {}

        def step(self, action):
            return "\\x1b]0;title\\x07 \\\\boxed{}", 1.0, True, False, {}

        def solution(self):
            return ["\\x1b[31mred"]

        def close(self):
            pass
    '''
)


def test_play_escapes_what_the_environment_prints(tmp_path: Path) -> None:
    path = tmp_path / "escape_env.py"
    path.write_text(ESCAPING_ENV)
    code, out = run(["play", str(path), "--solution", "--sandbox", "inprocess"])
    assert code == EXIT_OK
    assert "\x1b" not in out and "\r" not in out and "\u202e" not in out and "\x07" not in out
    assert "Line one\n\\x1b[2J\\x1b[Hcleared \\u202eesrever\\x0d[1/1] ok" in out  # newlines kept, controls shown
    assert "action> \\boxed{\\x1b[31mred}" in out


def test_a_solution_that_cannot_become_actions_is_the_environments_error(tmp_path: Path, capsys) -> None:
    """solution() returns a tool call whose arguments are a JSON string: never a traceback."""
    path = tmp_path / "tool_env.py"
    path.write_text(dedent(
        """
        class StringArgumentsEnv(ToolUseBaseEnv):
            def reset(self, seed=None):
                self._tools = {"lookup": {"description": "Look up a key.",
                                          "parameters": {"type": "object", "properties": {}}}}
                self._state, self._expected_answer = {}, "1"
                return "Answer 1.", {}

            def tool_lookup(self, key=""):
                return "1"

            def solution(self):
                return [{"name": "lookup", "arguments": '{"key": "a"}'}, "1"]
        """
    ))
    code, out = run(["play", str(path), "--solution", "--sandbox", "inprocess"])
    assert "Traceback" not in out + capsys.readouterr().err
    if code != EXIT_OK:  # the contract may come to accept the release's JSON-string arguments
        assert code == EXIT_INVALID and "solution raised" in out and "cannot be turned into actions" in out


def test_printable_escapes_controls_and_keeps_text() -> None:
    assert printable("ok \x1b[2K\r\u202e\u2066\x00\x9b\ud800 é ∑ 🙂") == (
        "ok \\x1b[2K\\x0d\\u202e\\u2066\\x00\\x9b\\ud800 é ∑ 🙂")
    assert printable("a\nb\tc") == "a\\nb\tc" and printable("a\nb", multiline=True) == "a\nb"


# ---------------------------------------------------------------------- --results, --allow-import, outputs
def _one_line_usage_error(code: int, capsys) -> str:
    err = capsys.readouterr().err
    assert code == EXIT_USAGE and "Traceback" not in err, err
    assert err.count("\n") == 1 and err.startswith("spade-envs: error: "), err
    return err.strip()


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (None, "is a directory; name a file in it, e.g. "),
        (random.Random(0).randbytes(4096), "is not a validation results file (it is not UTF-8 text); give a new file name, or delete it"),
        (b'{"name": "caf\xe9"}\n', "is not a validation results file (it is not UTF-8 text)"),
        (b"my notes\n", "is not a validation results file (line 1 is not one of its records)"),
        (b'{"format":"spade-validation-results/1","settings":"x"}\n{"ok": true}\n',
         "is not a validation results file (line 2 is not one of its records)"),
    ],
    ids=["directory", "random-bytes", "not-utf8", "someone-elses-text", "a-foreign-line"],
)
def test_results_that_is_not_a_results_file_is_refused_and_left_alone(
        content: bytes | None, expected: str, counter: Path, tmp_path: Path, capsys) -> None:
    """Before: a directory or non-UTF-8 bytes were a traceback (IsADirectoryError, UnicodeDecodeError) after
    the run had started, and someone else's text file was silently appended to."""
    target = tmp_path / "results"
    if content is None:
        target.mkdir()
    else:
        target.write_bytes(content)
    code, out = run(["validate", str(counter), "--results", str(target), "--examples", "0"])
    line = _one_line_usage_error(code, capsys)
    assert line.startswith(f"spade-envs: error: --results {target} {expected}") and out == ""
    if content is None:
        assert list(target.iterdir()) == []
    else:
        assert target.read_bytes() == content


def test_allow_import_of_a_module_the_sandbox_lacks_needs_the_process_sandbox(counter: Path, capsys) -> None:
    """Before: accepted with the default wasm sandbox, then every environment importing it failed to load."""
    for argv in (["validate", str(counter), "--allow-import", "numpy"],
                 ["fuzz", str(counter), "--allow-import", "numpy", "--sandbox", "wasm"],
                 ["export", str(counter.parent / "pool"), str(counter), "--allow-import", "numpy"]):
        code, out = run(argv)
        line = _one_line_usage_error(code, capsys)
        assert out == ""
        assert "--allow-import numpy needs --sandbox process" in line and "add --sandbox process" in line
    assert not (counter.parent / "pool").exists()
    # Modules the sandbox holds stay allowed there; any module is allowed on the process backend.
    code, _ = run(["validate", str(counter), "--allow-import", "struct", "--examples", "0"])
    assert code == EXIT_OK, capsys.readouterr().err
    code, _ = run(["validate", str(counter), "--allow-import", "numpy", "--sandbox", "process", "--examples", "0"])
    assert code == EXIT_OK, capsys.readouterr().err


def test_serve_openenv_refuses_a_timeout_the_inprocess_backend_cannot_enforce(capsys) -> None:
    """OpenEnv runs each session on a thread, where the inprocess backend has no way to stop a call. The host
    is one this machine cannot listen on (TEST-NET-1), so that without the check the command fails on it
    instead of serving forever."""
    code, _ = run(["serve-openenv", "bundled", "--sandbox", "inprocess", "--timeout", "5", "--host", "192.0.2.1"])
    line = _one_line_usage_error(code, capsys)
    assert "--timeout cannot be enforced with --sandbox inprocess" in line and "use --sandbox process or wasm" in line


def test_outputs_in_a_read_only_directory_fail_first_with_one_line(
        counter: Path, read_only_dir: Path, capsys) -> None:  # noqa: F811
    """Before: --results failed after the first file was validated, --log after the episode was played by
    hand, export after every file was validated; now each fails before the work, and nothing is written."""
    cases = [
        (["validate", str(counter), "--results", str(read_only_dir / "results.jsonl")], "cannot write --results"),
        (["fuzz", str(counter), "--results", str(read_only_dir / "sub" / "results.jsonl")], "cannot write --results"),
        (["play", str(counter), "--solution", "--sandbox", "inprocess", "--log", str(read_only_dir / "episode.json")],
         "cannot write --log"),
        (["export", str(read_only_dir / "pool"), str(counter), "--examples", "0"], "cannot write the pool to"),
        (["export", str(read_only_dir / "pool")], "cannot write the pool to"),
        (["schema", "--out", str(read_only_dir / "schemas")], "cannot write schemas to"),
    ]
    for argv, expected in cases:
        code, out = run(argv)
        line = _one_line_usage_error(code, capsys)
        assert line.startswith(f"spade-envs: error: {expected} {read_only_dir}") and out == "", (argv, line)
        assert list(read_only_dir.iterdir()) == [], argv


def test_a_full_disk_keeps_whole_results_and_a_rerun_with_room_validates_only_the_rest(
        tmp_path: Path, small_disk, capsys) -> None:  # noqa: F811
    """validate --results on a disk with room for one record and a half: one line (exit 2) naming the
    full disk, the file holds one whole record and no part of the second; given room, the same command
    validates the two environments left and the file holds all three."""
    files = []
    for number in range(3):
        path = tmp_path / f"counter_{number}_env.py"
        path.write_text(COUNTER_ENV + f"\n# copy {number}\n")
        files.append(str(path))
    measured = tmp_path / "measured.jsonl"
    assert run(["validate", *files, "--results", str(measured), "--sandbox", "inprocess"])[0] == EXIT_OK
    record = max(len(line) + 1 for line in measured.read_bytes().splitlines())
    disk = small_disk(int(record * 1.5))
    results = disk / "results.jsonl"
    capsys.readouterr()
    code, _ = run(["validate", *files, "--results", str(results), "--sandbox", "inprocess"])
    line = _one_line_usage_error(code, capsys)
    assert "No space left on device" in line, line
    assert len(results.read_bytes().splitlines()) == 1 and results.read_bytes().endswith(b"\n")
    small_disk(record * 8)
    assert run(["validate", *files, "--results", str(results), "--sandbox", "inprocess"])[0] == EXIT_OK
    rows = [json.loads(line) for line in results.read_bytes().splitlines()]
    assert len(rows) == 3 and len({row["report"]["env_id"] for row in rows}) == 3


def test_log_must_name_a_file_in_an_existing_directory(counter: Path, tmp_path: Path, capsys) -> None:
    for log, expected in ((tmp_path, "is a directory; name a file in it"),
                          (tmp_path / "missing" / "episode.json", f"{tmp_path / 'missing'} does not exist")):
        code, out = run(["play", str(counter), "--solution", "--sandbox", "inprocess", "--log", str(log)])
        assert expected in _one_line_usage_error(code, capsys) and out == ""


def test_a_failed_atomic_write_leaves_no_temporary_file(tmp_path: Path) -> None:
    target = tmp_path / "taken"
    (target / "inside").mkdir(parents=True)  # a non-empty directory where the file should go: rename fails
    with pytest.raises(OSError):
        write_atomically(target, "text")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["taken"]
