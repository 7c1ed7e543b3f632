"""The shared self-play state of the OpenRLHF backend: as a plain class, and as the Ray named actor.

Ray starts once for this module, on one CPU (a few seconds); everything else runs without it.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from spade_envs.pool import PoolError
from spade_envs.runtime.errors import EnvCrashError
from spade_envs.spec.models import CheckFailure, EnvSpec, Provenance, env_id_for
from spade_train.backends.openrlhf.checkpoints import model_checkpoint_step, rotate_hf_snapshots
from spade_train.backends.openrlhf.command import RunPaths
from spade_train.backends.openrlhf.shared_state import (
    ATTEMPTS_FILE,
    METRICS_FILE,
    STATE_DIR,
    STATE_FILE,
    SharedState,
    StateError,
)
from spade_train.config import RunConfig, parse_run_config
from spade_train.environments import EnvironmentRecord
from spade_train.loop import AttemptSummary, DesignerScore, Outcome
from spade_train.memory import EnvironmentMemory
from tests.conftest import COUNTER_ENV

GAME_KINDS = {"multi_turn_game"}


def make_config(**openrlhf: Any) -> RunConfig:
    loop = openrlhf.pop("loop", {})
    run = openrlhf.pop("run", {})
    return parse_run_config({
        "run": {"backend": "openrlhf", "iterations": 3, **run},
        "model": {"path": "Qwen/Qwen3-4B-Instruct-2507"},
        "design": {"language": "python", "hinter": "model"},
        "loop": {"envs_per_iteration": 2, "skills": ["Logical Deduction"], "use_corpus": True, **loop},
        "sampling": {"designer_temperature": 0.6, "temperature": 0.6},
        "openrlhf": {"rollout_batch_size": 2, "n_samples_per_prompt": 2, "designer_delay_steps": 1,
                     "nodes": 1, "gpus_per_node": 1, "vllm_engines": 1, **openrlhf},
    })


def counter_summary(step: int = 1, *, valid: bool = True, regret: float = 0.5) -> AttemptSummary:
    """What the executor sends after a design of the counter game: played, or rejected by the fuzz tier."""
    spec = EnvSpec(id=env_id_for(COUNTER_ENV), class_name="CounterEnv", kind="multi_turn_game",
                   skill="Logical Deduction", max_turns=5, hint="Read the number." if valid else None,
                   provenance=Provenance(author="test", step=step))
    failures = () if valid else (CheckFailure(check="fuzz_determinism", message="differs"),)
    return AttemptSummary(
        step=step, kind="multi_turn_game", skill="Logical Deduction",
        outcome=Outcome.PLAYED if valid else Outcome.INVALID, detail="", environment=EnvironmentRecord(spec, COUNTER_ENV),
        failures=failures, repairs=0, hint="Read the number." if valid else None, hint_accepted=True if valid else None,
        regret=regret if valid else None, regret_ci=None, win_rate_hinted=1.0 if valid else None,
        win_rate_unhinted=0.5 if valid else None, plays=4 if valid else 0,
        unhinted_wins=(True, False) if valid else (), score=DesignerScore(raw=0.8 if valid else 0.0,
                                                                          reward=0.8 if valid else 0.0, baseline=None))


def test_every_sample_of_an_agent_row_plays_one_environment_on_its_own_seed(tmp_path):
    state = SharedState(make_config(), tmp_path)
    assert {e.environment.spec.kind for e in state.environments.values()} == GAME_KINDS and len(state.environments) >= 6
    leases = [state.lease(row=7, samples=4) for _ in range(4)]
    assert len({lease.environment.id for lease in leases}) == 1
    assert [lease.seed for lease in leases] == [leases[0].seed + i for i in range(4)]
    assert state.rows_started == 1
    state.lease(row=7, samples=4)  # the row was used up: the same number now starts a new row
    assert state.rows_started == 2 and state.step == 1  # rows started are not training steps


def test_the_window_keeps_self_play_on_new_environments_but_a_fixed_pool_is_drawn_whole(tmp_path):
    from spade_envs.pool import write_pool
    from spade_envs.registry import bundled_registry

    games = [(entry.spec(), entry.source()) for entry in bundled_registry() if entry.kind == "multi_turn_game"]
    write_pool(tmp_path / "fixed", "games", games, validated=True)
    fixed = SharedState(make_config(environments="fixed", fixed_pool=str(tmp_path / "fixed"), lease_window=1),
                            tmp_path / "a")
    assert len({fixed.lease(row=row, samples=1).environment.id for row in range(40)}) > 1
    windowed = SharedState(make_config(lease_window=1), tmp_path / "b")
    newest = list(windowed.environments)[-1]
    assert {windowed.lease(row=row, samples=1).environment.id for row in range(10)} == {newest}


def test_a_designer_rows_samples_share_one_plan_and_training_waits_for_the_delay(tmp_path):
    state = SharedState(make_config(), tmp_path)
    first, second = (state.plan_row(row=0, samples=2, skill="Logical Deduction", kind="multi_turn_game")
                     for _ in range(2))
    # One plan, handed to each sample with its index in the row.
    assert (first.sample, second.sample) == (0, 1) and replace(second, sample=0) == first
    assert first.step == 1 and not first.train  # designer_delay_steps = 1
    assert first.document is not None and first.corpus_name  # use_corpus: one document for the whole row
    state.lease(row=1, samples=1)
    state.finish_row(0, kept=False)  # a dropped group is no training data: still step 1
    assert state.step == 1
    state.finish_row(1, kept=True)
    state.finish_row(2, kept=True)  # two kept groups (rollout_batch_size): step 1 is complete
    later = state.plan_row(row=2, samples=2, skill="Logical Deduction", kind="multi_turn_game")
    assert later.step == 2 and later.train and later.seed != first.seed
    # A remembered environment in the positive band becomes an example in later plans.
    state.record_design(0, counter_summary())
    with_memory = state.plan_row(row=3, samples=1, skill="Logical Deduction", kind="multi_turn_game")
    assert [example.env_id for example in with_memory.examples] == [env_id_for(COUNTER_ENV)]
    no_memory = SharedState(make_config(loop={"use_memory": False, "use_corpus": False}), tmp_path / "other")
    plan = no_memory.plan_row(row=0, samples=1, skill="Logical Deduction", kind="multi_turn_game")
    assert plan.examples == () and plan.document is None


def test_a_played_design_joins_the_rotation_and_the_memory(tmp_path):
    state = SharedState(make_config(), tmp_path)
    before = len(state.environments)
    assert not state.record_design(0, counter_summary(valid=False))
    assert len(state.environments) == before and state.memory.get(env_id_for(COUNTER_ENV)).valid is False
    assert state.record_design(1, counter_summary(step=2))
    newest = list(state.environments.values())[-1]
    assert newest.environment.id == env_id_for(COUNTER_ENV) and newest.origin == "designed"
    assert newest.environment.spec.hint == "Read the number."
    assert state.memory.latest_stats(newest.environment.id).regret == 0.5
    assert state.near_duplicates(COUNTER_ENV, 0.9)[0].env_id == newest.environment.id
    assert state.emas["Logical Deduction"].slow == 0.5
    lines = [json.loads(line) for line in (tmp_path / ATTEMPTS_FILE).read_text().splitlines()]
    assert [line["valid"] for line in lines] == [False, True] and "code" not in lines[0]
    assert [line["row"] for line in lines] == [0, 1] and lines[1]["outcome"] == "played"
    hinted = state.lease(row=9, samples=1, hinted=True)
    assert hinted.environment == newest.environment  # only it has a hint


def test_environments_that_keep_failing_leave_the_rotation(tmp_path):
    state = SharedState(make_config(), tmp_path)
    victim = next(iter(state.environments))
    for _ in range(3):
        state.report_episode(victim, 0.0, False, env_error=True)
    assert victim not in state.environments
    other = next(iter(state.environments))
    state.report_episode(other, 1.0, True, env_error=False)
    assert state.environments[other].plays == 1 and state.environments[other].wins == 1


def test_checkpoint_and_restore_continue_the_same_run(tmp_path):
    state = SharedState(make_config(), tmp_path / "run", local_dir=tmp_path / "node-a")
    for row in range(5):
        lease = state.lease(row=row, samples=1)
        state.report_episode(lease.environment.id, 1.0, row % 2 == 0, env_error=False)
        state.finish_row(row, kept=row != 2, faults=int(row == 2))
    state.record_design(5, counter_summary(step=state.step))
    state.checkpoint()
    # The memory's database is on the node's disk; the run directory holds only checkpoint copies of it.
    assert not (tmp_path / "run" / "memory.sqlite3").exists() and (tmp_path / "node-a" / "memory.sqlite3").exists()
    latest = tmp_path / "run" / STATE_DIR / "latest"
    restored = SharedState(make_config(), tmp_path / "run", restore="latest", local_dir=tmp_path / "node-b")
    with EnvironmentMemory(latest / "memory.sqlite3") as copy:  # a complete database, readable as it is
        assert copy.get(env_id_for(COUNTER_ENV)) is not None
    assert restored.memory.get(env_id_for(COUNTER_ENV)) is not None
    assert restored.state_dict() == state.state_dict()
    assert (restored.rows_started, restored.groups_kept, restored.faults, restored.step) == (5, 4, 1, 3)
    # Same state, same rng: both continue with the same leases and plans.
    assert [restored.lease(row=r, samples=1) for r in range(10, 14)] == [state.lease(row=r, samples=1)
                                                                           for r in range(10, 14)]
    assert (restored.plan_row(20, 1, "Logical Deduction", "multi_turn_game").seed
            == state.plan_row(20, 1, "Logical Deduction", "multi_turn_game").seed)
    metrics = [json.loads(line) for line in (tmp_path / "run" / METRICS_FILE).read_text().splitlines()]
    assert [row["step"] for row in metrics] == [1, 2]
    assert [row["groups_kept"] for row in metrics] == [2, 2] and metrics[1]["faults"] == 1
    assert metrics[0]["pass_rate"] == 1.0 and metrics[1]["pass_rate"] == pytest.approx(2 / 3)
    assert state.finish() >= 1 and (tmp_path / "run" / "pool" / "manifest.json").is_file()


def test_steps_count_kept_groups_and_left_over_rows_are_marked_done(tmp_path):
    state = SharedState(make_config(), tmp_path)  # run.iterations = 3, rollout_batch_size = 2
    for row in range(12):
        if state.done:
            break
        state.lease(row=row, samples=1)
        state.finish_row(row, kept=row % 2 == 0)  # half the groups pass dynamic filtering
    assert state.done and state.trained_steps == 3 and state.rows_started == 11
    assert state.lease(row=50, samples=1).done
    assert state.plan_row(row=51, samples=2, skill="Logical Deduction", kind="multi_turn_game").done
    assert state.rows_started == 11  # a left-over row starts nothing
    metrics = [json.loads(line) for line in (tmp_path / METRICS_FILE).read_text().splitlines()]
    assert [row["step"] for row in metrics] == [1, 2, 3]
    # 24 rows are written (3 steps x 2 rows x headroom 1 / expected_pass_rate 0.25); at the pass rate
    # measured (6 of 11 rows kept) they would last to step 6.
    assert metrics[-1]["rows_last_to_step"] == 6


def test_a_call_retried_after_a_restart_is_applied_once(tmp_path):
    """Issue 36, item 7: the client sends each call with a request id and sends it again once the restarted
    actor answers. A call whose first try is in the restored checkpoint gets that try's answer; one whose
    first try was lost with the actor is applied afresh. Never twice."""
    state = SharedState(make_config(), tmp_path / "run", local_dir=tmp_path / "node-a", background_writes=True)
    state.answer("a", "lease", row=0, samples=1)
    first = state.answer("b", "finish_row", 0, True)
    assert state.answer("b", "finish_row", 0, True) == first and state.groups_kept == 1  # a plain retry
    state.answer("c", "lease", row=1, samples=1)
    closing = state.answer("d", "finish_row", 1, True)  # closes step 1: the checkpoint keeps this answer
    state.answer("e", "lease", row=2, samples=1)  # after the checkpoint: lost with the actor
    state.close()

    restarted = SharedState(make_config(), tmp_path / "run", restore="latest", local_dir=tmp_path / "node-b",
                            background_writes=True)
    assert (restarted.groups_kept, restarted.rows_started) == (2, 2)
    assert restarted.answer("d", "finish_row", 1, True) == closing and restarted.groups_kept == 2
    assert restarted.answer("e", "lease", row=2, samples=1).environment.id and restarted.rows_started == 3
    assert restarted.answer("e", "lease", row=2, samples=1) and restarted.rows_started == 3
    restarted.close()


def test_a_checkpoint_is_copied_to_the_run_directory_off_the_calls_path(tmp_path, monkeypatch):
    """Issue 36, item 7: at a step's close the state is staged on local disk and copied to the run directory
    (shared storage, often slow) on the writer thread: while that copy hangs, calls go on. A copy that
    fails is reported by the next checkpoint, in one line."""
    import threading

    from spade_train.run.directory import Checkpoints

    state = SharedState(make_config(), tmp_path / "run", local_dir=tmp_path / "node", background_writes=True)
    release, writing = threading.Event(), threading.Event()
    save = Checkpoints.save

    def slow_save(self, *args, **kwargs):
        writing.set()
        assert release.wait(60), "the test never released the copy"
        return save(self, *args, **kwargs)

    monkeypatch.setattr(Checkpoints, "save", slow_save)

    def calls() -> None:
        for row in range(2):
            state.answer(f"lease-{row}", "lease", row=row, samples=1)
            state.answer(f"finish-{row}", "finish_row", row, True)  # the second closes step 1
        assert writing.wait(60)
        for row in range(2, 6):  # while the copy hangs
            lease = state.answer(f"lease-{row}", "lease", row=row, samples=1)
            state.answer(f"report-{row}", "report_episode", lease.environment.id, 1.0, True, False)
        state.near_duplicates(COUNTER_ENV, 0.9)

    worker = threading.Thread(target=calls)
    worker.start()
    worker.join(60)
    finished_while_copying = not worker.is_alive()
    release.set()
    worker.join(60)
    assert finished_while_copying, "calls waited for the checkpoint's copy to the run directory"
    assert state.checkpoint().name == "latest" and state.trained_steps == 1
    assert json.loads((tmp_path / "run" / STATE_DIR / "latest" / STATE_FILE).read_text())["rows_started"] == 6

    def failing_save(self, *args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Checkpoints, "save", failing_save)
    for row in range(6, 8):
        state.answer(f"lease-{row}", "lease", row=row, samples=1)
        state.answer(f"finish-{row}", "finish_row", row, True)  # closes step 2: its copy fails
    state.wait_for_writes()
    with pytest.raises(StateError, match="checkpoint failed: OSError: .*No space left on device"):
        state.checkpoint()
    state.close()


def test_a_resume_restores_the_step_the_model_resumes_from(tmp_path):
    paths = RunPaths(tmp_path)
    for step in (1, 2, 3):
        (paths.checkpoints / f"global_step{step}_hf").mkdir(parents=True)
    config = make_config(keep_hf_snapshots=2, loop={"use_corpus": False}, run={"checkpoint_every": 2})
    state = SharedState(config, tmp_path)
    for row in range(4):  # steps 1 and 2
        state.lease(row=row, samples=1)
        state.finish_row(row, kept=True)
    assert (tmp_path / STATE_DIR / "steps" / "step-2" / STATE_FILE).is_file()
    assert not (tmp_path / STATE_DIR / "steps" / "step-1").exists()  # the model is not saved at step 1
    # OpenRLHF never deletes its Hugging Face snapshots; the aligned checkpoint keeps the newest two.
    assert sorted(p.name for p in paths.checkpoints.iterdir()) == ["global_step2_hf", "global_step3_hf"]
    state.record_design(4, counter_summary(step=state.step))  # designed in step 3, after the checkpoint
    state.lease(row=5, samples=1)
    state.finish_row(5, kept=True)
    state.checkpoint()
    # The model's DeepSpeed checkpoint is at step 2: resuming brings the state back to step 2.
    (paths.checkpoints / "_actor" / "global_step2").mkdir(parents=True)
    (paths.checkpoints / "_actor" / "latest").write_text("global_step2")
    assert model_checkpoint_step(paths.checkpoints) == 2
    resumed = SharedState(config, tmp_path, restore=model_checkpoint_step(paths.checkpoints))
    assert resumed.trained_steps == 2 and resumed.rows_started == 4
    assert env_id_for(COUNTER_ENV) not in resumed.environments and resumed.memory.get(env_id_for(COUNTER_ENV)) is None
    assert not (tmp_path / ATTEMPTS_FILE).read_text().strip()  # the step-3 design is redone, not kept
    assert [json.loads(line)["step"] for line in (tmp_path / METRICS_FILE).read_text().splitlines()] == [1, 2]
    with pytest.raises(StateError, match="step 7"):
        SharedState(config, tmp_path, restore=7)
    assert model_checkpoint_step(tmp_path / "nowhere") == 0
    assert rotate_hf_snapshots(tmp_path / "nowhere", keep=1) == []
    # A run that stops (issue 36) names the checkpoint it resumes from: the model's, and the state's beside it.
    from spade_train.backends.openrlhf.driver import resume_advice

    advice = resume_advice(tmp_path)
    assert "model's checkpoint at step 2" in advice and str(tmp_path / STATE_DIR / "steps" / "step-2") in advice
    assert (tmp_path / STATE_DIR / "steps" / "step-2" / STATE_FILE).is_file()


def test_a_fresh_start_ignores_an_old_state_and_bad_pool_directories_fail_in_one_line(tmp_path):
    state = SharedState(make_config(), tmp_path)
    state.lease(row=0, samples=1)
    state.checkpoint()
    assert SharedState(make_config(), tmp_path).rows_started == 0  # restore=None starts over
    latest = tmp_path / STATE_DIR / "latest" / STATE_FILE
    latest.write_text(json.dumps({**state.state_dict(), "format": 99}))
    with pytest.raises(StateError, match="format 99"):
        SharedState(make_config(), tmp_path, restore="latest")
    with pytest.raises(PoolError) as missing:
        SharedState(make_config(environments="fixed", fixed_pool=str(tmp_path / "nowhere")), tmp_path / "b")
    assert "nowhere" in str(missing.value) and "\n" not in str(missing.value)


# ---------------------------------------------------------------------------------- the Ray actor
@pytest.mark.filterwarnings("ignore::FutureWarning")  # Ray's notice about GPU environment variables
def assert_trap_is_an_error(backend: Any) -> None:
    source = (Path(__file__).parent / "hostile" / "raise_signal.py").read_text(encoding="utf-8")
    with backend.open_session(source) as session:
        session.reset(0)
        with pytest.raises(EnvCrashError):
            session.step("x")


def check_actor_round_trip(ray: Any, run_dir: Path, worker_node: str) -> None:
    from spade_train.backends.openrlhf.ray_actor import RayStateClient, start_state_actor, state_actor_name
    from spade_train.backends.openrlhf.stops import StateLost

    config = make_config(state_timeout_s=60.0)
    name = state_actor_name(run_dir)
    handle = start_state_actor(config, run_dir, restore=None)
    client = RayStateClient.connect(name)  # what an executor in a rollout engine does, by the label's name

    async def session() -> tuple[Any, ...]:
        settings = await client.settings()
        plan = await client.plan_row(0, 2, "Logical Deduction", "multi_turn_game")
        admitted = await client.record_design(0, counter_summary(step=plan.step))
        leases = [await client.lease(1, 2, False) for _ in range(2)]
        await client.report_episode(leases[0].environment.id, 1.0, True, False)
        duplicates = await client.near_duplicates(COUNTER_ENV, 0.9)
        step = await client.finish_row(1, True, 0)
        return settings, plan, admitted, leases, duplicates, step

    settings, plan, admitted, leases, duplicates, step = asyncio.run(session())
    assert parse_run_config(settings) == config
    assert plan.step == 1 and admitted and leases[0].environment == leases[1].environment and step == 1
    assert duplicates[0].env_id == env_id_for(COUNTER_ENV)
    assert ray.get(handle.where.remote(), timeout=60) == worker_node  # the head has no CPU: the actor moved
    # Every call has a timeout: one the actor cannot meet fails that call, not the caller for ever.
    with pytest.raises(TimeoutError):
        asyncio.run(RayStateClient(handle, timeout_s=1e-6).settings())
    ray.get(handle.checkpoint.remote(), timeout=60)
    before: dict[str, Any] = ray.get(handle.state_dict.remote(), timeout=60)
    # The actor dies (its process is killed): Ray restarts it, and it continues from its last checkpoint.
    ray.kill(handle, no_restart=False)
    restarted = call_until_back(ray, handle.state_dict)
    assert restarted == before and restarted["groups_kept"] == 1
    # Issue 36, item 7: the process dies (a crash: it uses up a restart); a call made meanwhile waits for the
    # restarted actor and is sent again, once, so the sample goes on instead of faulting.
    os.kill(call_until_back(ray, handle.process_id), signal.SIGKILL)
    lease = asyncio.run(client.lease(9, 1, False))
    assert lease.environment.id and call_until_back(ray, handle.state_dict)["rows_started"] == (
        before["rows_started"] + 1)
    ray.kill(handle)
    wait_until_dead(ray, handle)  # ray.kill returns before the actor is gone
    # Killed for good: a call through the client stops the run (not one sample), and so does connecting anew.
    with pytest.raises(StateLost, match="died and Ray will not restart it"):
        asyncio.run(client.settings())
    with pytest.raises(StateLost, match="is gone for good"):
        RayStateClient.connect(name)

    restored = start_state_actor(config, run_dir, restore="latest", name=f"{name}-restored")
    assert ray.get(restored.state_dict.remote(), timeout=60) == before
    plain = SharedState(config, run_dir, restore="latest", local_dir=run_dir / "elsewhere")
    assert ray.get(restored.lease.remote(5, 1, False), timeout=60) == plain.lease(5, 1, False)
    ray.kill(restored)


def check_rollout_actor(ray: Any, run_dir: Path) -> None:
    """What killed the job, the way it happened: OpenRLHF's rollout actor (an async Ray actor that loads
    the executor file by path) gathering a designer row whose reply nests 4,000 ``+ 1`` terms and an agent
    row, reaching the state actor by name, under a ``ray.get`` with no try (the trainer's)."""
    from spade_train.backends.openrlhf.command import agent_executor_path
    from spade_train.backends.openrlhf.labels import RowLabel
    from spade_train.backends.openrlhf.ray_actor import start_state_actor, state_actor_name
    from tests.tiny_model import build_tiny_model

    model = build_tiny_model(run_dir / "model")
    seed = run_dir / "seed"
    from spade_envs.pool import write_pool

    spec = EnvSpec(id=env_id_for(COUNTER_ENV), class_name="CounterEnv", kind="multi_turn_game",
                   skill="Logical Deduction", max_turns=5)
    write_pool(seed, "seed", [(spec, COUNTER_ENV)], validated=True)
    config = make_config(seed_pool=str(seed), state_timeout_s=60.0, loop={"use_corpus": False})
    handle = start_state_actor(config, run_dir, restore=None)
    common = {"samples": 2, "actor": state_actor_name(run_dir), "namespace": "spade"}
    rows = [RowLabel(role="designer", row=0, skill="Logical Deduction", kind="multi_turn_game", **common),
            RowLabel(role="agent", row=1, **common)]
    deep = "```python\nclass DeepEnv:\n    LIMIT = 1" + " + 1" * 4000 + "\n```"
    rollout = ray.remote(num_cpus=0)(RolloutActor).remote(str(agent_executor_path()), str(model), deep)
    responses = [ray.get(rollout.generate_responses.remote(row.prompt_text(), row.to_json(), 2), timeout=300)
                 for row in rows]
    for row_responses in responses:
        assert len(row_responses) == 2 and all(r["extra_logs"]["spade/fault"] == 0.0 for r in row_responses)
    assert all(r["extra_logs"]["spade/design_valid"] == 0.0 for r in responses[0])
    summary = ray.get(handle.summary.remote(), timeout=60)
    assert summary["faults"] == 0 and summary["rows_started"] == 2
    ray.kill(rollout)
    ray.kill(handle)
    return model


def check_the_run_stops_once_the_state_is_gone(run_dir: Path, model: Path, monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 36, item 1: the shared-state actor uses up its restarts mid-run (``tests/stopping_trainer.py``,
    run by the driver in place of OpenRLHF's trainer, kills it once more than Ray restarts it); the next
    row the trainer gathers ends the job with exit 1 and one line naming the cause and where to resume."""
    from spade_envs.cliutil import run_command
    from spade_envs.pool import write_pool
    from spade_train.backends.openrlhf import driver

    spec = EnvSpec(id=env_id_for(COUNTER_ENV), class_name="CounterEnv", kind="multi_turn_game",
                   skill="Logical Deduction", max_turns=5)
    write_pool(run_dir / "seed", "seed", [(spec, COUNTER_ENV)], validated=True)
    config = make_config(seed_pool=str(run_dir / "seed"), state_timeout_s=60.0, state_restarts=1,
                         loop={"use_corpus": False})
    monkeypatch.setattr("sys.argv", ["pytest"])
    capsys.readouterr()
    code = run_command("spade-openrlhf-driver", lambda: driver.train(
        config, run_dir / "run", [str(run_dir / "run"), str(model), "1"], script=Path("train_ppo_ray.py"),
        resume=False, module="tests.stopping_trainer"))
    printed = capsys.readouterr()
    assert code == 1 and printed.err.count("\n") == 1, printed.err
    assert printed.err.startswith("spade-openrlhf-driver: error: the run stopped:") and "died and Ray will not restart it" in printed.err
    assert "no model checkpoint was saved yet: start the run again" in printed.err
    assert "the shared state did not finish" in printed.out


def check_a_lost_engine_stops_the_run(run_dir: Path, gpu_node: str, monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 36, item 3: the driver holds the engines' CPUs on the GPU node while the trainer runs, and a
    rollout engine that dies under the trainer's ``ray.get`` (``tests/dying_engine_trainer.py``) ends the job
    with exit 1 and one line naming the dead actor and where to resume; the CPUs are released."""
    import ray

    from spade_envs.cliutil import run_command
    from spade_train.backends.openrlhf import driver
    from spade_train.backends.openrlhf.resources import NAMESPACE, reservation_name

    config = make_config(engine_cpus=1.0, state_timeout_s=60.0, loop={"use_corpus": False})
    monkeypatch.setattr("sys.argv", ["pytest"])
    capsys.readouterr()
    code = run_command("spade-openrlhf-driver", lambda: driver.train(
        config, run_dir, [gpu_node], script=Path("train_ppo_ray.py"), resume=False,
        module="tests.dying_engine_trainer"))
    printed = capsys.readouterr()
    assert "the engines' CPUs are held" in printed.out
    assert code == 1 and printed.err.count("\n") == 1, printed.err
    assert printed.err.startswith("spade-openrlhf-driver: error: the run stopped: a Ray actor of the job died")
    assert "no model checkpoint was saved yet: start the run again" in printed.err
    with pytest.raises(ValueError):
        ray.get_actor(reservation_name(gpu_node), namespace=NAMESPACE)


class RolloutActor:
    """OpenRLHF's ``RolloutRayActor`` as far as the executor sees it (its vLLM engine needs CUDA): an
    async actor that loads the executor with OpenRLHF's own ``_load_agent_executor`` and runs a row as its
    ``generate_responses`` does (``asyncio.gather`` of ``execute``), with itself as ``llm_engine``;
    every generation answers ``reply``."""

    def __init__(self, executor_path: str, model: str, reply: str) -> None:
        from openrlhf.utils.agent import AgentExecutorBase
        from transformers import AutoTokenizer

        from tests.test_openrlhf_executor import openrlhf_function

        load = openrlhf_function("trainer/ray/vllm_engine.py", "_load_agent_executor",
                                 {"AgentExecutorBase": AgentExecutorBase})
        self.executor = load(executor_path)
        self.tokenizer = AutoTokenizer.from_pretrained(model)
        self.reply = reply

    async def generate(self, prompt_token_ids: list[int], sampling_params: Any, multi_modal_data: Any = None) -> Any:
        from spade_train.backends.openrlhf.local_engine import CompletionOutput, RequestOutput, TokenLogprob

        ids = list(self.tokenizer(self.reply, add_special_tokens=False)["input_ids"]) + [self.tokenizer.eos_token_id]
        completion = CompletionOutput(token_ids=ids, text=self.reply, finish_reason="stop",
                                      logprobs=[{token: TokenLogprob(-0.5)} for token in ids])
        return RequestOutput(prompt_token_ids=list(prompt_token_ids), outputs=[completion])

    async def generate_responses(self, prompt: str, label: str, num_samples: int) -> list[dict[str, Any]]:
        from spade_train.backends.openrlhf.local_engine import EngineSamplingParams

        params = EngineSamplingParams(temperature=1.0, logprobs=1)
        return list(await asyncio.gather(*(
            self.executor.execute(prompt=prompt, label=label, sampling_params=params, max_length=6000,
                                  hf_tokenizer=self.tokenizer, llm_engine=self) for _ in range(num_samples))))


def call_until_back(ray: Any, method: Any, seconds: float = 120.0) -> Any:
    """Call an actor method until the restarted actor answers (calls made while it restarts fail, as the
    executor's would: it turns them into faults)."""
    import time

    from ray.exceptions import ActorUnavailableError

    deadline = time.monotonic() + seconds
    while True:
        try:
            return ray.get(method.remote(), timeout=seconds)
        except ActorUnavailableError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)


def wait_until_dead(ray: Any, handle: Any, seconds: float = 60.0) -> None:
    """Return once calls to the actor fail with ``ActorDiedError``."""
    import time

    from ray.exceptions import ActorDiedError, ActorUnavailableError

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            ray.get(handle.ping.remote(), timeout=seconds)
        except ActorDiedError:
            return
        except ActorUnavailableError:
            pass
        time.sleep(0.2)
    raise AssertionError("the killed actor still answers")


def check_driver(run_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The driver up to OpenRLHF's own start: train_ppo_ray imports vLLM, whose build cannot load without CUDA."""
    from spade_train.backends.openrlhf import driver
    from spade_train.backends.openrlhf.command import installed_train_script

    monkeypatch.setattr("sys.argv", ["pytest"])
    capsys.readouterr()
    with pytest.raises(ImportError, match="vllm"):
        driver.train(make_config(), run_dir, ["--rollout.batch_size", "2"], script=installed_train_script(),
                     resume=False)
    assert (run_dir / STATE_DIR / "latest" / STATE_FILE).is_file() and (run_dir / "pool" / "manifest.json").is_file()
    printed = capsys.readouterr().out
    assert "'origins': {'seed': 7}" in printed and "7 valid environments exported" in printed
