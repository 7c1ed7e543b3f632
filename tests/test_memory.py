"""The environment memory: a real SQLite file, read back after every kind of write, including a SIGKILL."""

from __future__ import annotations

import io
import random
import re
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading

import pytest

from spade_envs.cli import main as spade_envs_main
from spade_envs.pool import read_pool
from spade_envs.registry import bundled_registry
from spade_envs.spec.models import CheckFailure, EnvSpec, GroundingRef, Provenance, env_id_for
from spade_train.environments import EnvironmentRecord
from spade_train.memory import (
    MIGRATIONS,
    EnvironmentMemory,
    MemorySchemaError,
)
from spade_train.similarity import normalized_ast_hash, similarity
from tests.conftest import REPO_ROOT


# ---------------------------------------------------------------------------------------------- fixtures
def toy_code(tag: str, length: int = 0) -> str:
    """Distinct, parsable environment code; ``length`` pads it with a comment block."""
    code = f"class Toy{tag}Env:\n    label = {tag!r}\n"
    if length > len(code):
        code += "# " + "x" * (length - len(code) - 3) + "\n"
    return code


def spec_for(code: str, skill: str = "Logical Deduction", **provenance) -> EnvSpec:
    return EnvSpec(id=env_id_for(code), class_name="ToyEnv", kind="multi_turn_game", skill=skill, max_turns=10,
                   provenance=Provenance(author="designer", **provenance))


def add_toy(memory: EnvironmentMemory, tag: str, *, skill: str = "Logical Deduction", valid: bool | None = True,
            win_rate: float | None = None, regret: float = 0.0, step: int = 0, length: int = 0) -> str:
    """Store a toy environment and, if ``win_rate`` is given, one evaluation of it."""
    code = toy_code(tag, length)
    spec = spec_for(code, skill)
    memory.add_environment(EnvironmentRecord(spec, code), valid=valid)
    if win_rate is not None:
        memory.record_evaluation(spec.id, step=step, unhinted_win_rate=win_rate, regret=regret, plays=32)
    return spec.id


@pytest.fixture
def memory(tmp_path):
    with EnvironmentMemory(tmp_path / "run" / "memory.sqlite3") as opened:
        yield opened


def bundled(name: str) -> EnvironmentRecord:
    entry = bundled_registry().get(name)
    return EnvironmentRecord(entry.spec(), entry.source())


def reskin_number_hunt(source: str) -> str:
    """The same game under new names, words, numbers, comments and layout."""
    renames = {"NumberHuntEnv": "RemainderQuestEnv", "_secret": "_hidden_value", "_moduli": "_divisors",
               "_lcm": "_least_multiple", "rng": "generator", "upper": "ceiling", "covering": "good_triples"}
    for old, new in renames.items():
        source = re.sub(rf"\b{old}\b", new, source)
    source = source.replace("Number Hunt.", "Remainder Quest!").replace("1000, 2500", "500, 3000")
    source = source.replace("Correct! The secret number was", "You found it:")
    lines = []
    for line in source.splitlines():  # reformat: comments, blank lines, different wrapping
        lines.append(line)
        if line.strip().startswith("def "):
            lines.append(" " * (len(line) - len(line.lstrip()) + 4) + "# re-skinned copy")
    return "\n\n".join(lines).replace("(self._upper, self._moduli)", "(self._upper,self._moduli)")


# ---------------------------------------------------------------------------------------------- storage
def test_environment_round_trip_with_verdict_and_provenance(memory):
    record = bundled("number_hunt")
    spec, code = record.spec, record.code
    spec = spec.model_copy(update={
        "grounding": GroundingRef(corpus="wiki", doc_id="line-17"),
        "provenance": Provenance(author="designer", step=12, parent_id="env-0123456789abcdef"),
    })
    failure = CheckFailure(check="feasible", message="solution() does not win", line=3)
    assert memory.add_environment(EnvironmentRecord(spec, code), iteration=2, valid=False,
                                  failing_checks=[failure]) is True

    record = memory.get(spec.id)
    assert record is not None and record.spec == spec and record.code == code
    assert record.environment == EnvironmentRecord(spec, code) and record.iteration == 2
    assert record.valid is False and record.failing_checks == (failure,)
    assert record.ast_hash == normalized_ast_hash(code)
    assert memory.get("env-ffffffffffffffff") is None and spec.id in memory

    memory.set_verdict(spec.id, valid=True)
    assert memory.get(spec.id).valid is True and memory.get(spec.id).failing_checks == ()


def test_same_code_is_stored_once_and_ids_must_match(memory):
    code = toy_code("a")
    assert memory.add_environment(EnvironmentRecord(spec_for(code), code)) is True
    assert memory.add_environment(EnvironmentRecord(spec_for(code), code)) is False
    assert memory.count() == 1
    with pytest.raises(ValueError, match="does not match"):
        EnvironmentRecord(spec_for(code), code + "\n# changed\n")
    with pytest.raises(ValueError, match="cannot be valid"):
        memory.add_environment(EnvironmentRecord(spec_for(toy_code("b")), toy_code("b")), valid=True,
                               failing_checks=[CheckFailure(check="imports", message="no")])


def test_environments_filters_and_count(memory):
    add_toy(memory, "a", skill="Optimization", valid=True)
    add_toy(memory, "b", skill="Optimization", valid=False)
    add_toy(memory, "c", skill="Spatial Reasoning", valid=True)
    add_toy(memory, "d", skill="Spatial Reasoning", valid=None)
    assert [r.spec.provenance.author for r in memory.environments()] == ["designer", "designer"]
    assert [r.code for r in memory.environments()] == [toy_code("a"), toy_code("c")]
    assert [r.code for r in memory.environments(valid_only=False, skill="Spatial Reasoning")] == [
        toy_code("c"), toy_code("d")]
    assert memory.count() == 4 and memory.count(valid_only=True) == 2
    assert memory.count(skill="Optimization") == 2


def test_file_is_in_wal_mode_and_reopens_with_everything(tmp_path):
    path = tmp_path / "memory.sqlite3"
    with EnvironmentMemory(path) as memory:
        env_id = add_toy(memory, "a", win_rate=0.5, regret=0.25, step=3)
        assert memory.journal_mode == "wal" and memory.schema_version == len(MIGRATIONS)
        assert (tmp_path / "memory.sqlite3-wal").exists()
    outside = sqlite3.connect(path)
    assert outside.execute("PRAGMA journal_mode").fetchone()[0] == "wal"  # persisted in the file
    outside.close()
    with EnvironmentMemory.for_run(tmp_path / "elsewhere") as other:
        assert other.path == tmp_path / "elsewhere" / "memory.sqlite3" and other.count() == 0
    with EnvironmentMemory(path) as reopened:
        assert reopened.get(env_id).code == toy_code("a")
        assert reopened.latest_stats(env_id).regret == 0.25


def test_closed_memory_refuses_calls(tmp_path):
    memory = EnvironmentMemory(tmp_path / "m.sqlite3")
    memory.close()
    memory.close()
    with pytest.raises(RuntimeError, match="closed"):
        memory.count()


# ---------------------------------------------------------------------------------------------- schema
def test_migration_hook_applies_new_migrations_once(tmp_path):
    path = tmp_path / "m.sqlite3"
    with EnvironmentMemory(path) as memory:
        env_id = add_toy(memory, "a")

    calls = []

    def add_notes_column(conn: sqlite3.Connection) -> None:
        calls.append(1)
        conn.execute("ALTER TABLE environments ADD COLUMN notes TEXT")

    with EnvironmentMemory(path, migrations=MIGRATIONS + (add_notes_column,)) as memory:
        assert memory.schema_version == len(MIGRATIONS) + 1 and memory.get(env_id) is not None
    with EnvironmentMemory(path, migrations=MIGRATIONS + (add_notes_column,)) as memory:
        assert memory.schema_version == len(MIGRATIONS) + 1
    assert calls == [1]
    with pytest.raises(MemorySchemaError, match="newer than this code"):
        EnvironmentMemory(path)


def test_a_failing_migration_leaves_the_old_schema(tmp_path):
    path = tmp_path / "m.sqlite3"
    EnvironmentMemory(path).close()

    def half_done(conn: sqlite3.Connection) -> None:
        conn.execute("CREATE TABLE scratch (x INTEGER)")
        raise RuntimeError("migration bug")

    with pytest.raises(RuntimeError, match="migration bug"):
        EnvironmentMemory(path, migrations=MIGRATIONS + (half_done,))
    with EnvironmentMemory(path) as memory:
        assert memory.schema_version == len(MIGRATIONS)
    tables = {row[0] for row in sqlite3.connect(path).execute("SELECT name FROM sqlite_master")}
    assert "scratch" not in tables


# ---------------------------------------------------------------------------------------------- history
def test_regret_history_is_ordered_by_step_then_recording(memory):
    env_id = add_toy(memory, "a")
    assert memory.latest_stats(env_id) is None and memory.history(env_id) == []
    for step, regret in ((5, 0.5), (1, 0.1), (3, 0.3), (3, 0.35)):
        memory.record_evaluation(env_id, step=step, unhinted_win_rate=0.4, hinted_win_rate=0.6, regret=regret,
                                 regret_ci=(regret - 0.1, regret + 0.1), plays=32)
    assert [(e.step, e.regret) for e in memory.history(env_id)] == [(1, 0.1), (3, 0.3), (3, 0.35), (5, 0.5)]
    latest = memory.latest_stats(env_id)
    assert (latest.step, latest.regret, latest.hinted_win_rate, latest.plays) == (5, 0.5, 0.6, 32)
    assert latest.regret_ci_low == pytest.approx(0.4) and latest.regret_ci_high == pytest.approx(0.6)
    memory.record_evaluation(env_id, step=5, unhinted_win_rate=0.2, regret=0.7, plays=16)
    assert memory.latest_stats(env_id).regret == 0.7  # same step: the later recording wins


def test_evaluations_are_checked(memory):
    env_id = add_toy(memory, "a")
    with pytest.raises(KeyError, match="add_environment"):
        memory.record_evaluation("env-ffffffffffffffff", step=0, unhinted_win_rate=0.5, regret=0.0, plays=1)
    for bad in ({"unhinted_win_rate": 1.5}, {"hinted_win_rate": -0.1}, {"regret": float("nan")},
                {"regret_ci": (0.3, 0.1)}, {"step": -1}):
        arguments = {"step": 0, "unhinted_win_rate": 0.5, "regret": 0.0, "plays": 8, **bad}
        with pytest.raises(ValueError):
            memory.record_evaluation(env_id, **arguments)
    assert memory.history(env_id) == []


def test_batch_commits_all_or_nothing(memory):
    with pytest.raises(RuntimeError), memory.batch():
        add_toy(memory, "a", win_rate=0.5)
        raise RuntimeError("designer crashed mid-batch")
    assert memory.count() == 0
    with memory.batch():
        add_toy(memory, "a", win_rate=0.5)
        add_toy(memory, "b", win_rate=0.5)
    assert memory.count() == 2


def test_threads_share_one_memory(memory):
    def writer(thread: int) -> None:
        for i in range(10):
            add_toy(memory, f"t{thread}_{i}", win_rate=0.5, step=i)

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert memory.count() == 40
    assert all(len(memory.history(r.id)) == 1 for r in memory.environments())


# ---------------------------------------------------------------------------------------------- durability
KILLED_WRITER = textwrap.dedent(
    """
    import os, signal, sys
    from spade_envs.spec.models import EnvSpec, env_id_for
    from spade_train.environments import EnvironmentRecord
    from spade_train.memory import EnvironmentMemory

    def spec(code):
        return EnvSpec(id=env_id_for(code), class_name="ToyEnv", kind="multi_turn_game",
                       skill="Optimization", max_turns=10)

    memory = EnvironmentMemory(sys.argv[1])
    for i in range(25):
        code = f"class Toy{i}Env:\\n    pass\\n"
        memory.add_environment(EnvironmentRecord(spec(code), code), valid=True)
        memory.record_evaluation(env_id_for(code), step=i, unhinted_win_rate=0.5, regret=i / 100, plays=32)
    with memory.batch():  # begun, never committed
        code = "class UncommittedEnv:\\n    pass\\n"
        memory.add_environment(EnvironmentRecord(spec(code), code), valid=True)
        os.kill(os.getpid(), signal.SIGKILL)
    """
)


def test_sigkill_after_commit_loses_no_committed_record(tmp_path):
    path = tmp_path / "memory.sqlite3"
    child = subprocess.run([sys.executable, "-c", KILLED_WRITER, str(path)], cwd=REPO_ROOT, check=False,
                           capture_output=True, text=True, timeout=60)
    assert child.returncode == -signal.SIGKILL, child.stderr
    assert (tmp_path / "memory.sqlite3-wal").stat().st_size > 0  # never checkpointed: recovery reads the WAL
    with EnvironmentMemory(path) as memory:
        assert memory.count() == 25
        for i in range(25):
            env_id = env_id_for(f"class Toy{i}Env:\n    pass\n")
            assert memory.get(env_id).valid is True
            assert [e.regret for e in memory.history(env_id)] == [i / 100]
        assert env_id_for("class UncommittedEnv:\n    pass\n") not in memory


# ---------------------------------------------------------------------------------------------- prompt sampling
def positive_ids(examples):
    return {e.env_id for e in examples if e.label == "positive"}


def test_win_rate_boundaries(memory):
    ids = {rate: add_toy(memory, str(rate), win_rate=rate, regret=0.2)
           for rate in (0.09, 0.1, 0.1499, 0.15, 0.5, 0.85, 0.8501, 0.9, 0.91)}
    examples = memory.prompt_examples(["Logical Deduction"], random.Random(0), positives=20, negatives=20)
    assert positive_ids(examples) == {ids[0.15], ids[0.5], ids[0.85]}
    negatives = {e.env_id: e for e in examples if e.label != "positive"}
    assert set(negatives) == {ids[0.09], ids[0.91]}  # 0.1 and 0.9 themselves are neither
    assert negatives[ids[0.91]].label == "too_easy" and "too easy" in negatives[ids[0.91]].reason
    assert negatives[ids[0.09]].label == "too_hard" and "too hard" in negatives[ids[0.09]].reason


def test_default_is_two_positives_and_one_negative_per_skill(memory):
    for i in range(6):
        add_toy(memory, f"l{i}", skill="Logical Deduction", win_rate=0.5, regret=i / 10)
        add_toy(memory, f"o{i}", skill="Optimization", win_rate=0.5, regret=i / 10)
    add_toy(memory, "easy", skill="Optimization", win_rate=0.95)
    examples = memory.prompt_examples(["Logical Deduction", "Optimization"], random.Random(1))
    assert [(e.skill, e.label) for e in examples] == [
        ("Logical Deduction", "positive"), ("Logical Deduction", "positive"),
        ("Optimization", "positive"), ("Optimization", "positive"), ("Optimization", "too_easy")]
    assert memory.prompt_examples("Spatial Reasoning", random.Random(1)) == []


@pytest.mark.parametrize(("positives", "pool"), [(2, 10), (3, 10), (4, 12)])
def test_positives_come_from_the_top_max_3n_10_by_regret(memory, positives, pool):
    regrets = {add_toy(memory, str(i), win_rate=0.5, regret=i / 100): i / 100 for i in range(30)}
    top = set(sorted(regrets, key=regrets.get, reverse=True)[:pool])
    rng = random.Random(7)
    seen: set[str] = set()
    for _ in range(300):
        examples = memory.prompt_examples(["Logical Deduction"], rng, positives=positives)
        assert len(examples) == positives and positive_ids(examples) <= top
        seen |= positive_ids(examples)
    assert seen == top  # uniform over the whole top, not just its head


def test_sampling_is_reproducible_with_a_seed(memory):
    for i in range(20):
        add_toy(memory, str(i), win_rate=0.2 + i / 50, regret=i / 40)
        add_toy(memory, f"hard{i}", win_rate=0.05)
    draws = [memory.prompt_examples(["Logical Deduction"], random.Random(seed)) for seed in (3, 3, 4, 5, 6)]
    assert draws[0] == draws[1]
    assert any(draw != draws[0] for draw in draws[2:])


def test_snippets_are_cut_to_2000_characters(memory):
    env_id = add_toy(memory, "long", win_rate=0.5, length=5000)
    (example,) = memory.prompt_examples(["Logical Deduction"], random.Random(0))
    full = memory.get(env_id).code
    assert len(full) == 5000 and example.code == full[:2000]
    assert (example.win_rate, example.step) == (0.5, 0)


def test_only_the_most_recently_evaluated_capacity_are_eligible(tmp_path):
    with EnvironmentMemory(tmp_path / "m.sqlite3", capacity=5) as memory:
        ids = [add_toy(memory, str(i), win_rate=0.5, regret=1.0 - i / 10, step=i) for i in range(10)]
        add_toy(memory, "never-evaluated")
        eligible = positive_ids(memory.prompt_examples(["Logical Deduction"], random.Random(0), positives=10))
        assert eligible == set(ids[5:])
        memory.record_evaluation(ids[0], step=10, unhinted_win_rate=0.6, regret=0.9, plays=32)  # back in
        eligible = positive_ids(memory.prompt_examples(["Logical Deduction"], random.Random(0), positives=10))
        assert eligible == {ids[0], *ids[6:]}


def test_latest_evaluation_decides_and_invalid_envs_are_never_shown(memory):
    moved = add_toy(memory, "moved", win_rate=0.5, regret=0.3, step=1)
    memory.record_evaluation(moved, step=2, unhinted_win_rate=0.95, regret=0.0, plays=32)
    broken = add_toy(memory, "broken", valid=False, win_rate=0.5, regret=0.9)
    examples = memory.prompt_examples(["Logical Deduction"], random.Random(0), positives=5, negatives=5)
    assert [(e.env_id, e.label, e.step) for e in examples] == [(moved, "too_easy", 2)]
    assert broken not in {e.env_id for e in examples}


# ---------------------------------------------------------------------------------------------- similarity
def test_reskinned_copy_has_the_same_ast_hash():
    original = bundled("number_hunt").code
    copy = reskin_number_hunt(original)
    assert env_id_for(copy) != env_id_for(original) and "RemainderQuestEnv" in copy
    assert normalized_ast_hash(copy) == normalized_ast_hash(original)
    assert similarity(copy, original) == 1.0


def test_different_games_are_not_similar():
    number_hunt = bundled("number_hunt").code
    maze_walk = bundled("maze_walk").code
    hanoi = bundled("hanoi_tower").code
    assert normalized_ast_hash(number_hunt) != normalized_ast_hash(maze_walk)
    assert similarity(number_hunt, maze_walk) < 0.3 and similarity(number_hunt, hanoi) < 0.3
    edited = number_hunt.replace("        self._turn += 1\n", "        self._turn += 1\n        self._turn += 0\n")
    assert normalized_ast_hash(edited) != normalized_ast_hash(number_hunt)
    assert 0.9 < similarity(edited, number_hunt) < 1.0  # a small edit stays close


def test_find_near_duplicates_and_novelty(memory):
    for name in ("number_hunt", "mastermind"):
        memory.add_environment(bundled(name), valid=True)
    spec, original = bundled("number_hunt").spec, bundled("number_hunt").code
    copy = reskin_number_hunt(original)
    (duplicate,) = memory.find_near_duplicates(copy, threshold=0.9)
    assert (duplicate.env_id, duplicate.similarity, duplicate.same_ast) == (spec.id, 1.0, True)
    assert memory.novelty(copy) == 0.0

    maze = bundled("maze_walk").code
    assert memory.find_near_duplicates(maze, threshold=0.5) == []
    assert memory.novelty(maze) > 0.6
    assert memory.find_near_duplicates("def broken(:\n", threshold=0.5) == []


def test_novelty_looks_only_at_the_most_recent_window(tmp_path):
    with EnvironmentMemory(tmp_path / "m.sqlite3", novelty_window=2) as memory:
        assert memory.novelty(toy_code("x")) == 1.0  # empty memory: everything is new
        memory.add_environment(bundled("number_hunt"))
        copy = reskin_number_hunt(bundled("number_hunt").code)
        assert memory.novelty(copy) == 0.0
        for name in ("maze_walk", "hanoi_tower"):
            memory.add_environment(bundled(name))
        assert memory.novelty(copy) > 0.6  # number_hunt has left the window of 2
        assert memory.novelty(copy, window=3) == 0.0
        assert [d.env_id for d in memory.find_near_duplicates(copy)] == [env_id_for(bundled("number_hunt").code)]


# ---------------------------------------------------------------------------------------------- export
def test_export_pool_round_trips_and_validates(memory, tmp_path):
    specs = {}
    for step, name in enumerate(("number_hunt", "mastermind")):
        record = bundled(name)
        spec = record.spec
        memory.add_environment(record, valid=True)
        memory.record_evaluation(spec.id, step=step, unhinted_win_rate=0.25, regret=0.1, plays=32)
        memory.record_evaluation(spec.id, step=step + 4, unhinted_win_rate=0.5, hinted_win_rate=0.75,
                                 regret=0.25, regret_ci=(0.05, 0.45), plays=32)
        specs[name] = spec
    add_toy(memory, "broken", valid=False, win_rate=0.5)

    out = tmp_path / "pool"
    manifest = memory.export_pool(out, "run-7")
    loaded = read_pool(out)
    assert [entry.spec for entry, _ in loaded] == [specs["number_hunt"], specs["mastermind"]]
    assert manifest.name == "run-7" and all(entry.validated for entry, _ in loaded)
    assert [source for _, source in loaded] == [bundled("number_hunt").code, bundled("mastermind").code]
    stats = loaded[0][0].stats
    assert stats == {"step": 4.0, "unhinted_win_rate": 0.5, "hinted_win_rate": 0.75, "regret": 0.25,
                     "regret_ci_low": 0.05, "regret_ci_high": 0.45, "plays": 32.0, "evaluations": 2.0}

    report = io.StringIO()
    code = spade_envs_main(["validate", str(out), "--examples", "0", "--sandbox", "inprocess", "--jobs", "1"],
                           out=report)
    assert code == 0 and "2 valid, 0 invalid" in report.getvalue()


def test_export_filters_by_skill_and_marks_unvalidated_pools(memory, tmp_path):
    memory.add_environment(bundled("number_hunt"), valid=True)
    memory.add_environment(bundled("mastermind"), valid=None)
    only_math = memory.export_pool(tmp_path / "math", "math", skill="Mathematical Reasoning")
    assert [e.spec.class_name for e in only_math.entries] == ["NumberHuntEnv"]
    everything = memory.export_pool(tmp_path / "all", "all", min_validated=False)
    assert len(read_pool(tmp_path / "all")) == 2 and not any(e.validated for e in everything.entries)
    assert everything.entries[0].stats == {"evaluations": 0.0}
