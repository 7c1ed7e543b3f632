"""A pool served by OpenEnv: its own client over 127.0.0.1, many sessions at once, one killed mid-episode.

Skips where OpenEnv is not installed (``pip install 'spade-toolkit[interop]'``).
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from spade_envs.interop.pool_env import PoolEnvironment, load_pool, pool_card, sandbox_backend
from spade_envs.spec.models import EnvSpec, env_id_for
from tests.demo_pool import demo_pool, signal_agent, write_demo_pool  # noqa: F401 - the session fixture
from tests.requires import require

# OpenEnv (and with it the spade modules that serve it) is imported in the tests: the import takes seconds,
# and every xdist worker collects this module.
require("openenv")

REPO_ROOT = Path(__file__).resolve().parent.parent

CRASHING = '''
class CrashingEnv:
    def __init__(self, max_turns=5, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return "say anything", {}

    def step(self, action):
        raise RuntimeError("the environment broke on purpose")

    def close(self):
        pass
'''


@pytest.fixture(scope="module")
def served(demo_pool):  # noqa: F811 - the fixture imported above
    from spade_envs.interop.openenv_server import BackgroundServer, SessionCounter, create_app
    environments = load_pool(demo_pool)
    crashing = PoolEnvironment(EnvSpec(id=env_id_for(CRASHING), class_name="CrashingEnv", kind="single_answer",
                                       skill="none", max_turns=5), CRASHING)
    counter = SessionCounter()
    app = create_app(environments + [crashing], sandbox_backend("wasm"), max_sessions=16, counter=counter,
                     card=pool_card(demo_pool))
    with BackgroundServer(app) as server:
        yield server, environments, counter


def play_hinted(url: str, env_id: str, seed: int) -> tuple[float, dict, int]:
    """One hinted episode through OpenEnv's client, played by the agent that reads the hint."""
    from openenv.core.generic_client import GenericEnvClient
    with GenericEnvClient(base_url=url).sync() as client:
        result = client.reset(seed=seed, env_id=env_id, hinted=True)
        transcript, steps = result.observation["text"], 0
        while not result.done and steps < 20:
            result = client.step({"text": signal_agent(transcript)})
            transcript += "\n" + result.observation["text"]
            steps += 1
        return result.reward, client.state(), steps


def test_concurrent_sessions_play_the_pool_to_the_end(served) -> None:
    server, environments, counter = served
    signal_games = [e for e in environments if e.spec.class_name == "SignalGameEnv"]
    jobs = [(signal_games[i % len(signal_games)].id, i) for i in range(8)]
    with ThreadPoolExecutor(max_workers=8) as threads:
        outcomes = list(threads.map(lambda job: play_hinted(server.url, *job), jobs))
    for (env_id, seed), (reward, state, steps) in zip(jobs, outcomes):
        assert reward == 1.0 and state["terminated"] and state["episode_return"] == 1.0
        assert state["env_id"] == env_id and state["seed"] == seed and state["step_count"] == steps
    deadline = time.monotonic() + 10
    while counter.open and time.monotonic() < deadline:
        time.sleep(0.05)
    assert counter.open == 0  # every client closed its session, and with it its sandbox


def test_a_client_killed_mid_episode_frees_only_its_own_session(served) -> None:
    from openenv.core.generic_client import GenericEnvClient
    server, environments, counter = served
    game = next(e for e in environments if e.spec.class_name == "SignalGameEnv")
    # The child is a bare client: it does not need OpenEnv's web interface, whose gradio import takes
    # seconds (OpenEnv skips the interface when gradio cannot be imported).
    script = textwrap.dedent(f"""
        import sys, time
        sys.modules["gradio"] = None
        from openenv.core.generic_client import GenericEnvClient
        client = GenericEnvClient(base_url={server.url!r}).sync()
        client.connect()
        client.reset(seed=1, env_id={game.id!r})
        client.step({{"text": "\\\\boxed{{up}}"}})
        print("mid-episode", flush=True)
        time.sleep(60)
    """)
    with GenericEnvClient(base_url=server.url).sync() as survivor:
        first = survivor.reset(seed=2, env_id=game.id, hinted=True)
        child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True,
                                 cwd=REPO_ROOT)
        try:
            assert child.stdout.readline().strip() == "mid-episode"
            assert counter.open == 2
            child.kill()  # no close message: the socket just goes away
            child.wait(timeout=10)
        finally:
            child.kill()
        deadline = time.monotonic() + 15
        while counter.open != 1 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert counter.open == 1  # the killed client's sandbox session is closed; ours is not
        result = survivor.step({"text": signal_agent(first.observation["text"])})
        assert result.reward in (0.2, 1.0) and survivor.state()["step_count"] == 1


def test_environment_failures_and_unknown_ids_end_the_episode_not_the_server(served) -> None:
    from openenv.core.generic_client import GenericEnvClient
    server, environments, _ = served
    with GenericEnvClient(base_url=server.url).sync() as client:
        crashing = client.reset(seed=0, env_id=env_id_for(CRASHING))
        assert not crashing.done
        broken = client.step({"text": "hello"})
        assert broken.done and broken.reward == 0.0
        assert "the environment broke on purpose" in broken.observation["error"]
        assert client.state()["error"] == broken.observation["error"]
        unknown = client.reset(seed=0, env_id="env-nope")
        assert unknown.done and "has no environment 'env-nope'" in unknown.observation["error"]
        again = client.reset(seed=0, env_id=environments[0].id)  # the same session plays on
        assert not again.done and again.observation["env_id"] == environments[0].id


def test_the_typed_client_plays_an_episode_to_the_end(served) -> None:
    from spade_envs.interop.openenv_client import SpadeAction, SpadeEnv, SpadeObservation, SpadeState
    server, environments, _ = served
    game = next(e for e in environments if e.spec.class_name == "SignalGameEnv")
    with SpadeEnv(base_url=server.url).sync() as env:
        result = env.reset(seed=3, env_id=game.id, hinted=True)
        assert isinstance(result.observation, SpadeObservation) and result.observation.env_id == game.id
        transcript, steps = result.observation.text, 0
        while not result.done and steps < 20:
            result = env.step(SpadeAction(text=signal_agent(transcript)))
            transcript += "\n" + result.observation.text
            steps += 1
        state = env.state()
        assert result.reward == 1.0 and result.observation.error is None
        assert isinstance(state, SpadeState) and state.terminated and state.episode_return == 1.0
        assert state.step_count == steps and state.episode_id == result.observation.episode_id
        with pytest.raises(TypeError, match="SpadeEnv.step takes a SpadeAction, e.g. SpadeAction"):
            env.step({"text": "\\boxed{up}"})


def test_every_reset_starts_an_episode_with_its_own_id(served) -> None:
    from spade_envs.interop.openenv_client import SpadeAction, SpadeEnv
    server = served[0]
    with SpadeEnv(base_url=server.url).sync() as env:
        made = [env.reset(seed=seed).observation.episode_id for seed in range(3)]
        assert all(made) and len(set(made)) == 3 and env.state().episode_id == made[-1]
        chosen = env.reset(seed=0, episode_id="run-7/episode-12")  # OpenEnv's reset takes one
        assert chosen.observation.episode_id == "run-7/episode-12"
        assert env.step(SpadeAction(text="\\boxed{up}")).observation.episode_id == "run-7/episode-12"
        assert env.state().episode_id == "run-7/episode-12"
        refused = env.reset(seed=0, episode_id="x" * 256)
        assert refused.done and refused.observation.error == "episode_id must be a string of at most 255 characters"


def test_metadata_describes_the_pool(served, tmp_path) -> None:
    from spade_envs.interop.openenv_server import pool_metadata
    server, environments, _ = served
    with urllib.request.urlopen(f"{server.url}/metadata", timeout=10) as response:
        metadata = json.load(response)
    assert metadata["name"] == "spade-demo"
    assert metadata["description"] == ("SPADE pool spade-demo: 5 environments (SignalGameEnv x3, "
                                       "WarehouseLookupEnv, CrashingEnv)")
    assert metadata["readme_content"].startswith("# spade-demo\n\nA SPADE pool of 5 environments")
    assert all(f"| {e.id} | {e.spec.class_name} |" in metadata["readme_content"] for e in environments)
    pool = write_demo_pool(tmp_path / "pool")  # a pool with a README of its own: it leads the readme
    (pool / "README.md").write_text("# Signal games\n\nTrained for 40 steps.\n", encoding="utf-8")
    card = pool_card(pool)
    readme = pool_metadata(card, load_pool(pool)).readme_content
    assert readme.startswith("# Signal games\n\nTrained for 40 steps.\n\n## Environments\n")
    assert pool_metadata(pool_card("bundled"), load_pool("bundled")).name == "spade-bundled"


def test_the_banner_counts_in_the_right_number() -> None:
    from spade_envs.interop.openenv_server import banner
    assert banner(1, "pool", "http://127.0.0.1:8000", "wasm", 1) == (
        "serving 1 environment of pool as an OpenEnv server at http://127.0.0.1:8000 (wasm sandbox, at most "
        "1 session); Ctrl-C stops it")
    assert banner(2, "pool", "http://127.0.0.1:8000", "wasm", 64).startswith("serving 2 environments of pool")
