"""The spade-envs command line: exit codes, JSON output, one-line errors, play."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from spade_envs.cli import main
from tests.conftest import COUNTER_ENV, REPO_ROOT


def run(argv, stdin: str = ""):
    out = io.StringIO()
    code = main(argv, out=out, stdin=io.StringIO(stdin))
    return code, out.getvalue()


@pytest.fixture
def good(tmp_path):
    path = tmp_path / "counter_env.py"
    path.write_text(COUNTER_ENV)
    return path


@pytest.fixture
def bad(tmp_path):
    path = tmp_path / "bad_env.py"
    path.write_text(COUNTER_ENV.replace("import re", "import re\nimport os"))
    return path


def test_validate_valid_file_exits_zero(good):
    code, out = run(["validate", str(good)])
    assert code == 0 and "1 valid, 0 invalid" in out


def test_validate_invalid_file_exits_one_and_names_the_check(good, bad):
    code, out = run(["validate", str(good), str(bad)])
    assert code == 1 and "[imports] line 3:" in out


def test_validate_json_document(good, bad):
    code, out = run(["validate", "--json", str(good), str(bad)])
    document = json.loads(out)
    results = {r["path"]: r for r in document["results"]}
    assert code == 1 and results[str(good)]["ok"] and not results[str(bad)]["ok"]
    failure = results[str(bad)]["failures"][0]
    assert set(failure) >= {"check", "message", "line"} and failure["check"] == "imports"
    assert document["summary"] == {**document["summary"], "valid": 1, "invalid": 1}


def test_validate_directory_and_bundled_names(good, tmp_path):
    code, out = run(["validate", str(tmp_path), "maze_walk", "--seeds", "2"])
    assert code == 0 and "2 valid" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["validate", "does/not/exist.py"], "no such file, pool or bundled environment"),
        (["validate", "pyproject.toml"], "is not a Python file"),
        (["validate"], "give at least one PATH"),
        (["validate", "--sandbox", "docker", "maze_walk"], "invalid choice"),
        (["validate", "--seeds", "0", "maze_walk"], "argument --seeds: must be from 1 to 1000, got 0"),
        (["frobnicate"], "invalid choice"),
        (["play", "nowhere.py"], "no such file"),
    ],
)
def test_usage_errors_exit_two_with_one_line(argv, message, capsys, monkeypatch):
    monkeypatch.chdir(REPO_ROOT)
    code, out = run(argv)
    err = capsys.readouterr().err
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("spade-envs: error:") and message in err


def test_non_utf8_and_empty_directory(tmp_path, capsys):
    binary = tmp_path / "blob_env.py"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    assert run(["validate", str(binary)])[0] == 2
    assert "not UTF-8" in capsys.readouterr().err
    empty = tmp_path / "empty"
    empty.mkdir()
    assert run(["validate", str(empty)])[0] == 2
    assert "contains no .py" in capsys.readouterr().err


def test_play_scripted_actions_and_log(good, tmp_path):
    actions = tmp_path / "moves.txt"
    actions.write_text("\\boxed{1}\n\\boxed{2}\n")
    log = tmp_path / "episode.json"
    code, out = run(["play", str(good), "--actions", str(actions), "--log", str(log)])
    assert code == 0 and out.count("action>") == 2
    episode = json.loads(log.read_text())
    assert episode["actions"] == ["\\boxed{1}", "\\boxed{2}"] and len(episode["observations"]) == 3


def test_play_solution_wins_and_interactive_wraps_bare_moves(good):
    code, out = run(["play", str(good), "--solution", "--seed", "4"])
    assert code == 0 and "return 1" in out
    code, out = run(["play", str(good), "--seed", "4"], stdin="12\n:quit\n")
    assert code == 0 and "\\boxed{12}" not in out and "wrong" in out


def test_play_with_hint(good):
    code, out = run(["play", str(good), "--hint", "think", "--actions", "/dev/null"])
    assert code == 0 and "HINT: think" in out


def test_list_and_schema(tmp_path):
    code, out = run(["list", "--json"])
    assert code == 0 and any(row["name"] == "maze_walk" for row in json.loads(out))
    assert run(["schema", "--out", str(tmp_path)])[0] == 0
    assert run(["schema", "--out", str(tmp_path), "--check"])[0] == 0
    (tmp_path / "env_spec.schema.json").write_text("{}")
    assert run(["schema", "--out", str(tmp_path), "--check"])[0] == 1


def test_console_script_entry_point(good):
    result = subprocess.run([sys.executable, "-m", "spade_envs.cli", "validate", str(good), "--json"],
                            check=False, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0 and json.loads(result.stdout)["results"][0]["ok"]


def test_a_closed_output_pipe_ends_the_command_quietly(capsys, monkeypatch):
    """``spade-envs list | head`` must not print a traceback when head stops reading."""
    from spade_envs.cliutil import EXIT_OK, run_command

    redirected = []
    monkeypatch.setattr("os.dup2", lambda fd, target: redirected.append(target))
    monkeypatch.setattr("sys.stdout", io.TextIOWrapper(io.BytesIO()))  # fileno() raises: must be survived
    def body() -> int:
        raise BrokenPipeError(32, "Broken pipe")

    assert run_command("spade-envs", body) == EXIT_OK
    assert capsys.readouterr().err == "" and not redirected


def test_the_readme_example_environment_is_valid(tmp_path):
    """The README teaches with this environment: it must pass the validator it introduces."""
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    start = readme.index("```python\nimport random, re\n\nclass GuessEnv") + len("```python\n")
    path = tmp_path / "guess_env.py"
    path.write_text(readme[start:readme.index("```", start)], encoding="utf-8")
    assert main(["validate", str(path)]) == 0


ZOO_SAMPLE = ["valid_release_single_answer_math_verify.py", "answer_leak_fixed_position.py",
              "answer_format_comma_requested_space_checked.py", "valid_high_low_repeated_guess_reminder.py"]


def _verdicts(argv: list[str], files: list[str] = ZOO_SAMPLE) -> list[tuple[str, bool, list[str], int]]:
    code, out = run(["validate", *(str(REPO_ROOT / "tests" / "zoo" / name) for name in files), "--json",
                     "--examples", "0", "--sandbox", "inprocess", "--jobs", "1", *argv])
    assert code in (0, 1), out
    return [(Path(r["path"]).name, r["ok"], sorted(f["check"] for f in r["failures"]), r["plan_seed"])
            for r in json.loads(out)["results"]]


def test_the_same_file_gets_the_same_verdict_on_every_run_yet_its_seeds_depend_on_a_key(tmp_path):
    """Issue 47, item 5: the plan seed is drawn from the file's content and the user's plan key, so two
    runs agree (they used to draw it at random and a borderline file flipped), while an author without the
    key cannot know the seeds: another key, other seeds. --plan-seed still replays one verdict."""
    key = tmp_path / "key"
    first, again = _verdicts(["--plan-key", str(key)]), _verdicts(["--plan-key", str(key)])
    assert first == again and len({seed for *_, seed in first}) == len(ZOO_SAMPLE)  # a seed of its own each
    other = tmp_path / "other-key"
    other.write_text("0123456789abcdef\n")
    assert [seed for *_, seed in _verdicts(["--plan-key", str(other)])] != [seed for *_, seed in first]
    replayed = _verdicts(["--plan-seed", str(first[0][3])], files=ZOO_SAMPLE[:1])
    assert replayed == first[:1]


def test_a_plan_key_that_cannot_be_used_is_one_line(tmp_path, capsys):
    (tmp_path / "garbage").write_text("not hex\n")
    for key, message in ((tmp_path / "garbage", "does not hold a plan key"), (tmp_path, "Is a directory")):
        code, _out = run(["validate", str(REPO_ROOT / "tests" / "zoo" / ZOO_SAMPLE[0]), "--plan-key", str(key)])
        err = capsys.readouterr().err
        assert code == 2 and err.count("\n") == 1 and message in err and "Traceback" not in err, err
