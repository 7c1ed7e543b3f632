"""ACEBench on the real data: gold answers score 100%, corrupted ones 0, and the scenario classes, run
as ACEBench's executor runs them, score every agent entry's replays (its milestones, a dropped last step,
an altered argument, extra state changes) as ACEBench's own classes and checker do. Also: the whole
tool-use suite (BFCL and ACEBench) runs through ``spade-eval run`` against a local OpenAI-compatible
server started here.

The replays and the data defects they meet are in ``tests/acebench_replays.py``;
``benchmarks/acebench_agreement.py`` runs the same replays on ACEBench's own code, side by side.
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
    UNDECODABLE_STEP,
    end_to_end,
    milestone_calls,
    process_accuracy,
)
from spade_eval.suites.acebench.categories import AGENT, NORMAL, SPECIAL
from spade_eval.suites.acebench.data import load_category
from spade_eval.suites.acebench.scenarios import MULTI_TURN_ERROR, World
from spade_eval.suites.tool_calls import ToolCall, format_python_calls
from spade_train.policies.base import Generation, GenerationRequest
from spade_train.policies.scripted import ScriptedPolicy
from tests.acebench_replays import (
    FAILING_ALTERNATIVES,
    MILESTONE_DEFECTS,
    MISSPELT_ANSWER_CLASSES,
    UNCHECKED_LAST_STEP,
    replay_ours,
    replays,
)
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
def test_replays_of_every_agent_entry_score_as_acebench_scores_them():
    """All 50 entries, every replay; ACEBench's own code gives the same verdicts on each (see
    benchmarks/acebench_agreement.py). Every replay that does not score as its kind should (gold 1,
    perturbed 0) is pinned to a defect in the data or a documented property of ACEBench's checker."""
    verdicts: dict[str, dict[str, bool]] = {}
    unchecked: dict[str, list[str]] = {}
    for category in AGENT:
        for entry, answer in load_category(DATA, category):
            for replay in replays(entry, answer):
                verdicts.setdefault(replay.variant, {})[entry["id"]] = replay_ours(entry, answer, replay.steps).correct
            _, _, skipped = end_to_end(replay_ours(entry, answer, []).state, answer["ground_truth"])
            if skipped:
                unchecked[entry["id"]] = skipped

    def failing(variant: str) -> set[str]:
        return {name for name, correct in verdicts[variant].items() if not correct}

    assert len(verdicts["gold_0"]) == 50
    assert failing("gold_0") == set(MILESTONE_DEFECTS)  # no alternative of theirs reaches the state
    assert failing("gold_1") == set(FAILING_ALTERNATIVES)  # another alternative of theirs does
    assert set(verdicts["repaired"]) == set(MILESTONE_DEFECTS) and not failing("repaired")
    for variant in ("dropped_last", "altered_argument"):
        assert len(verdicts[variant]) == 50
        assert set(verdicts[variant]) - failing(variant) == set(UNCHECKED_LAST_STEP), variant
    assert len(verdicts["extra_change"]) == 50 and failing("extra_change") == set(verdicts["extra_change"])
    # A new reminder is a new key of a dict attribute: ACEBench's checker compares the answer's keys only.
    assert len(verdicts["extra_unchecked"]) == 14 and not failing("extra_unchecked")
    assert unchecked == MISSPELT_ANSWER_CLASSES


ACEBENCH_TOOLS = {
    "BaseApi": {"login_device", "turn_on_wifi"},
    "MessageApi": {
        "delete_message",
        "get_all_message_times_with_ids",
        "get_earliest_message_id",
        "get_latest_message_id",
        "login_device",
        "search_messages",
        "send_message",
        "turn_on_wifi",
        "view_messages_between_users",
    },
    "ReminderApi": {
        "add_reminder",
        "delete_reminder",
        "login_device",
        "turn_on_wifi",
        "view_all_reminders",
        "view_reminder_by_title",
    },
    "FoodPlatform": {
        "add_food_delivery_order",
        "check_balance",
        "get_products",
        "login_device",
        "login_food_platform",
        "search_orders",
        "turn_on_wifi",
        "view_logged_in_users",
        "view_orders",
    },
    "Travel": {
        "authenticate_user",
        "calculate_baggage_fee",
        "calculate_price_difference",
        "cancel_reservation",
        "find_transfer_flights",
        "get_baggage_allowance",
        "get_flight_details",
        "get_reservation_details",
        "get_user_details",
        "modify_flight",
        "process_refund",
        "reserve_flight",
        "update_balance",
    },
}
"""The public methods of ACEBench's classes: every one is a tool there, documented or not."""


@pytest.mark.parametrize("name", sorted(ACEBENCH_TOOLS))
def test_every_public_method_of_acebench_classes_is_a_tool(name):
    assert World([name], {}).tool_names == ACEBENCH_TOOLS[name]


def test_the_phone_rules_acebench_classes_follow():
    config = {"BaseApi": {"wifi": False, "logged_in": True}}
    world = World(["BaseApi", "MessageApi", "FoodPlatform"], config)
    send = ToolCall("send_message", {"sender_name": "Eve", "receiver_name": "Frank", "message": "hi"})
    assert world.call(send) == {"status": False, "message": "Wi-Fi is turned off, cannot send messages at this time"}
    # Each class is a device of its own; turn_on_wifi runs on all three, the last one's result is returned.
    assert world.call(ToolCall("turn_on_wifi")) == {"status": True, "message": "Wi-Fi has been turned on"}
    assert [instance.wifi for instance in world.instances.values()] == [True, True, True]
    assert "full" in world.call(send)["message"]  # six messages already
    assert world.call(ToolCall("get_earliest_message_id"))["message_id"] == 3
    assert world.call(ToolCall("delete_message", {"message_id": "3"})) == {
        "status": False,
        "message": "Message ID does not exist",  # IDs are looked up exactly
    }
    assert world.call(ToolCall("delete_message", positional=(3,))).startswith("Error during execution: ")
    world.call(ToolCall("delete_message", {"message_id": 3}))
    assert world.call(send) == {"status": True, "message": "Message successfully sent to Frank."}
    assert world.state()["MessageApi"]["inbox"]["7"] == {"sender_id": "USR100", "receiver_id": "USR101", "message": "hi"}
    # A message sent during the episode has no date: ranking by date then raises, as in ACEBench.
    assert world.call(ToolCall("get_latest_message_id")) == "Error during execution: 'time'"
    # Products are named exactly; ordering needs a platform login but no Wi-Fi.
    login = ToolCall("login_food_platform", {"username": "Eve", "password": "password123"})
    assert world.call(login)["status"] is True
    order = {"username": "Eve", "merchant_name": "Domino's", "items": [{"product": "Super Supreme", "quantity": 1}]}
    assert world.call(ToolCall("add_food_delivery_order", order))["message"] == (
        "Product Super Supreme does not exist in Domino's's menu"
    )
    assert world.call(ToolCall("check_balance", {"user_name": "Eve"})) == 500.0
    assert World(["FoodPlatform"], {"BaseApi": {"logged_in_users": ["Jack"]}}).state()["FoodPlatform"][
        "logged_in_users"
    ] == ["Jack"]


def test_batches_run_as_acebench_executes_them():
    steps = [ToolCall("turn_on_wifi"), ToolCall("search_reminders", {"keyword": "x"}), ToolCall("no_such_tool")]
    world = World(["BaseApi", "ReminderApi"], {})
    # search_reminders is documented in every entry but no class has it: the previous result comes back.
    results = world.execute(steps, multi_turn=False).results
    assert results == [{"status": True, "message": "Wi-Fi has been turned on"}] * 3
    assert world.execute([ToolCall("no_such_tool")], multi_turn=False).results[0].startswith(
        "Error during execution: cannot access local variable"
    )
    # Multi-turn: an exception ends the batch with ACEBench's unformatted error text, and such a batch
    # saves no state.
    fresh = World(["ReminderApi"], {})
    add = ToolCall("add_reminder", {"title": "A", "description": "B", "time": "t"})
    execution = fresh.execute([add, ToolCall("add_reminder"), add], multi_turn=True)
    assert execution.aborted and execution.results == [MULTI_TURN_ERROR] and not fresh.recorded
    assert len(fresh.state()["ReminderApi"]["reminder_list"]) == 4  # the first call ran, the third did not
    fresh.execute([ToolCall("view_all_reminders")], multi_turn=True)
    assert fresh.recorded


def test_the_travel_rules_acebench_classes_follow():
    travel = World(["Travel"], {})
    book = {
        "user_id": "user3",
        "password": "password789",
        "flight_no": "MU3561",
        "cabin": "Economy Class",
        "payment_method": "bank",
        "baggage_count": 4,
    }
    assert travel.call(ToolCall("reserve_flight", book)) == (
        "Booking successful. Reservation ID: res_5. Total cost: 1550 yuan (including baggage fees)."
    )
    assert travel.state()["Travel"]["users"]["user3"]["bank_balance"] == 5000 - 1500 - 50
    for wrong in ({"cabin": "economy"}, {"password": "bad"}, {"flight_no": "XX1"}):
        assert travel.call(ToolCall("reserve_flight", {**book, **wrong})).startswith("Error during execution: ")
    assert travel.call(ToolCall("reserve_flight", {**book, "flight_no": "MU1566", "cabin": "Business Class"})) == (
        "Your bank balance is insufficient. Please consider using another payment method."
    )
    # Economy -> business on res_1: 1800 more; the cabin changes even when the balance cannot pay it.
    upgrade = {"user_id": "user1", "reservation_id": "res_1", "new_cabin": "Business Class", "add_baggage": 2}
    assert travel.call(ToolCall("modify_flight", upgrade)) == (
        "Cabin change successful. Price difference paid: 1800. Baggage has been added. Additional fee to be paid: 50."
    )
    # Cancelling refunds the fare to cash and keeps the reservation: twice, twice the refund.
    cancel = {"user_id": "user1", "reservation_id": "res_1", "reason": "Change of plans"}
    for _ in range(2):
        assert travel.call(ToolCall("cancel_reservation", cancel)).endswith("3000 yuan has been refunded.")
    user1 = travel.state()["Travel"]["users"]["user1"]
    assert (user1["cash_balance"], user1["bank_balance"]) == (2000 + 6000, 50000 - 1800 - 50)
    assert len(travel.state()["Travel"]["reservations"]) == 5


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
                steps = MILESTONE_DEFECTS[item.id][1](list(steps))
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
    unnoticed = [name for name in UNCHECKED_LAST_STEP if name.startswith(category)]
    assert [record.id for record in truncated if record.score != 0.0] == unnoticed
    assert benchmark.summary_metrics(truncated)["process_accuracy"] < 1.0


def test_multi_step_sends_every_reply_to_execution_until_finish_conversation():
    """As ACEBench's multi-step loop: words are answered with its 'do not ask me' line and count as a
    step sent; "finish conversation" ends the episode from the agent's second reply on; a batch with a
    dict-valued argument is not executed (ACEBench's decoder cannot write it back)."""
    benchmark = _benchmark("agent_multi_step")
    item = next(item for item in benchmark.load(DATA, None) if item.id == "agent_multi_step_3")
    replies = [
        "finish conversation",  # too early to end: ACEBench sends it to execution
        "Let me log in first.",
        "[check_balance(user_name={'name': 'Jack'})]",
        *[format_python_calls(milestone_calls(step)) for step in item.payload.milestones[0]],
        "finish conversation",
    ]
    seen: list[list[dict[str, str]]] = []

    async def generate(request: GenerationRequest) -> Generation:
        seen.append(request.messages)
        return Generation(text=replies[len(seen) - 1])

    record = asyncio.run(benchmark.run_item(item, generate, benchmark.sampling, 1))
    assert record.score == 1.0 and len(seen) == len(replies)
    assert seen[1][-1]["content"] == f"Execution results:\n{UNDECODABLE_STEP}"
    assert seen[3][-1]["content"] == f"Execution results:\n{UNDECODABLE_STEP}"
    assert record.samples[0].details["steps"] == 2  # the two milestone batches were executed


def test_process_accuracy_counts_milestones_in_order_until_the_first_miss():
    """As ACEBench's agent_eval_process: the agent's execution messages against the milestones as
    stripped text, in order, up to the first miss; best over alternatives, rounded to 3 places."""
    a, b, c = "[login_device()]", " [turn_on_wifi()]\n", "[get_latest_message_id()]"
    milestones = [["[login_device()]", "[turn_on_wifi()]", "[get_latest_message_id()]"]]
    assert process_accuracy([a, b, c], milestones) == 1.0
    assert process_accuracy([a, c], milestones) == 0.333  # b missing: c is not counted
    assert process_accuracy([b, a, c], milestones) == 0.333
    assert process_accuracy([], milestones) == 0.0
    assert process_accuracy([c], [milestones[0], ["[get_latest_message_id()]"]]) == 1.0
    assert process_accuracy(["[login_device( )]"], milestones) == 0.0  # written differently: no match
    assert process_accuracy([a, "Sure.", b], milestones) == 0.667


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
    """Every BFCL, ACEBench and tau2 benchmark with --limit 1, over HTTP; a reply in words scores what it
    should (in tau2, the same words as the user never end the call: tau2 stops it at its step limit)."""
    pytest.importorskip("bfcl_eval")
    pytest.importorskip("tau2")
    results = _run_cli(served_plain_replier, None, tmp_path)
    scores = {result.name: result.score for result in results.benchmarks}
    assert len(scores) == 38 and all(result.generation_errors == 0 for result in results.benchmarks)
    assert {results.benchmark(f"tau2_{domain}").metrics["termination/max_steps"]
            for domain in ("airline", "retail", "telecom", "mock")} == {1.0}
    # Declining is right exactly where nothing should be called.
    assert {name for name, score in scores.items() if score == 1.0} == {
        "bfcl_irrelevance",
        "bfcl_live_irrelevance",
    }


def test_end_to_end_follows_acebench_agent_checker():
    """ACEBench's agent_checker: as many saved classes as answer entries; every saved attribute in the
    answer and equal to it, except that dict attributes are compared on the answer's keys only (an extra
    message goes unnoticed); nothing saved when no call was executed."""
    answer = [{"BaseApi": {"wifi": True, "logged_in": True}}, {"MessageApi": {"inbox": {"1": {"m": "a"}}}}]
    state = {"BaseApi": {"wifi": True, "logged_in": True}, "MessageApi": {"inbox": {"1": {"m": "a"}}}}
    assert end_to_end(state, answer)[0] is True
    extra = {**state, "MessageApi": {"inbox": {"1": {"m": "a"}, "2": {"m": "extra"}}}}
    assert end_to_end(extra, answer)[0] is True  # the extra message is not looked at, as in ACEBench
    changed = {**state, "MessageApi": {"inbox": {"1": {"m": "b"}}}}
    assert end_to_end(changed, answer) == (False, ["MessageApi"], [])
    assert end_to_end(state, answer, executed=False)[0] is False  # nothing saved
    assert end_to_end(state, answer[:1])[0] is False  # the number of classes differs
    misspelt = [{"BaseAPI": {"wifi": False}}, answer[1]]
    assert end_to_end(state, misspelt) == (True, [], ["BaseAPI"])  # matches no class: not compared
