"""An OpenEnv environment folder audited in one command (issue 49): `spade-envs validate openenv:FOLDER`.

The folders are made by OpenEnv's own `openenv init` (its echo environment), then changed the way a user
would get them wrong; the served classes run in the process sandbox, driven as OpenEnv's server drives
them."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest

from spade_envs.cli import main
from tests.requires import require

require("openenv")  # found, not imported: collection stays cheap on every xdist worker


@pytest.fixture(scope="module")
def echo_env(tmp_path_factory) -> Path:
    """`openenv init echo_env`: OpenEnv's own template, written by the command's own function (its command
    line takes 8 s to start)."""
    from openenv.cli.commands.init import init

    root = tmp_path_factory.mktemp("openenv")
    init("echo_env", str(root))
    return root / "echo_env"


def _variant(echo_env: Path, root: Path, name: str, old: str, new: str) -> Path:
    """A copy of the template (under ``root/name``) with one change to the environment's code."""
    folder = root / name / "echo_env"
    shutil.copytree(echo_env, folder)
    module = folder / "server" / "echo_env_environment.py"
    code = module.read_text(encoding="utf-8")
    assert old in code, "openenv's template changed"
    module.write_text(code.replace(old, new), encoding="utf-8")
    return folder


def test_openenv_environments_are_validated_in_one_command(echo_env, tmp_path):
    # Two mistakes a user makes: a reward that grows without bound, and a task drawn without the seed.
    unbounded = _variant(echo_env, tmp_path, "loud", "reward = min(length * 0.1, 1.0)", "reward = length * 0.1")
    unseeded = _variant(echo_env, tmp_path, "drift", 'echoed_message="Echo Env environment ready!"',
                        'echoed_message=f"ready {uuid4()}"')
    honest = echo_env
    out = io.StringIO()
    code = main(["validate", f"openenv:{honest}", f"openenv:{unbounded}", f"openenv:{unseeded}", "--sandbox",
                 "process", "--examples", "10", "--seeds", "1", "--plan-seed", "0", "--jobs", "1", "--json"], out=out)
    document = json.loads(out.getvalue())
    results = {r["path"].split("/")[-2]: r for r in document["results"]}
    assert code == 1
    echo = results[echo_env.parent.name]
    assert echo["ok"] and echo["failures"] == [], echo["failures"]
    assert [t["tier"] for t in echo["tiers"]] == ["static", "contract", "fuzz"]
    assert "reward_range" in {f["check"] for f in results["loud"]["failures"]}, results["loud"]["failures"]
    assert "reset_deterministic" in {f["check"] for f in results["drift"]["failures"]}
    inputs = {i["path"]: i for i in document["summary"]["inputs"]}
    assert any("no reference solution" in note for note in inputs[f"openenv:{honest}"]["not_checked"])


def test_an_openenv_environment_is_played_with_boxed_moves(echo_env):
    out = io.StringIO()
    code = main(["play", f"openenv:{echo_env}", "--sandbox", "process", "--seed", "1"], out=out,
                stdin=io.StringIO("\\boxed{hello}\nplain text here\n"))
    text = out.getvalue()
    assert code == 0, text
    # The move inside the box is the action's message; a reply without a box is sent whole.
    assert '"echoed_message": "hello"' in text and "reward=0.5" in text
    assert '"echoed_message": "plain text here"' in text and "reward=1 " in text


@pytest.mark.parametrize(("layout", "message"), [
    ({}, "not a folder"),
    ({"models.py": "X = 1\n"}, "no server/app.py"),
    ({"server/app.py": "app = None\n"}, "calls no create_app"),
    ({"server/app.py": "from openenv.core.env_server.http_server import create_app\n"
                       "app = create_app(Env, Action, Observation)\n"}, "does not import it"),
    ({"server/app.py": "def broken(:\n"}, "cannot read server/app.py"),
])
def test_a_folder_that_is_not_an_openenv_environment_is_refused_in_one_line(tmp_path, capsys, layout, message):
    folder = tmp_path / "env"
    for name, text in layout.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    target = folder if layout else tmp_path / "missing"
    assert main(["validate", f"openenv:{target}", "--sandbox", "process"], out=io.StringIO()) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1
