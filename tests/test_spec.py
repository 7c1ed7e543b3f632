"""Spec models, their committed JSON Schemas, and pool export/import."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from spade_envs.pool import PoolError, read_pool, write_pool
from spade_envs.registry import bundled_registry
from spade_envs.spec import EnvSpec, EpisodeLog, PoolManifest, env_id_for
from spade_envs.spec.schemas import render_schemas, stale_schemas
from tests.conftest import REPO_ROOT


def test_committed_schemas_are_current():
    stale = stale_schemas(REPO_ROOT / "schemas")
    assert not stale, f"regenerate with `make schemas` (stale: {stale})"


def test_schemas_are_valid_json_schema_documents():
    for name, text in render_schemas().items():
        schema = json.loads(text)
        assert schema["$schema"].endswith("2020-12/schema") and schema["type"] == "object", name


def test_env_id_ignores_line_endings_and_trailing_space():
    assert env_id_for("a = 1  \r\nb = 2\n") == env_id_for("a = 1\nb = 2")
    assert env_id_for("a = 1") != env_id_for("a = 2")


def test_spec_rejects_bad_values():
    good = {"id": env_id_for("x"), "class_name": "XEnv", "kind": "multi_turn_game", "skill": "Optimization",
            "max_turns": 5}
    EnvSpec(**good)
    for bad in ({"kind": "arcade"}, {"class_name": "Thing"}, {"max_turns": 0}, {"reward_range": (1, 0)},
                {"id": "abc"}, {"surprise": 1}):
        with pytest.raises(ValidationError):
            EnvSpec(**{**good, **bad})


def test_episode_log_alignment():
    EpisodeLog(seed=1, actions=["a"], observations=["o0", "o1"], rewards=[1.0], terminated=True,
               truncated=False, episode_return=1.0)
    with pytest.raises(ValidationError, match="one observation more"):
        EpisodeLog(seed=1, actions=["a"], observations=["o0"], rewards=[1.0], terminated=True,
                   truncated=False, episode_return=1.0)


def test_pool_round_trip_and_tamper_detection(tmp_path):
    envs = [(entry.spec(), entry.source()) for entry in list(bundled_registry())[:3]]
    manifest = write_pool(tmp_path, "demo", envs, validated=True, stats={envs[0][0].id: {"regret": 0.25}})
    loaded = read_pool(tmp_path)
    assert [e.spec.id for e, _ in loaded] == [spec.id for spec, _ in envs]
    assert [source for _, source in loaded] == [source for _, source in envs]
    assert loaded[0][0].stats == {"regret": 0.25}
    assert PoolManifest.model_validate_json((tmp_path / "manifest.json").read_text()) == manifest
    jsonl = tmp_path / "environments.jsonl"
    jsonl.write_text(jsonl.read_text().replace("def ", "def  ", 1))
    with pytest.raises(PoolError, match="modified"):
        read_pool(tmp_path)


def test_pool_errors_are_one_line(tmp_path):
    with pytest.raises(PoolError, match="no manifest.json"):
        read_pool(tmp_path)
    (tmp_path / "manifest.json").write_text('{"name": 3}')
    with pytest.raises(PoolError, match="name"):
        read_pool(tmp_path)
