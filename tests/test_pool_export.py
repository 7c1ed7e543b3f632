"""``spade-envs export OUT FILES_OR_DIRS...`` and ``DIR#ID``: pools built from any environments, entries named."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from spade_envs.cli import main
from spade_envs.library import LIBRARY_DIR
from spade_envs.pool import PoolError, read_pool, read_pool_ref, split_pool_ref
from spade_train.environments import load_environments

HINTED = '''
import random


class HintedEnv:
    reward_range = (0.0, 1.0)

    def __init__(self, max_turns=3, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        rng = random.Random(seed)
        self.left, self.right = rng.randrange(100, 1000), rng.randrange(100, 1000)
        self.turns = 0
        return f"What is {self.left} times {self.right}? Answer as \\\\boxed{{N}}.", {}

    def step(self, action):
        self.turns += 1
        won = action.strip().endswith("\\\\boxed{" + self.solution() + "}")
        lost = not won and self.turns >= self.max_turns
        return ("right" if won else "wrong"), (1.0 if won else 0.0), won, lost, {}

    def solution(self):
        return str(self.left * self.right)

    def hint(self):
        return "split one factor into hundreds, tens and ones"

    def close(self):
        pass
'''

BROKEN = "class BrokenEnv:\n    def __init__(self, max_turns=3):\n        self.max_turns = max_turns\n"


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(argv), out=out), out.getvalue()


@pytest.fixture(scope="module")
def packed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("export")
    mine = root / "mine"
    mine.mkdir()
    (mine / "hinted.py").write_text(HINTED, encoding="utf-8")
    (mine / "tools.py").write_text((LIBRARY_DIR / "warehouse_tools.py").read_text(encoding="utf-8"), encoding="utf-8")
    code, output = run("export", str(root / "mypool"), str(mine), "mastermind", "--examples", "0",
                       "--skill", "Logical Deduction", "--jobs", "2")
    assert code == 0, output
    assert output.strip().endswith(f"wrote 3 environments to {root / 'mypool'}")
    return root / "mypool"


def test_export_packs_files_with_specs_read_in_the_sandbox(packed: Path) -> None:
    specs = {entry.spec.class_name: entry.spec for entry, _ in read_pool(packed)}
    hinted, tools, mastermind = specs["HintedEnv"], specs["WarehouseLookupEnv"], specs["MastermindEnv"]
    assert (hinted.kind, hinted.max_turns, hinted.reward_range) == ("single_answer", 3, (0.0, 1.0))
    assert hinted.hint == "split one factor into hundreds, tens and ones" and hinted.skill == "Logical Deduction"
    assert tools.kind == "tool_use" and tools.reward_range == (-0.1, 1.0)
    assert mastermind.skill == "Logical Deduction" and mastermind.kind == "multi_turn_game"  # the bundled spec
    manifest = json.loads((packed / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["name"] == "mypool" and all(e["validated"] and len(e["code_sha256"]) == 64
                                                for e in manifest["entries"])


def test_an_invalid_file_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "broken.py").write_text(BROKEN, encoding="utf-8")
    code, output = run("export", str(tmp_path / "out"), str(tmp_path / "broken.py"), "--examples", "0")
    assert code == 1 and "nothing was written" in output
    assert not (tmp_path / "out").exists()
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "todo.txt").write_text("x", encoding="utf-8")
    code, _ = run("export", str(tmp_path / "notes"), "mastermind", "--examples", "0")
    assert code == 2 and "already holds files that are not a pool" in capsys.readouterr().err


def test_pool_entries_are_named_dir_hash_id(packed: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (entry, _), = read_pool_ref(f"{packed}#{read_pool(packed)[0][0].spec.id}")
    assert split_pool_ref(f"{packed}#{entry.spec.id[:9]}") == (packed, entry.spec.id[:9])
    assert [r.id for r in load_environments(f"{packed}#{entry.spec.id[:10]}")] == [entry.spec.id]
    with pytest.raises(PoolError, match="has no environment 'env-nope'; its ids: env-"):
        read_pool_ref(f"{packed}#env-nope")
    with pytest.raises(PoolError, match="matches 3 environments"):
        read_pool_ref(f"{packed}#env-")
    hinted = next(e for e, _ in read_pool(packed) if e.spec.class_name == "HintedEnv")
    code, output = run("play", f"{packed}#{hinted.spec.id}", "--solution", "--seed", "3")
    assert code == 0 and "Episode over after 1 actions: return 1" in output
    code, output = run("validate", f"{packed}#{hinted.spec.id}", "--examples", "0", "--seeds", "1")
    assert code == 0 and f"{packed}#{hinted.spec.id}" in "".join(output.split())  # a long path may wrap
    code, _ = run("play", f"{packed}#env-nope")
    assert code == 2 and "has no environment 'env-nope'" in capsys.readouterr().err
