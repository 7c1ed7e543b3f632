"""Replays of ACEBench's agent milestones, as written and perturbed, scored on this suite's classes.

Shared by ``tests/test_eval_acebench.py`` (our verdicts, pinned entry by entry) and
``benchmarks/acebench_agreement.py`` (the same replays on ACEBench's own classes, executor and checker,
side by side). A replay is the list of messages an agent sends to execution, one per step:

- ``gold_<k>``: the k-th alternative milestone list of the answer file, as written;
- ``repaired``: for an entry whose milestones cannot reach its own expected state (``MILESTONE_DEFECTS``),
  the smallest repair that does;
- from the base (the first gold list that reaches the expected state, else the repair):
  ``dropped_last`` (its last step left out), ``altered_argument`` (the last argument of the last call
  that has one, changed by ``corrupt_value``), ``extra_change`` (one more step that changes an attribute
  the checker compares) and ``extra_unchecked`` (one more reminder: an attribute ACEBench's checker
  compares on the answer's keys only, so a new key goes unnoticed; entries with ReminderApi only).

Milestone texts are the process-accuracy texts; the calls executed are the texts parsed with
``milestone_calls``, which repairs the unescaped apostrophes some milestones contain (``'Domino's'``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from spade_eval.suites.acebench.agent import end_to_end, milestone_calls, process_accuracy
from spade_eval.suites.acebench.scenarios import Execution, World
from spade_eval.suites.tool_calls import ToolCall, format_python_calls
from tests.corruption import corrupt_value

LOGIN_HELEN = "[login_food_platform(username='Helen', password='password321')]"


def _insert_before(steps: list[str], tool: str, step: str) -> list[str]:
    index = next(position for position, text in enumerate(steps) if tool in text)
    return [*steps[:index], step, *steps[index:]]


def _latest_not_earliest(steps: list[str]) -> list[str]:
    return [
        text.replace("get_earliest_message_id", "get_latest_message_id").replace("message_id=3", "message_id=4")
        for text in steps
    ]


def _full_product_name(steps: list[str]) -> list[str]:
    return [text.replace("'Super Supreme'", "'Super Supreme Pizza'") for text in steps]


MILESTONE_DEFECTS: dict[str, tuple[str, Callable[[list[str]], list[str]]]] = {
    "agent_multi_turn_6": (
        "the device starts logged out and the milestones never call login_device()",
        lambda steps: ["[login_device()]", *steps],
    ),
    "agent_multi_step_0": (
        (
            "the order names 'Super Supreme', which is not on Domino's menu ('Super Supreme Pizza', "
            "the product the expected order holds)"
        ),
        _full_product_name,
    ),
    "agent_multi_step_1": ("as agent_multi_step_0", _full_product_name),
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
            "the task says delete the most recent message (4) and the expected inbox lacks 4, but the "
            "milestones delete the earliest (3)"
        ),
        _latest_not_earliest,
    ),
    "agent_multi_step_15": ("as agent_multi_step_14", _latest_not_earliest),
    "agent_multi_step_16": (
        "as agent_multi_step_14, and the device starts logged out with no login_device()",
        lambda steps: ["[login_device()]", *_latest_not_earliest(steps)],
    ),
    "agent_multi_step_17": ("as agent_multi_step_14", _latest_not_earliest),
}
"""Entries none of whose milestone lists reaches the expected state: why, and the smallest repair."""

FAILING_ALTERNATIVES: dict[str, tuple[str, str]] = {
    "agent_multi_step_8": ("gold_1", "the device starts logged out and this list never calls login_device()"),
    "agent_multi_step_9": ("gold_1", "as agent_multi_step_8"),
}
"""Alternative milestone lists that fail although another alternative of the same entry passes."""

MISSPELT_ANSWER_CLASSES = {
    "agent_multi_turn_7": ["Reminderpi"],
    "agent_multi_turn_9": ["BaseAPI"],
    "agent_multi_step_0": ["ReminderAPI"],
    "agent_multi_step_1": ["ReminderAPI"],
}
"""Answer entries whose class name is misspelt: they match no saved class and are not compared."""

UNCHECKED_LAST_STEP = {
    name: "the last step adds a reminder, and the answer misspells ReminderApi, so it is not compared"
    for name in ("agent_multi_turn_7", "agent_multi_step_0", "agent_multi_step_1")
}
"""Entries where ``dropped_last`` and ``altered_argument`` pass, in ACEBench's checker as here."""

EXTRA_CHANGES = (
    (
        "[reserve_flight(user_id='user1', password='password123', flight_no='CA1234', "
        "cabin='Economy Class', payment_method='cash', baggage_count=0)]"
    ),
    "[delete_message(message_id=1)]",
    "[login_food_platform(username='Frank', password='password456')]",
    "[delete_reminder(reminder_id=1)]",
    "[turn_on_wifi()]",
    "[login_device()]",
)
"""Candidates for ``extra_change``: the first that changes an attribute the answer compares is used."""
EXTRA_UNCHECKED = "[add_reminder(title='Extra', description='Not asked for.', time='2024-07-20 10:00')]"


@dataclass(frozen=True)
class Replay:
    variant: str
    steps: tuple[str, ...]
    """The messages sent to execution, as text."""

    @property
    def calls(self) -> list[list[ToolCall]]:
        return [milestone_calls(step) for step in self.steps]


@dataclass(frozen=True)
class Outcome:
    correct: bool
    process: float
    state: dict[str, Any]
    recorded: bool
    executions: list[Execution]
    """What each step returned."""


def alternatives(answer: dict[str, Any]) -> list[list[str]]:
    milestones = answer["mile_stone"]
    return milestones if isinstance(milestones[0], list) else [milestones]


def replay_ours(entry: dict[str, Any], answer: dict[str, Any], steps: tuple[str, ...] | list[str]) -> Outcome:
    """Execute ``steps`` on a fresh world and score the end state and the process as ACEBench does."""
    world = World(entry["involved_classes"], entry["initial_config"])
    multi_turn = entry["id"].startswith("agent_multi_turn")
    executions = [world.execute(milestone_calls(step), multi_turn=multi_turn) for step in steps]
    correct, _, _ = end_to_end(world.state(), answer["ground_truth"], world.recorded)
    process = 1.0 if correct else process_accuracy(list(steps), alternatives(answer))
    return Outcome(correct, process, world.state(), world.recorded, executions)


def replays(entry: dict[str, Any], answer: dict[str, Any]) -> list[Replay]:
    """Every replay of one entry (see the module docstring)."""
    golds = alternatives(answer)
    found = [Replay(f"gold_{index}", tuple(steps)) for index, steps in enumerate(golds)]
    base = next((replay.steps for replay in found if replay_ours(entry, answer, replay.steps).correct), None)
    if entry["id"] in MILESTONE_DEFECTS:
        base = tuple(MILESTONE_DEFECTS[entry["id"]][1](list(golds[0])))
        found.append(Replay("repaired", base))
    if base is None:
        return found
    found.append(Replay("dropped_last", base[:-1]))
    found.append(Replay("altered_argument", _altered(base)))
    found.append(Replay("extra_change", (*base, _extra_change(entry, answer, base))))
    if "ReminderApi" in entry["involved_classes"]:
        found.append(Replay("extra_unchecked", (*base, EXTRA_UNCHECKED)))
    return found


def _altered(steps: tuple[str, ...]) -> tuple[str, ...]:
    position = max(index for index, step in enumerate(steps) if any(c.arguments for c in milestone_calls(step)))
    calls = milestone_calls(steps[position])
    last = max(index for index, call in enumerate(calls) if call.arguments)
    key = list(calls[last].arguments)[-1]
    arguments = {**calls[last].arguments, key: corrupt_value(calls[last].arguments[key])}
    calls[last] = ToolCall(calls[last].name, arguments)
    return (*steps[:position], format_python_calls(calls), *steps[position + 1 :])


def _extra_change(entry: dict[str, Any], answer: dict[str, Any], base: tuple[str, ...]) -> str:
    compared = {name for expected in answer["ground_truth"] for name in expected}
    before = replay_ours(entry, answer, base).state
    for candidate in EXTRA_CHANGES:
        after = replay_ours(entry, answer, (*base, candidate)).state
        if any(before[name] != after[name] for name in before if name in compared):
            return candidate
    raise AssertionError(f"{entry['id']}: no candidate extra step changes a compared attribute")
