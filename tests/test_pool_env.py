"""``SandboxedPoolEnv``, under every stack's adapter: episodes chosen by id or seed, failures contained."""

from __future__ import annotations

import pytest

from spade_envs.interop.pool_env import (
    MAX_ACTION_CHARS,
    PoolEnvironment,
    SandboxedPoolEnv,
    load_pool,
    sandbox_backend,
)
from spade_envs.pool import PoolError
from spade_envs.spec.models import EnvSpec, env_id_for
from tests.demo_pool import demo_pool  # noqa: F401 - the session fixture

HANGING = '''
class HangingEnv:
    def __init__(self, max_turns=5, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return "the step never returns", {}

    def step(self, action):
        if action == "hang":
            while True:
                pass
        return "echo " + str(len(action)), 0.5, False, False, {"length": len(action)}

    def close(self):
        pass
'''


def environment(code: str, class_name: str) -> PoolEnvironment:
    return PoolEnvironment(EnvSpec(id=env_id_for(code), class_name=class_name, kind="single_answer", skill="x",
                                   max_turns=5), code)


def test_seeds_and_ids_choose_the_episode_and_hints_are_injected(demo_pool) -> None:  # noqa: F811
    pool = load_pool(demo_pool)
    with SandboxedPoolEnv(pool, sandbox_backend()) as env:
        assert env.choose(5, None) is pool[5 % len(pool)]
        assert env.choose(0, pool[2].id[:12]) is pool[2]
        with pytest.raises(PoolError, match="has no environment 'env-nope'"):
            env.choose(0, "env-nope")
        observation, info = env.reset(1, env_id=pool[0].id, hinted=True)
        assert observation.endswith(f"HINT: {pool[0].spec.hint}") and info == {"env_id": pool[0].id, "seed": 1}
        plain, _ = env.reset(1, env_id=pool[0].id)
        assert "HINT" not in plain and observation.startswith(plain)
    with pytest.raises(PoolError, match="no pool at"):
        load_pool(demo_pool.parent / "missing")


def test_a_hanging_environment_ends_its_episode_and_the_next_reset_starts_afresh() -> None:
    hanging = environment(HANGING, "HangingEnv")
    with SandboxedPoolEnv([hanging], sandbox_backend("wasm", call_timeout_s=0.5)) as env:
        assert env.step("x").info["error"] == "no episode"
        env.reset(0)
        echo = env.step("x" * (MAX_ACTION_CHARS + 10))
        assert echo.observation == f"echo {MAX_ACTION_CHARS}" and echo.info["length"] == MAX_ACTION_CHARS
        stuck = env.step("hang")
        assert stuck.terminated and stuck.reward == 0.0 and "EnvTimeoutError" in stuck.info["error"]
        assert env.done and env.episode_return == 0.0
        after = env.step("x")
        assert after.observation.startswith("The episode is over") and after.reward == 0.0
        env.reset(1)
        assert env.error is None and env.step("ok").reward == 0.5


def test_every_loader_refuses_an_unvalidated_pool_unless_allowed(tmp_path, capsys) -> None:
    """Issue 35, item 6: a manifest that says validated: false is refused by load_pool, verifiers' entry
    point, GEM's registration and serve-openenv, each with one line; an explicit allow loads it."""
    from spade_envs.cli import main
    from spade_envs.pool import write_pool
    from tests.conftest import COUNTER_ENV

    spec = EnvSpec(id=env_id_for(COUNTER_ENV), class_name="CounterEnv", kind="multi_turn_game", skill="x", max_turns=5)
    write_pool(tmp_path / "unchecked", "unchecked", [(spec, COUNTER_ENV)], validated=False)
    write_pool(tmp_path / "checked", "checked", [(spec, COUNTER_ENV)], validated=True)
    pool = str(tmp_path / "unchecked")
    with pytest.raises(PoolError, match="not validated.*allow_unvalidated=True, --allow-unvalidated"):
        load_pool(pool)
    assert len(load_pool(pool, allow_unvalidated=True)) == 1 and len(load_pool(str(tmp_path / "checked"))) == 1
    with pytest.raises(PoolError, match="not validated"):
        load_pool(f"{pool}#{spec.id}")
    vf = pytest.importorskip("verifiers")
    with pytest.raises(RuntimeError, match="not validated"):  # verifiers wraps what the entry point raises
        vf.load_environment("spade_envs.interop.verifiers_env", pool=pool)
    assert vf.load_environment("spade_envs.interop.verifiers_env", pool=pool, allow_unvalidated=True, seeds_per_env=1)
    pytest.importorskip("gem")
    from spade_envs.interop.gem_env import register_pool

    with pytest.raises(PoolError, match="not validated"):
        register_pool(pool, prefix="unchecked-test")
    assert register_pool(pool, prefix="unchecked-test", allow_unvalidated=True) == ["unchecked-test:unchecked/Counter-v0"]
    capsys.readouterr()
    assert main(["serve-openenv", pool, "--port", "1"]) != 0  # refused before any port is touched
    err = capsys.readouterr().err
    assert "not validated" in err and err.count("\n") == 1 and "Traceback" not in err, err
