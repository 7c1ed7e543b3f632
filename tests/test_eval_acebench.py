"""ACEBench on the real data: gold answers score 100%, corrupted ones 0, and the scenario classes replay
every agent entry's milestones into its expected final state. Also: the whole tool-use suite (BFCL and
ACEBench) runs through ``spade-eval run`` against a local OpenAI-compatible server started here.

Seven agent entries' milestone lists contradict their own expected states (listed in
``MILESTONE_DEFECTS``, with the smallest repair); the replay test checks that exactly those fail as given
and that the repair reproduces the expected state.
"""

from __future__ import annotations

import asyncio
import io
import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from spade_eval.benchmark import BenchmarkDataError, EvalOptions
from spade_eval.suites.acebench import BENCHMARKS, acebench_overall
from spade_eval.suites.acebench.agent import (
    end_to_end,
    milestone_calls,
    process_accuracy,
)
from spade_eval.suites.acebench.categories import AGENT, NORMAL, SPECIAL
from spade_eval.suites.acebench.data import load_category
from spade_eval.suites.acebench.scenarios import World
from spade_eval.suites.tool_calls import ToolCall, format_python_calls
from spade_train.policies.base import Generation, GenerationRequest
from spade_train.policies.scripted import ScriptedPolicy
from tests.corruption import corrupt_value
from tests.tiny_model import tiny_model_dir  # noqa: F401 - session fixture used below

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
pytestmark = pytest.mark.skipif(
    not (DATA / "acebench" / "data_en").is_dir(), reason=f"the shared benchmark data is not at {DATA}"
)

ITEMS = {
    "normal_atom_bool": 50,
    "normal_atom_enum": 50,
    "normal_atom_number": 50,
    "normal_atom_list": 50,
    "normal_atom_object_deep": 50,
    "normal_atom_object_short": 50,
    "normal_single_turn_single_function": 100,
    "normal_single_turn_parallel_function": 100,
    "normal_multi_turn_user_switch": 50,
    "normal_multi_turn_user_adjust": 50,
    "normal_similar_api": 50,
    "normal_preference": 50,
    "special_incomplete": 50,
    "special_error_param": 50,
    "special_irrelevant": 50,
    "agent_multi_turn": 30,
    "agent_multi_step": 20,
}
"""Items per benchmark (the multi-turn normal categories: dialogues of 100 and 123 turns)."""

LOGIN_HELEN = "[login_food_platform(username='Helen', password='password321')]"
MILESTONE_DEFECTS: dict[str, tuple[str, Any]] = {
    "agent_multi_turn_6": (
        "the device starts logged out and the milestones never call login_device()",
        lambda steps: ["[login_device()]", *steps],
    ),
    "agent_multi_step_12": (
        "the order is placed without login_food_platform(), yet Helen ends logged in",
        lambda steps: _insert_before(steps, "add_food_delivery_order", LOGIN_HELEN),
    ),
    "agent_multi_step_13": (
        "as agent_multi_step_12",
        lambda steps: _insert_before(steps, "add_food_delivery_order", LOGIN_HELEN),
    ),
    "agent_multi_step_14": (
        (
            "the task says delete the most recent message (4) and the expected inbox lacks 4, "
            "but the milestones delete the earliest (3)"
        ),
        lambda steps: _latest_not_earliest(steps),
    ),
    "agent_multi_step_15": ("as agent_multi_step_14", lambda steps: _latest_not_earliest(steps)),
    "agent_multi_step_16": (
        "as agent_multi_step_14, and the device starts logged out with no login_device()",
        lambda steps: ["[login_device()]", *_latest_not_earliest(steps)],
    ),
    "agent_multi_step_17": ("as agent_multi_step_14", lambda steps: _latest_not_earliest(steps)),
}
MISSPELT_ANSWER_CLASSES = {
    "agent_multi_turn_7": ["Reminderpi"],
    "agent_multi_turn_9": ["BaseAPI"],
    "agent_multi_step_0": ["ReminderAPI"],
    "agent_multi_step_1": ["ReminderAPI"],
}


def _insert_before(steps: list[str], tool: str, step: str) -> list[str]:
    index = next(position for position, text in enumerate(steps) if tool in text)
    return [*steps[:index], step, *steps[index:]]


def _latest_not_earliest(steps: list[str]) -> list[str]:
    return [
        text.replace("get_earliest_message_id", "get_latest_message_id").replace(
            "message_id=3", "message_id=4"
        )
        for text in steps
    ]


def _benchmark(category: str, **options: Any):
    return BENCHMARKS[f"acebench_{category}"](EvalOptions(data_dir=DATA, **options))


# ---------------------------------------------------------------------- normal and special
def _gold_reply(category: str, answer: Any) -> str:
    if category == "special_incomplete":
        return (
            "["
            + " ".join(
                f'"Missing necessary parameters ({", ".join(params)}) for the api ({api})"'
                for api, params in answer.items()
            )
            + "]"
        )
    if category == "special_error_param":
        return (
            "["
            + " ".join(
                f'"There is incorrect value ({", ".join(map(str, values))}) for the parameters '
                f'({param}) in the conversation history."'
                for param, values in answer.items()
            )
            + "]"
        )
    if category == "special_irrelevant":
        return '["Due to the limitations of the function, I cannot solve this problem."]'
    chosen = answer[0] if isinstance(answer, list) else answer
    return format_python_calls(
        [ToolCall(re.sub(r"_\d+$", "", name), dict(params)) for name, params in chosen.items()]
    )


def _corrupt_reply(category: str, answer: Any) -> str:
    if category in SPECIAL:  # answering with a call instead of flagging the problem
        return "[check_status(ok=True)]"
    chosen = answer[0] if isinstance(answer, list) else answer
    calls = [ToolCall(re.sub(r"_\d+$", "", name), dict(params)) for name, params in chosen.items()]
    first = calls[0]
    if first.arguments:
        key = next(iter(first.arguments))
        calls[0] = ToolCall(first.name, {**first.arguments, key: corrupt_value(first.arguments[key])})
    else:
        calls[0] = ToolCall(first.name + "Other", {})
    return format_python_calls(calls)


@pytest.mark.parametrize("category", [*NORMAL, *SPECIAL])
def test_gold_answers_score_full_marks_and_corrupted_zero(category):
    benchmark = _benchmark(category)
    items = benchmark.load(DATA, None)
    assert len(items) == ITEMS[category]
    gold, corrupted = [], []
    for item in items:
        for turn in item.payload:
            gold.append(benchmark.score_reply(turn, _gold_reply(category, turn.answer)))
            corrupted.append(benchmark.score_reply(turn, _corrupt_reply(category, turn.answer)))
    assert [verdict.reason for verdict in gold if not verdict.valid] == []
    assert [verdict for verdict in corrupted if verdict.valid] == []


def test_multi_turn_normal_items_are_dialogues_scored_end_to_end():
    benchmark = _benchmark("normal_multi_turn_user_adjust")
    item = next(item for item in benchmark.load(DATA, None) if len(item.payload) >= 2)
    replies = [_gold_reply(benchmark.category, turn.answer) for turn in item.payload]
    replies[-1] = "I am not sure."

    async def generate(request: GenerationRequest) -> Generation:
        position = next(index for index, turn in enumerate(item.payload) if turn.messages == request.messages)
        return Generation(text=replies[position])

    record = asyncio.run(benchmark.run_item(item, generate, benchmark.sampling, 1))
    assert record.score == 0.0
    assert record.samples[0].details["turns_right"] == len(item.payload) - 1
    assert benchmark.summary_metrics([record])["process_accuracy"] == pytest.approx(1 - 1 / len(item.payload))


def test_replies_with_prose_fences_or_tool_call_tags_are_read():
    benchmark = _benchmark("normal_atom_bool")
    turn = benchmark.load(DATA, 1)[0].payload[0]
    gold = _gold_reply("normal_atom_bool", turn.answer)
    ((name, arguments),) = (turn.answer[0] if isinstance(turn.answer, list) else turn.answer).items()
    tagged = "<tool_call>" + json.dumps({"name": name, "arguments": arguments}) + "</tool_call>"
    for reply in (gold, f"```python\n{gold}\n```", f"<think>hmm [x]</think>{gold}", tagged):
        assert benchmark.score_reply(turn, reply).valid, reply
    for reply in ("Sure!", "[" + name + "(x=__import__('os'))]", ""):
        assert not benchmark.score_reply(turn, reply).valid


# ---------------------------------------------------------------------- agent: the scenario classes
def _replay(entry: dict[str, Any], answer: dict[str, Any], steps: list[str]) -> tuple[bool, list[str]]:
    """Execute milestone steps on a fresh world; (expected state reached, answer classes not compared)."""
    world = World(entry["involved_classes"], entry["initial_config"])
    for step in steps:
        for call in milestone_calls(step):
            world.call(call)
    correct, _, skipped = end_to_end(world.state(), answer["ground_truth"])
    return correct, skipped


def test_every_agent_entry_replays_its_milestones_into_the_expected_state():
    reproduced, defects, unchecked = [], {}, {}
    for category in AGENT:
        for entry, answer in load_category(DATA, category):
            milestones = answer["mile_stone"]
            alternatives = milestones if isinstance(milestones[0], list) else [milestones]
            outcomes = [_replay(entry, answer, steps) for steps in alternatives]
            if any(correct for correct, _ in outcomes):
                reproduced.append(entry["id"])
            else:
                _reason, repair = MILESTONE_DEFECTS[entry["id"]]
                defects[entry["id"]] = _replay(entry, answer, repair(alternatives[0]))[0]
            if outcomes[0][1]:
                unchecked[entry["id"]] = outcomes[0][1]
    assert len(reproduced) == 43 and len(reproduced) + len(defects) == 50
    assert defects == {name: True for name in MILESTONE_DEFECTS}, "a repaired milestone list must reproduce"
    assert unchecked == MISSPELT_ANSWER_CLASSES


def test_scenario_rules_the_expected_states_depend_on():
    world = World(["BaseApi", "MessageApi"], {"BaseApi": {"wifi": False, "logged_in": True}})
    send = ToolCall("send_message", {"sender_name": "Eve", "receiver_name": "Frank", "message": "hi"})
    assert world.call(send)["status"] is False  # Wi-Fi off
    world.call(ToolCall("turn_on_wifi"))
    assert "full" in world.call(send)["message"]  # six messages already
    assert world.call(ToolCall("get_earliest_message_id"))["message_id"] == 3
    world.call(ToolCall("delete_message", {"message_id": 3}))
    assert world.call(send)["status"] is True
    assert world.state()["MessageApi"]["inbox"]["7"] == {
        "sender_id": "USR100",
        "receiver_id": "USR101",
        "message": "hi",
    }
    assert world.call(ToolCall("no_such_tool"))["status"] is False
    assert world.call(ToolCall("delete_message", {"wrong": 1}))["status"] is False

    travel = World(["Travel"], {})
    booked = travel.call(
        ToolCall(
            "reserve_flight",
            {
                "user_id": "user3",
                "password": "password789",
                "flight_no": "MU3561",
                "cabin": "economy",
                "payment_method": "bank",
                "baggage_count": 4,
            },
        )
    )
    assert booked["status"] is True  # 1500 fare + one bag beyond gold's three free ones
    assert travel.state()["Travel"]["users"]["user3"]["bank_balance"] == 5000 - 1500 - 50
    refused = travel.call(
        ToolCall(
            "reserve_flight",
            {
                "user_id": "user3",
                "password": "password789",
                "flight_no": "MU1566",
                "cabin": "Business Class",
                "payment_method": "bank",
                "baggage_count": 1,
            },
        )
    )
    assert refused == {"status": False, "message": "Insufficient balance."}


# ---------------------------------------------------------------------- agent: the dialogue loop
def milestone_policy(entry, steps_override: list[str] | None = None):
    """An agent that performs one milestone step per reply, then says it is done; a user who asks once."""
    steps = [format_python_calls(milestone_calls(step)) for step in (steps_override or entry.milestones[0])]

    async def generate(request: GenerationRequest) -> Generation:
        if request.role == "user_simulator":
            return Generation(text="finish conversation" if len(request.messages) > 2 else "Hi, I need help.")
        done = sum(message["role"] == "assistant" for message in request.messages)
        return Generation(text=steps[done] if done < len(steps) else "All done. finish conversation")

    return generate


@pytest.mark.parametrize("category", AGENT)
def test_agent_loop_scores_gold_full_marks_and_truncated_runs_zero(category):
    benchmark = _benchmark(category)
    items = benchmark.load(DATA, None)

    async def run(truncate: bool) -> list:
        records = []
        for item in items:
            steps = item.payload.milestones[0]
            if item.id in MILESTONE_DEFECTS:
                steps = MILESTONE_DEFECTS[item.id][1](steps)
            if truncate:
                steps = steps[:-1]
            records.append(
                await benchmark.run_item(item, milestone_policy(item.payload, steps), benchmark.sampling, 1)
            )
        return records

    gold = asyncio.run(run(truncate=False))
    assert [record.id for record in gold if record.score != 1.0] == []
    assert benchmark.summary_metrics(gold) == {"process_accuracy": 1.0}
    truncated = asyncio.run(run(truncate=True))
    # These entries' last step adds a reminder, and their answers misspell ReminderApi ("Reminderpi",
    # "ReminderAPI"), so dropping that step goes unnoticed, in ACEBench's checker as here.
    unnoticed = [
        name
        for name in ("agent_multi_turn_7", "agent_multi_step_0", "agent_multi_step_1")
        if name.startswith(category)
    ]
    assert [record.id for record in truncated if record.score != 0.0] == unnoticed
    assert benchmark.summary_metrics(truncated)["process_accuracy"] < 1.0


def test_process_accuracy_counts_milestones_in_order_until_the_first_miss():
    a, b, c = (
        milestone_calls(step)
        for step in ("[login_device()]", "[turn_on_wifi()]", "[get_latest_message_id()]")
    )
    milestones = [["[login_device()]", "[turn_on_wifi()]", "[get_latest_message_id()]"]]
    assert process_accuracy([a, b, c], milestones) == 1.0
    assert process_accuracy([a, c], milestones) == pytest.approx(1 / 3)  # b missing: c is not counted
    assert process_accuracy([b, a, c], milestones) == pytest.approx(1 / 3)
    assert process_accuracy([], milestones) == 0.0
    assert process_accuracy([c], [milestones[0], ["[get_latest_message_id()]"]]) == 1.0


def test_user_simulator_is_a_separate_policy_when_given():
    simulator = ScriptedPolicy(["I am Grace; send Frank: hello.", "finish conversation"], name="sim")
    benchmark = _benchmark("agent_multi_turn", user_simulator=simulator)
    assert "gpt-4o" in benchmark.metric and "sim" in benchmark.metric
    item = benchmark.load(DATA, 1)[0]
    agent_requests: list[GenerationRequest] = []

    async def agent(request: GenerationRequest) -> Generation:
        agent_requests.append(request)
        return Generation(text="Who should I send it to?")

    asyncio.run(benchmark.run_item(item, agent, benchmark.sampling, 1))
    assert simulator.calls == 2 and all(request.role == "user_simulator" for request in simulator.requests)
    assert len(agent_requests) == 1 and agent_requests[0].messages[-1]["content"].startswith("I am Grace")
    assert "paper used gpt-4o" in _benchmark("agent_multi_turn").metric


# ---------------------------------------------------------------------- data, aggregation
def test_missing_or_wrong_data_dir_is_one_clear_error(tmp_path):
    benchmark = _benchmark("normal_atom_bool")
    with pytest.raises(BenchmarkDataError, match="--data-dir"):
        benchmark.load(None, 1)
    with pytest.raises(BenchmarkDataError, match="acebench/data_en"):
        benchmark.load(tmp_path, 1)
    assert len(benchmark.load(DATA / "acebench" / "data_en", 2)) == 2  # the data folder itself works too


def test_overall_weights_normal_special_agent():
    scores = {f"acebench_{category}": 1.0 for category in NORMAL}
    scores.update({f"acebench_{category}": 0.5 for category in SPECIAL})
    scores.update(acebench_agent_multi_turn=0.2, acebench_agent_multi_step=0.4)
    summary = acebench_overall(scores)
    assert summary == pytest.approx(
        {"normal": 1.0, "special": 0.5, "agent": 0.3, "overall": 0.578 + 0.2676 * 0.5 + 0.1545 * 0.3}
    )
    assert "overall" not in acebench_overall({"normal_atom_bool": 1.0})


# ---------------------------------------------------------------------- the suite through a served model
@pytest.fixture(scope="module")
def served_long_context_model(tiny_model_dir, tmp_path_factory):  # noqa: F811 - the imported fixture
    """The tiny test model behind a real HTTP server, its context widened for tool documentation.

    The model uses rotary positions, so a longer ``max_position_embeddings`` changes no weight.
    """
    from spade_train.policies.serve import PolicyServer
    from spade_train.policies.transformers_local import TransformersPolicy

    directory = tmp_path_factory.mktemp("tiny-long") / "model"
    shutil.copytree(tiny_model_dir, directory)
    config = json.loads((directory / "config.json").read_text())
    config["max_position_embeddings"] = 32768
    (directory / "config.json").write_text(json.dumps(config))
    with PolicyServer(TransformersPolicy(directory, name="tiny-long"), port=0) as server:
        yield server


@pytest.fixture(scope="module")
def served_plain_replier():
    """A server whose model always answers in words and ends dialogues: the fast path through every loop."""
    from spade_train.policies.serve import PolicyServer

    replier = ScriptedPolicy(["I cannot do that with these tools. finish conversation"], name="replier")
    with PolicyServer(replier, port=0) as server:
        yield server


def _run_cli(server, names: list[str] | None, out_dir: Path):
    from spade_eval.cli import main
    from spade_eval.results import EvalResults

    selection = ["--benchmarks", *names] if names else []
    err = io.StringIO()
    code = main(
        [
            "run",
            "--model",
            server.url,
            "--suite",
            "tool_use",
            *selection,
            "--data-dir",
            str(DATA),
            "--limit",
            "1",
            "--max-tokens",
            "4",
            "--out",
            str(out_dir),
        ],
        out=io.StringIO(),
        err=err,
    )
    assert code == 0, err.getvalue()
    return EvalResults.read(out_dir / "results.json")


def test_tool_use_suite_runs_against_a_served_model(served_long_context_model, tmp_path):
    """The tiny transformers model, served over HTTP, through one benchmark of each kind."""
    pytest.importorskip("bfcl_eval")
    names = [
        "bfcl_simple_python",
        "bfcl_live_irrelevance",
        "acebench_normal_atom_bool",
        "acebench_agent_multi_step",
    ]
    results = _run_cli(served_long_context_model, names, tmp_path)
    assert [result.name for result in results.benchmarks] == names
    for result in results.benchmarks:
        assert result.n_items == 1 and result.generation_errors == 0 and 0.0 <= result.score <= 1.0
    assert "process_accuracy" in results.benchmark("acebench_agent_multi_step").metrics


def test_whole_tool_use_suite_completes_against_a_served_endpoint(served_plain_replier, tmp_path):
    """Every BFCL and ACEBench benchmark with --limit 1, over HTTP; a reply in words scores what it should."""
    pytest.importorskip("bfcl_eval")
    results = _run_cli(served_plain_replier, None, tmp_path)
    scores = {result.name: result.score for result in results.benchmarks}
    assert len(scores) == 34 and all(result.generation_errors == 0 for result in results.benchmarks)
    # Declining is right exactly where nothing should be called.
    assert {name for name, score in scores.items() if score == 1.0} == {
        "bfcl_irrelevance",
        "bfcl_live_irrelevance",
    }
