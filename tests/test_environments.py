"""The environment record and its one loader: what a design's code is, and "bundled or a pool directory"."""

from __future__ import annotations

import pytest

from spade_envs.pool import PoolError, write_pool
from spade_envs.registry import bundled_registry
from spade_envs.spec.models import EnvSpec, env_id_for
from spade_train.environments import BUNDLED, EnvironmentRecord, kind_of_code, load_environments, pool_entries
from tests.conftest import COUNTER_ENV


def test_the_kind_is_what_the_code_is():
    assert kind_of_code("multi_turn_game", tool_use=True, solution="<tool_call>...") == "tool_use"
    assert kind_of_code("tool_use", tool_use=False, solution=["\\boxed{1}"]) == "multi_turn_game"
    assert kind_of_code("multi_turn_game", tool_use=False, solution="42") == "single_answer"
    assert kind_of_code("corpus_grounded", tool_use=False, solution=["\\boxed{peek 1}"]) == "corpus_grounded"
    # The bundled library's declared kinds agree with the rule (a seed of each, opened in process).
    from spade_envs.runtime import create_backend

    backend = create_backend("inprocess")
    for entry in bundled_registry():
        with backend.open_session(entry.source(), class_name=entry.class_name) as session:
            session.reset(0)
            found = kind_of_code(entry.kind, tool_use=session.loaded.tool_use, solution=session.solution())
        assert found == entry.kind, entry.name


def test_a_record_keeps_spec_and_code_together():
    spec = EnvSpec(id=env_id_for(COUNTER_ENV), class_name="CounterEnv", kind="single_answer", skill="Logic",
                   max_turns=5)
    record = EnvironmentRecord(spec, COUNTER_ENV)
    hinted = record.with_hint("Add the two numbers.")
    assert hinted.spec.hint == "Add the two numbers." and record.spec.hint is None and hinted.code == record.code
    assert record.label == record.id == spec.id
    with pytest.raises(ValueError, match="does not match its code"):
        EnvironmentRecord(spec, COUNTER_ENV + "\n# changed\n")


def test_one_loader_reads_the_bundled_library_and_pool_directories(tmp_path):
    bundled = load_environments(BUNDLED)
    assert [record.name for record in bundled] == bundled_registry().names()
    assert bundled[0].label == bundled[0].name and all(r.spec.reward_range == (0.0, 1.0) or r.spec.kind == "tool_use"
                                                       for r in bundled)
    games = load_environments(BUNDLED, kinds={"multi_turn_game"})
    assert games and {record.spec.kind for record in games} == {"multi_turn_game"}
    write_pool(tmp_path / "pool", "games", pool_entries(games), validated=True)
    assert load_environments(tmp_path / "pool") == games  # names are labels only: equal records
    assert all(record.name is None for record in load_environments(tmp_path / "pool"))
    with pytest.raises(PoolError, match="no manifest.json"):
        load_environments(tmp_path / "nowhere")
