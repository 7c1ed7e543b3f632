"""The shared environment pool of the OpenRLHF backend: as a plain class, and as the Ray named actor.

Ray starts once for this module, on one CPU (a few seconds); everything else runs without it.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from spade_envs.runtime import ExecutionLimits, create_backend
from spade_envs.runtime.errors import EnvCrashError
from spade_envs.spec.models import EnvSpec, Provenance, env_id_for
from spade_train.backends.openrlhf.pool import (
    ATTEMPTS_FILE,
    METRICS_FILE,
    STATE_FILE,
    DesignReport,
    EnvironmentPool,
    PoolError,
)
from spade_train.run_config import RunConfig, parse_run_config
from tests.conftest import COUNTER_ENV

GAME_KINDS = {"multi_turn_game"}


def make_config(**openrlhf: Any) -> RunConfig:
    loop = openrlhf.pop("loop", {})
    return parse_run_config({
        "run": {"backend": "openrlhf", "iterations": 3},
        "model": {"path": "Qwen/Qwen3-4B-Instruct-2507"},
        "design": {"language": "python", "hinter": "model"},
        "loop": {"envs_per_iteration": 2, "skills": ["Logical Deduction"], "use_corpus": True, **loop},
        "sampling": {"designer_temperature": 0.6, "temperature": 0.6},
        "openrlhf": {"rollout_batch_size": 2, "n_samples_per_prompt": 2, "designer_delay_steps": 1,
                     "nodes": 1, "gpus_per_node": 1, "vllm_engines": 1, **openrlhf},
    })


def counter_report(step: int = 1, *, valid: bool = True, row: int = 0, regret: float = 0.5) -> DesignReport:
    """What the executor sends after a played design of the counter game (memory writes included)."""
    spec = EnvSpec(id=env_id_for(COUNTER_ENV), class_name="CounterEnv", kind="multi_turn_game",
                   skill="Logical Deduction", max_turns=5, provenance=Provenance(author="test", step=step))
    writes = [("add_environment", (spec, COUNTER_ENV), {"iteration": step, "valid": valid, "failing_checks": []})]
    if valid:
        writes.append(("record_evaluation", (spec.id,), {"step": step, "unhinted_win_rate": 0.5,
                                                         "hinted_win_rate": 1.0, "regret": regret, "plays": 4}))
    return DesignReport(row=row, step=step, kind="multi_turn_game", skill="Logical Deduction",
                        memory_writes=tuple(writes), valid=valid, played=valid, env_id=spec.id,
                        class_name="CounterEnv", code=COUNTER_ENV if valid else None, max_turns=5,
                        hint="Read the number." if valid else None, regret=regret if valid else None,
                        win_rate_unhinted=0.5 if valid else None, unhinted_returns=(1.0, 0.0) if valid else (),
                        raw_reward=0.8 if valid else 0.0, rejection=None if valid else "invalid environment")


def test_every_sample_of_an_agent_row_plays_one_environment_on_its_own_seed(tmp_path):
    pool = EnvironmentPool(make_config(), tmp_path)
    assert {e.kind for e in pool.environments.values()} == GAME_KINDS and len(pool.environments) >= 6
    leases = [pool.lease(row=7, samples=4) for _ in range(4)]
    assert len({lease.env_id for lease in leases}) == 1
    assert [lease.seed for lease in leases] == [leases[0].seed + i for i in range(4)]
    assert pool.rows_started == 1
    pool.lease(row=7, samples=4)  # the row was used up: the same number now starts a new row
    assert pool.rows_started == 2 and pool.step == 2


def test_the_window_keeps_self_play_on_new_environments_but_a_fixed_pool_is_drawn_whole(tmp_path):
    from spade_envs.pool import write_pool
    from spade_envs.registry import bundled_registry

    games = [(entry.spec(), entry.source()) for entry in bundled_registry() if entry.kind == "multi_turn_game"]
    write_pool(tmp_path / "fixed", "games", games, validated=True)
    fixed = EnvironmentPool(make_config(pool="fixed", fixed_pool=str(tmp_path / "fixed"), pool_window=1),
                            tmp_path / "a")
    assert len({fixed.lease(row=row, samples=1).env_id for row in range(40)}) > 1
    windowed = EnvironmentPool(make_config(pool_window=1), tmp_path / "b")
    newest = list(windowed.environments)[-1]
    assert {windowed.lease(row=row, samples=1).env_id for row in range(10)} == {newest}


def test_a_designer_rows_samples_share_one_plan_and_training_waits_for_the_delay(tmp_path):
    pool = EnvironmentPool(make_config(), tmp_path)
    first, second = (pool.plan_design(row=0, samples=2, skill="Logical Deduction", kind="multi_turn_game")
                     for _ in range(2))
    assert first is second and first.step == 1 and not first.train  # designer_delay_steps = 1
    assert first.document is not None and first.corpus_name  # use_corpus: one document for the whole row
    pool.lease(row=1, samples=1)
    later = pool.plan_design(row=2, samples=2, skill="Logical Deduction", kind="multi_turn_game")
    assert later.step == 2 and later.train and later.seed != first.seed
    # A remembered environment in the positive band becomes an example in later plans.
    pool.record_design(counter_report())
    with_memory = pool.plan_design(row=3, samples=1, skill="Logical Deduction", kind="multi_turn_game")
    assert [example.env_id for example in with_memory.examples] == [env_id_for(COUNTER_ENV)]
    no_memory = EnvironmentPool(make_config(loop={"use_memory": False, "use_corpus": False}), tmp_path / "other")
    plan = no_memory.plan_design(row=0, samples=1, skill="Logical Deduction", kind="multi_turn_game")
    assert plan.examples == () and plan.document is None


def test_a_played_design_joins_the_pool_and_the_memory(tmp_path):
    pool = EnvironmentPool(make_config(), tmp_path)
    before = len(pool.environments)
    assert not pool.record_design(counter_report(valid=False))
    assert len(pool.environments) == before and pool.memory.get(env_id_for(COUNTER_ENV)).valid is False
    assert pool.record_design(counter_report(step=2, row=1))
    newest = list(pool.environments.values())[-1]
    assert newest.env_id == env_id_for(COUNTER_ENV) and newest.origin == "designed" and newest.hint
    assert pool.memory.latest_stats(newest.env_id).regret == 0.5
    assert pool.near_duplicates(COUNTER_ENV, 0.9)[0].env_id == newest.env_id
    assert pool.emas["Logical Deduction"].slow == 0.5
    lines = [json.loads(line) for line in (tmp_path / ATTEMPTS_FILE).read_text().splitlines()]
    assert [line["valid"] for line in lines] == [False, True] and "code" not in lines[0]
    hinted = pool.lease(row=9, samples=1, hinted=True)
    assert hinted.env_id == newest.env_id and hinted.hint == "Read the number."  # only it has a hint


def test_environments_that_keep_failing_leave_the_pool(tmp_path):
    pool = EnvironmentPool(make_config(), tmp_path)
    victim = next(iter(pool.environments))
    for _ in range(3):
        pool.report_episode(victim, 0.0, False, env_error=True)
    assert victim not in pool.environments
    other = next(iter(pool.environments))
    pool.report_episode(other, 1.0, True, env_error=False)
    assert pool.environments[other].plays == 1 and pool.environments[other].wins == 1


def test_checkpoint_and_restore_continue_the_same_run(tmp_path):
    pool = EnvironmentPool(make_config(), tmp_path)
    for row in range(5):
        lease = pool.lease(row=row, samples=1)
        pool.report_episode(lease.env_id, 1.0, row % 2 == 0, env_error=False)
    pool.record_design(counter_report(step=pool.step, row=5))
    pool.checkpoint()
    restored = EnvironmentPool(make_config(), tmp_path, restore=True)
    assert restored.state_dict() == pool.state_dict()
    assert restored.rows_started == 5 and restored.step == 3  # 2 rows per step
    # Same state, same rng: both continue with the same leases and plans.
    assert [restored.lease(row=r, samples=1) for r in range(10, 14)] == [pool.lease(row=r, samples=1)
                                                                           for r in range(10, 14)]
    assert (restored.plan_design(20, 1, "Logical Deduction", "multi_turn_game").seed
            == pool.plan_design(20, 1, "Logical Deduction", "multi_turn_game").seed)
    metrics = [json.loads(line) for line in (tmp_path / METRICS_FILE).read_text().splitlines()]
    assert [row["step"] for row in metrics][:2] == [1, 2]  # then both pools write their steps
    assert pool.finish() >= 1 and (tmp_path / "pool" / "manifest.json").is_file()


def test_a_fresh_start_ignores_an_old_state_and_bad_pools_fail_in_one_line(tmp_path):
    pool = EnvironmentPool(make_config(), tmp_path)
    pool.lease(row=0, samples=1)
    pool.checkpoint()
    assert EnvironmentPool(make_config(), tmp_path).rows_started == 0  # restore=False starts over
    (tmp_path / STATE_FILE).write_text(json.dumps({**pool.state_dict(), "format": 99}))
    with pytest.raises(PoolError, match="format 99"):
        EnvironmentPool(make_config(), tmp_path, restore=True)
    with pytest.raises(PoolError) as missing:
        EnvironmentPool(make_config(pool="fixed", fixed_pool=str(tmp_path / "nowhere")), tmp_path / "b")
    assert "nowhere" in str(missing.value) and "\n" not in str(missing.value)


# ---------------------------------------------------------------------------------- the Ray actor
@pytest.mark.filterwarnings("ignore::FutureWarning")  # Ray's notice about GPU environment variables
def test_the_pool_actor_on_ray_serves_executors_restores_and_runs_under_the_driver(tmp_path, monkeypatch, capsys):
    """One test, so that Ray (slow to start on a shared 2-core machine) starts once even under xdist.

    It also checks that starting Ray does not break the sandbox of this process: a WebAssembly engine
    made before ``ray.init`` (as other tests in this worker do) must still turn a guest trap into an
    error afterwards, not die of it (it did, with a plain ``ray.init``)."""
    ray = pytest.importorskip("ray")
    from spade_train.backends.openrlhf.ray_pool import init_ray, shutdown_ray

    backend = create_backend("wasm", ExecutionLimits(call_timeout_s=5.0))
    assert_trap_is_an_error(backend)
    init_ray(num_cpus=1, include_dashboard=False, log_to_driver=False, configure_logging=False)
    try:
        assert_trap_is_an_error(backend)
        check_actor_round_trip(ray, tmp_path / "actor")
        check_driver(tmp_path / "driver", monkeypatch, capsys)
    finally:
        shutdown_ray()
    assert_trap_is_an_error(backend)


def assert_trap_is_an_error(backend: Any) -> None:
    source = (Path(__file__).parent / "hostile" / "raise_signal.py").read_text(encoding="utf-8")
    with backend.open_session(source) as session:
        session.reset(0)
        with pytest.raises(EnvCrashError):
            session.step("x")


def check_actor_round_trip(ray: Any, run_dir: Path) -> None:
    from spade_train.backends.openrlhf.ray_pool import RayPoolClient, pool_actor_name, start_pool_actor

    config = make_config()
    name = pool_actor_name(run_dir)
    handle = start_pool_actor(config, run_dir, restore=False)
    client = RayPoolClient.connect(name)  # what an executor in a rollout engine does, by the label's name

    async def session() -> tuple[Any, ...]:
        settings = await client.settings()
        plan = await client.plan_design(0, 2, "Logical Deduction", "multi_turn_game")
        admitted = await client.record_design(counter_report(step=plan.step))
        leases = [await client.lease(1, 2, False) for _ in range(2)]
        await client.report_episode(leases[0].env_id, 1.0, True, False)
        return settings, plan, admitted, leases

    settings, plan, admitted, leases = asyncio.run(session())
    assert parse_run_config(settings) == config
    assert plan.step == 1 and admitted and leases[0].env_id == leases[1].env_id
    assert client.near_duplicates(COUNTER_ENV, 0.9)[0].env_id == env_id_for(COUNTER_ENV)
    before: dict[str, Any] = ray.get(handle.state_dict.remote())
    ray.get(handle.checkpoint.remote())
    ray.kill(handle)

    restored = start_pool_actor(config, run_dir, restore=True, name=f"{name}-restored")
    assert ray.get(restored.state_dict.remote()) == before
    plain = EnvironmentPool(config, run_dir, restore=True)
    assert ray.get(restored.lease.remote(5, 1, False)) == plain.lease(5, 1, False)
    ray.kill(restored)


def check_driver(run_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The driver up to OpenRLHF's own start: train_ppo_ray imports vLLM, whose build cannot load without CUDA."""
    from spade_train.backends.openrlhf import driver
    from spade_train.backends.openrlhf.command import installed_train_script

    monkeypatch.setattr("sys.argv", ["pytest"])
    capsys.readouterr()
    with pytest.raises(ImportError, match="vllm"):
        driver.train(make_config(), run_dir, ["--rollout.batch_size", "2"], script=installed_train_script(),
                     resume=False)
    assert (run_dir / STATE_FILE).is_file() and (run_dir / "pool" / "manifest.json").is_file()
    printed = capsys.readouterr().out
    assert "'origins': {'seed': 7}" in printed and "7 valid environments exported" in printed
