"""A pool as a verifiers environment, run by verifiers' own evaluation loop against local servers.

Two OpenAI-compatible servers on 127.0.0.1 (``PolicyServer``, what ``spade-eval serve`` starts): one
serves a scripted agent that reads the hint and plays the solution, so every reward is known; the other
the tiny transformers model, whose rewards are checked against a replay of its replies in a fresh
sandbox session. Skips where verifiers is not installed (``pip install 'spade-toolkit[interop]'``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from spade_envs.contract.actions import solution_to_actions
from spade_envs.interop.pool_env import PoolEnvironment, SandboxedPoolEnv, load_pool, sandbox_backend
from spade_envs.pool import PoolError
from spade_envs.spec.models import EnvSpec, env_id_for
from spade_train.policies.scripted import ScriptedPolicy
from spade_train.policies.serve import PolicyServer
from tests.demo_pool import TOOL_ENV, demo_pool, signal_agent  # noqa: F401 - the session fixture
from tests.requires import require
from tests.served_model import served_tiny_model, tiny_model_dir  # noqa: F401 - session fixtures

if TYPE_CHECKING:
    from spade_envs.interop.verifiers_env import SpadePoolEnv

# verifiers (and the spade module built on it) is imported in the tests: the import takes seconds, and every
# xdist worker collects this module.
require("verifiers")

HUB_PACKAGE = Path(__file__).resolve().parent.parent / "environments" / "spade_pool_env"
SEEDS = 2


@pytest.fixture(scope="module")
def pool_env(demo_pool, monkeypatch_module) -> SpadePoolEnv:  # noqa: F811
    """Loaded the way verifiers loads a hub environment: by its id, through the package's module."""
    import verifiers as vf

    from spade_envs.interop.verifiers_env import SpadePoolEnv
    monkeypatch_module.syspath_prepend(str(HUB_PACKAGE))
    env = vf.load_environment("spade-pool-env", pool=str(demo_pool), seeds_per_env=SEEDS, hinted=True)
    assert isinstance(env, SpadePoolEnv) and env.env_id == "spade-pool-env"
    return env


@pytest.fixture(scope="module")
def monkeypatch_module():
    with pytest.MonkeyPatch.context() as patch:
        yield patch


def client_for(server: PolicyServer, monkeypatch: pytest.MonkeyPatch) -> object:
    import verifiers as vf
    monkeypatch.setenv("SPADE_LOCAL_KEY", "local")  # the local server needs no key; the client wants one
    return vf.ClientConfig(api_base_url=server.url, api_key_var="SPADE_LOCAL_KEY", max_retries=0)


def solution_script(demo_pool: Path) -> dict[str, list[str]]:  # noqa: F811
    """First observation -> the tool environment's solution actions, read in the sandbox."""
    (tools,) = [e for e in load_pool(demo_pool) if e.spec.kind == "tool_use"]
    scripts = {}
    with sandbox_backend().open_session(tools.source, class_name=tools.spec.class_name) as session:
        for seed in range(SEEDS):
            first = session.reset(seed).observation
            scripts[first] = solution_to_actions(session.solution(), tool_use=True)
    return scripts


def test_verifiers_evaluation_pays_what_the_environments_pay(pool_env, demo_pool, monkeypatch) -> None:  # noqa: F811
    scripts = solution_script(demo_pool)

    def agent(request) -> str:
        users = [m["content"] for m in request.messages if m["role"] == "user"]
        for first, actions in scripts.items():
            if users[0].startswith(first):  # the tool environment: play its solution, one call per turn
                return actions[min(len(users) - 1, len(actions) - 1)]
        return signal_agent("\n".join(users))

    with PolicyServer(ScriptedPolicy(agent, name="hint-reader"), port=0) as server:
        results = pool_env.evaluate_sync(client=client_for(server, monkeypatch), model="hint-reader",
                                         max_concurrent=4)
    outputs = results["outputs"]
    assert len(outputs) == 4 * SEEDS
    for output in outputs:
        assert output["error"] is None and output["stop_condition"] == "has_final_env_response"
        assert output["reward"] == 1.0 and output["metrics"]["won"] == 1.0
    tool_runs = [o for o in outputs if "<tool_call>" in str(o["completion"])]
    assert len(tool_runs) == SEEDS and all(o["metrics"]["num_turns"] > 1 for o in tool_runs)
    signal_runs = [o for o in outputs if o not in tool_runs]
    assert all(o["metrics"]["env_reward_sum"] > 1.0 for o in signal_runs)  # 0.2 per right move, 1 for the win


def test_tiny_model_rewards_match_a_replay_in_the_sandbox(demo_pool, served_tiny_model, monkeypatch) -> None:  # noqa: F811
    import verifiers as vf

    from spade_envs.interop.verifiers_env import reply_as_action
    # The signal games only: the tiny model has a 512-token context, too short for the tool environment.
    env = vf.load_environment("spade_envs.interop.verifiers_env", pool=str(demo_pool), seeds_per_env=1,
                              kinds=["multi_turn_game"])
    results = env.evaluate_sync(client=client_for(served_tiny_model, monkeypatch), model="tiny-qwen2",
                                sampling_args={"max_tokens": 6, "temperature": 0.0}, max_concurrent=4)
    environments, backend = load_pool(demo_pool), sandbox_backend()
    for output in results["outputs"]:
        assert output["error"] is None and output["metrics"]["num_turns"] >= 1
        info = output["info"] if isinstance(output["info"], dict) else json.loads(output["info"])
        replies = [m for m in output["completion"] if getattr(m, "role", None) == "assistant"]
        with SandboxedPoolEnv(environments, backend) as replay:
            replay.reset(info["seed"], env_id=info["spade_env_id"])
            for reply in replies:
                replay.step(reply_as_action(reply))
            assert output["reward"] == replay.episode_return
            assert output["metrics"]["env_reward_sum"] == pytest.approx(sum(replay.rewards))


def test_native_tool_calls_become_tool_call_tags() -> None:
    import verifiers as vf

    from spade_envs.interop.verifiers_env import reply_as_action
    message = vf.AssistantMessage(content="checking", tool_calls=[
        vf.ToolCall(id="c1", name="lookup", arguments='{"sku": "A-1"}'),
        vf.ToolCall(id="c2", name="count", arguments="not json {"),
    ])
    assert reply_as_action(message) == ('checking<tool_call>{"name": "lookup", "arguments": {"sku": "A-1"}}'
                                        '</tool_call><tool_call>{"name": "count", "arguments": "not json {"}'
                                        '</tool_call>')
    assert reply_as_action(vf.AssistantMessage(content=None)) == ""
    assert TOOL_ENV == "warehouse_tools"


def test_an_environment_that_cannot_start_is_left_out_with_its_reason(demo_pool) -> None:  # noqa: F811
    from spade_envs.interop.verifiers_env import SpadePoolEnv
    broken_code = ("class BrokenEnv:\n    def __init__(self, max_turns=3, **kwargs):\n        self.max_turns = 3\n"
                   "    def reset(self, seed=None):\n        raise ValueError('no start')\n")
    broken = PoolEnvironment(EnvSpec(id=env_id_for(broken_code), class_name="BrokenEnv", kind="single_answer",
                                     skill="none", max_turns=3), broken_code)
    good, backend = load_pool(demo_pool)[0], sandbox_backend()
    env = SpadePoolEnv([broken, good], backend, seeds_per_env=1)
    assert len(env.get_eval_dataset()) == 1 and "no start" in env.skipped[broken.id]
    with pytest.raises(PoolError, match="no environment of the pool could start"):
        SpadePoolEnv([broken], backend, seeds_per_env=1)


def test_an_episode_won_on_its_last_allowed_move_is_won(monkeypatch) -> None:
    """Issue 35: verifiers stops at max_turns replies without stepping the environment with the last one, so
    wrong, wrong, right on a three-turn task scored 0 here and 1 in `spade-envs play`."""
    from spade_envs.interop.verifiers_env import SpadePoolEnv
    (chain,) = [e for e in load_pool("bundled") if e.spec.class_name == "ChainArithmeticEnv"]
    assert chain.spec.max_turns == 3
    answers = {}
    with sandbox_backend().open_session(chain.source, class_name=chain.spec.class_name) as session:
        for seed in range(SEEDS):
            first = session.reset(seed).observation
            answers[first] = solution_to_actions(session.solution())[-1]

    def agent(request) -> str:
        users = [m["content"] for m in request.messages if m["role"] == "user"]
        if len(users) < 3:
            return "Let me try. \\boxed{-1}"  # wrong on the first two turns
        return next(answer for first, answer in answers.items() if users[0].startswith(first))

    env = SpadePoolEnv([chain], sandbox_backend(), seeds_per_env=SEEDS)
    with PolicyServer(ScriptedPolicy(agent, name="last-move"), port=0) as server:
        results = env.evaluate_sync(client=client_for(server, monkeypatch), model="last-move", max_concurrent=2)
    for output in results["outputs"]:
        assert output["error"] is None and output["metrics"]["num_turns"] == 3
        assert output["reward"] == 1.0 and output["metrics"]["won"] == 1.0, output["completion"]
        assert "Correct" in str(output["completion"][-1])  # the environment's reply to the last move is kept


def test_vf_eval_pays_a_win_on_the_last_allowed_move(tmp_path, monkeypatch) -> None:
    """The same through `vf-eval`, verifiers' own command line, on the bundled single-answer tasks."""
    import os
    import subprocess
    import sys

    tasks = [e for e in load_pool("bundled") if e.spec.kind == "single_answer"]
    answers = {}
    for task in tasks:
        with sandbox_backend().open_session(task.source, class_name=task.spec.class_name) as session:
            for seed in range(SEEDS):
                first = session.reset(seed).observation
                answers[first] = solution_to_actions(session.solution())[-1]

    def agent(request) -> str:
        users = [m["content"] for m in request.messages if m["role"] == "user"]
        if len(users) < 3:
            return "\\boxed{-1}"
        return next(answer for first, answer in answers.items() if users[0].startswith(first))

    out = tmp_path / "vf"
    with PolicyServer(ScriptedPolicy(agent, name="last-move"), port=0) as server:
        done = subprocess.run(
            [str(Path(sys.executable).parent / "vf-eval"), "spade_envs.interop.verifiers_env",
             "-a", json.dumps({"kinds": ["single_answer"], "seeds_per_env": SEEDS}), "-b", server.url,
             "-k", "SPADE_LOCAL_KEY", "-m", "last-move", "-n", str(len(answers)), "-r", "1", "-d", "-s",
             "-o", str(out), "--disable-env-server"],
            capture_output=True, text=True, timeout=300, env={**os.environ, "SPADE_LOCAL_KEY": "local"}, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    rows = [json.loads(line) for path in out.rglob("*.jsonl") for line in path.read_text().splitlines() if line.strip()]
    rewards = [row["reward"] for row in rows if "reward" in row]
    assert len(rewards) == len(answers) and all(reward == 1.0 for reward in rewards), rewards


def test_single_answer_rows_carry_their_reference_answer_and_games_none(monkeypatch) -> None:
    """Issue 49: the export wrote "answer": "" in every row, so a rubric that reads the answer column (and an
    auditor such as falsepass) had nothing to compare with. A single-answer row now carries what its
    solution answers, and an agent that sends it back wins; games and tool-use rows stay empty."""
    from spade_envs.interop.verifiers_env import SpadePoolEnv
    pool = load_pool("bundled")
    (chain,) = [e for e in pool if e.spec.class_name == "ChainArithmeticEnv"]
    game = next(e for e in pool if e.spec.kind == "multi_turn_game")
    tools = next(e for e in pool if e.spec.kind == "tool_use")
    env = SpadePoolEnv([chain, game, tools], sandbox_backend(), seeds_per_env=SEEDS)
    rows = list(env.get_eval_dataset())
    by_kind: dict[str, list[str]] = {}
    for row in rows:
        info = json.loads(row["info"])
        kind = next(e.spec.kind for e in (chain, game, tools) if e.id == info["spade_env_id"])
        by_kind.setdefault(kind, []).append(row["answer"])
    assert by_kind["multi_turn_game"] == [""] * SEEDS and by_kind["tool_use"] == [""] * SEEDS
    answers = by_kind["single_answer"]
    assert len(answers) == SEEDS and all(answer.lstrip("-").isdigit() for answer in answers), answers
    with SandboxedPoolEnv([chain], sandbox_backend()) as played:
        for seed, answer in zip(range(SEEDS), answers):
            played.reset(seed)
            assert played.step(f"\\boxed{{{answer}}}").reward == 1.0


def test_a_reference_answer_is_kept_only_when_it_is_one_short_string() -> None:
    """What the sandbox returns is untrusted: a solution of several moves, or an answer of 3,000 characters,
    gives no reference answer rather than a row that could not be read."""
    template = ("class LongEnv:\n    def __init__(self, max_turns=1, **kwargs):\n        self.max_turns = 1\n"
                "    def reset(self, seed=None):\n        return 'q', {{}}\n"
                "    def step(self, action):\n        return 'r', 0.0, True, False, {{}}\n"
                "    def solution(self):\n        return {solution}\n")
    for solution, expected in (("'7' * 3000", ""), ("['\\\\\\\\boxed{1}', '\\\\\\\\boxed{2}']", ""), ("'42'", "42")):
        code = template.format(solution=solution)
        environment = PoolEnvironment(EnvSpec(id=env_id_for(code), class_name="LongEnv", kind="single_answer",
                                              skill="none", max_turns=1), code)
        with SandboxedPoolEnv([environment], sandbox_backend()) as env:
            env.reset(0)
            assert env.reference_answer() == expected, solution


def test_an_environment_whose_solution_fails_is_left_out_with_its_reason() -> None:
    """A failing solution() closed the sandbox session and the row was kept with an empty answer; the
    environment is now skipped like one that cannot start, with the sandbox's reason."""
    from spade_envs.interop.verifiers_env import SpadePoolEnv
    code = ("class NoAnswerEnv:\n    def __init__(self, max_turns=1, **kwargs):\n        self.max_turns = 1\n"
            "    def reset(self, seed=None):\n        return 'q', {}\n"
            "    def step(self, action):\n        return 'r', 0.0, True, False, {}\n"
            "    def solution(self):\n        raise ValueError('no answer kept')\n")
    broken = PoolEnvironment(EnvSpec(id=env_id_for(code), class_name="NoAnswerEnv", kind="single_answer",
                                     skill="none", max_turns=1), code)
    (chain,) = [e for e in load_pool("bundled") if e.spec.class_name == "ChainArithmeticEnv"]
    env = SpadePoolEnv([broken, chain], sandbox_backend(), seeds_per_env=1)
    assert len(env.get_eval_dataset()) == 1 and "no answer kept" in env.skipped[broken.id]
