"""Pool environments registered with GEM: ``gem.make`` and ``gem.make_vec`` return them, sandboxed.

Skips where gem-llm is not installed (``pip install 'spade-toolkit[interop]'``).
"""

from __future__ import annotations

import pytest

gem = pytest.importorskip("gem")

from spade_envs.interop.gem_env import SpadeGemEnv, register_pool
from spade_envs.interop.pool_env import load_pool
from tests.demo_pool import demo_pool, signal_agent  # noqa: F401 - the session fixture


@pytest.fixture(scope="module")
def gem_ids(demo_pool):  # noqa: F811
    ids = register_pool(demo_pool, prefix="spade-test", pool_id="spade-test/demo", hinted=True)
    assert register_pool(demo_pool, prefix="spade-test", hinted=True) == ids[:-1]  # the same code: no error
    return ids


def test_gem_make_returns_a_sandboxed_pool_environment(gem_ids, demo_pool) -> None:  # noqa: F811
    game = next(e for e in load_pool(demo_pool) if e.spec.class_name == "SignalGameEnv")
    env = gem.make(f"spade-test/{game.id}")
    assert isinstance(env, SpadeGemEnv) and env.env.backend.name == "wasm"
    observation, info = env.reset(seed=4)
    assert info["env_id"] == game.id and "HINT: code" in observation
    transcript, total, done = observation, 0.0, False
    while not done:
        observation, reward, terminated, truncated, _ = env.step(signal_agent(transcript))
        transcript += "\n" + observation
        total, done = total + reward, terminated or truncated
    assert terminated and reward == 1.0 and total > 1.0
    assert env.sample_random_action().startswith("\\boxed{")
    env.close()


def test_the_whole_pool_as_one_id_and_make_vec(gem_ids) -> None:
    whole = gem.make("spade-test/demo", seed=2)
    _, info = whole.reset()
    assert info["seed"] == 2 and info["env_id"] in {i.split("/", 1)[1] for i in gem_ids}
    whole.close()
    vector = gem.make_vec(gem_ids[:2], seed=5)
    observations, infos = vector.reset()
    assert [i["seed"] for i in infos] == [5, 6] and all("HINT: code" in o for o in observations)
    _, rewards, terminated, truncated, _ = vector.step([signal_agent(o) for o in observations])
    assert list(rewards) == [0.2, 0.2] and not any(terminated) and not any(truncated)
    for env in vector.envs:  # GEM's SyncVectorEnv has no close(): close the copies' sandboxes
        env.close()
    with pytest.raises(ValueError, match="already has an environment"):
        register_pool("bundled", prefix="spade-test", pool_id="spade-test/demo")


def test_gem_wrappers_drive_pool_environments(gem_ids) -> None:
    """GEM's own observation and episode-tracking wrappers, as its training examples build vectors."""
    from gem.wrappers.wrapper_factory import get_wrapper_fns

    wrappers = get_wrapper_fns("concat_with_action,episode_tracking")
    vector = gem.make_vec(gem_ids[:2], wrappers=wrappers, seed=7)
    observations, _ = vector.reset()
    actions = [signal_agent(o) for o in observations]
    observations, rewards, _, _, infos = vector.step(actions)
    assert list(rewards) == [0.2, 0.2] and all(a in o for a, o in zip(actions, observations))
    assert [i["cumulative_rewards"] for i in infos] == [0.2, 0.2]
    for env in vector.envs:
        env.close()
