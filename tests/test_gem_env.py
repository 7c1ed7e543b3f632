"""Pool environments registered with GEM: ``gem.make`` and ``gem.make_vec`` return them, sandboxed.

Skips where gem-llm is not installed (``pip install 'spade-toolkit[interop]'``).
"""

from __future__ import annotations

import pytest

from spade_envs.errors import SpadeError
from spade_envs.interop.pool_env import load_pool
from spade_envs.pool import write_pool
from spade_envs.registry import bundled_registry
from spade_envs.spec.models import env_id_for
from tests.demo_pool import TOOL_ENV, demo_pool, signal_agent  # noqa: F401 - the session fixture
from tests.requires import require

# gem (and the spade module built on it) is imported in the tests: the import takes seconds, and every xdist
# worker collects this module.
require("gem")


@pytest.fixture(scope="module")
def gem_ids(demo_pool):  # noqa: F811
    from spade_envs.interop.gem_env import register_pool
    ids = register_pool(demo_pool, prefix="spade-test", pool_id="spade-test/demo", hinted=True)
    assert register_pool(demo_pool, prefix="spade-test", hinted=True) == ids[:-1]  # the same code: no error
    return ids


def test_ids_read_like_gems_own_and_the_hash_ids_stay_aliases(gem_ids, demo_pool) -> None:  # noqa: F811
    """The demo pool ("spade-demo") holds three SignalGameEnv versions and one WarehouseLookupEnv: a class
    of its own gets the plain id, versions of one class the start of their code hash as a variant."""
    import gem
    environments = load_pool(demo_pool)
    expected = [f"spade-test:spade-demo/SignalGame-v0-{e.id[4:12]}" if e.spec.class_name == "SignalGameEnv"
                else "spade-test:spade-demo/WarehouseLookup-v0" for e in environments]
    assert gem_ids == [*expected, "spade-test/demo"]
    for readable, environment in zip(gem_ids, environments):
        by_name, by_hash = gem.make(readable), gem.make(f"spade-test/{environment.id}")
        assert by_name.env.environments == by_hash.env.environments == [environment]


def test_a_readable_id_taken_by_other_code_is_refused_in_one_line(gem_ids, tmp_path) -> None:
    """Another pool also called "spade-demo", whose WarehouseLookupEnv is other code, cannot take the id;
    registered under another name it can, and nothing was registered by the refused call."""
    import gem

    from spade_envs.interop.gem_env import register_pool
    tools = bundled_registry().get(TOOL_ENV)
    code = tools.source() + "\n# another version\n"
    write_pool(tmp_path / "other", "spade-demo", [(tools.spec().model_copy(update={"id": env_id_for(code)}), code)],
               validated=True)
    with pytest.raises(ValueError, match=r"already has 'spade-test:spade-demo/WarehouseLookup-v0' for other code") as error:
        register_pool(tmp_path / "other", prefix="spade-test")
    assert "\n" not in str(error.value)
    assert gem.make("spade-test:spade-demo/WarehouseLookup-v0").env.environments[0].id != env_id_for(code)
    with pytest.raises(ValueError, match="not found"):
        gem.make(f"spade-test/{env_id_for(code)}")
    assert register_pool(tmp_path / "other", prefix="spade-test", name="other demo") == [
        "spade-test:other-demo/WarehouseLookup-v0"]


def test_spawn_makes_a_fresh_copy_or_one_that_continues_the_episode(gem_ids) -> None:
    import gem

    from spade_envs.interop.gem_env import SpadeGemEnv
    parent = gem.make(gem_ids[0], seed=4)
    fresh = parent.spawn()
    assert isinstance(fresh, SpadeGemEnv) and fresh.env_id == gem_ids[0] and fresh.default_seed == 4
    assert fresh.env.backend is parent.env.backend and fresh.env is not parent.env
    assert fresh.reset() == parent.reset()  # the same settings: the same first observation
    first = parent.step(signal_agent(parent._last_observation))[0]
    twin = parent.spawn(same_state=True)
    assert twin.env._session is not parent.env._session and twin._last_observation == first
    move = signal_agent(first)
    assert twin.step(move) == parent.step(move)  # the copy continues the episode where it stood
    assert parent.spawn(seed=9, hinted=False).default_seed == 9
    with pytest.raises(TypeError, match="spawn\\(\\) got sandbox; it takes same_state and hinted, seed"):
        parent.spawn(sandbox="process")
    unseeded = gem.make(gem_ids[0])
    unseeded.reset()
    with pytest.raises(SpadeError, match="needs an episode reset with a seed"):
        unseeded.spawn(same_state=True)
    for env in (parent, fresh, twin, unseeded):
        env.close()


def test_gem_make_returns_a_sandboxed_pool_environment(gem_ids, demo_pool) -> None:  # noqa: F811
    import gem

    from spade_envs.interop.gem_env import SpadeGemEnv
    game = next(e for e in load_pool(demo_pool) if e.spec.class_name == "SignalGameEnv")
    env = gem.make(f"spade-test:spade-demo/SignalGame-v0-{game.id[4:12]}")
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


def test_the_whole_pool_as_one_id_and_make_vec(gem_ids, demo_pool) -> None:  # noqa: F811
    import gem

    from spade_envs.interop.gem_env import register_pool
    whole = gem.make("spade-test/demo", seed=2)
    _, info = whole.reset()
    assert info["seed"] == 2 and info["env_id"] in {e.id for e in load_pool(demo_pool)}
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
    import gem
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
