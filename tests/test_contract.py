"""The contract helpers and ToolUseBaseEnv's protocol."""

from __future__ import annotations

import json

import pytest

from spade_envs.contract import (
    ToolUseBaseEnv,
    answers_match,
    boxed,
    episode_return,
    extract_boxed,
    format_tool_call,
    is_win,
    solution_to_actions,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("\\boxed{42}", "42"),
        ("first \\boxed{1} then \\boxed{2}", "2"),
        ("\\boxed{\\frac{1}{2}}", "\\frac{1}{2}"),
        ("\\boxed{}", ""),
        ("no box here", None),
        ("\\boxed{unclosed", None),
        ("\\boxed{ok} \\boxed{unclosed", "ok"),
    ],
)
def test_extract_boxed(text, expected):
    assert extract_boxed(text) == expected


def test_solution_to_actions_wraps_bare_values_and_keeps_actions():
    assert solution_to_actions(7) == ["\\boxed{7}"]
    assert solution_to_actions(["U", "\\boxed{D}"]) == ["\\boxed{U}", "\\boxed{D}"]
    calls = solution_to_actions([{"name": "get", "arguments": {"id": 1}}, "3"], tool_use=True)
    assert calls[0] == format_tool_call("get", {"id": 1})
    assert calls[1] == "<answer>3</answer>"


def test_episode_return_clips_and_ignores_truncated():
    assert episode_return([0.0, 5.0], terminated=True) == 1.0
    assert episode_return([-3.0], terminated=True) == -1.0
    assert episode_return([1.0], terminated=False) == 0.0
    assert episode_return([], terminated=True) == 0.0
    assert is_win([0.0, 1.0], True) and not is_win([1.0], False) and not is_win([0.5], True)


def test_answers_match_numbers_and_text():
    assert answers_match("1,000", 1000)
    assert answers_match(" Paris. ", "paris")
    assert not answers_match("3", "4")


class _Lookup(ToolUseBaseEnv):
    """A minimal tool-use environment that never calls super().reset(): the base must cope."""

    def reset(self, seed=None):
        self._tools = {
            "get_price": {
                "description": "Price of an item.",
                "parameters": {"type": "object", "properties": {"item": {"type": "string"}}, "required": ["item"]},
            }
        }
        self._state = {"apple": 3, "pear": 5}
        self._expected_answer = 8
        return "What do an apple and a pear cost together?", {}

    def tool_get_price(self, item: str) -> str:
        if item not in self._state:
            raise ValueError(f"unknown item {item}")
        return str(self._state[item])

    def solution(self):
        return [{"name": "get_price", "arguments": {"item": "apple"}}, 8]


def test_tool_use_protocol_round_trip():
    env = _Lookup(max_turns=4)
    obs, _ = env.reset(seed=1)
    assert "apple" in obs
    assert env.get_tools()[0]["function"]["name"] == "get_price"
    obs, reward, terminated, _truncated, _info = env.step(format_tool_call("get_price", {"item": "pear"}))
    assert "Tool result:\n5" in obs and reward == 0.0 and not terminated
    obs, reward, *_ = env.step(format_tool_call("get_price", {"item": "kiwi"}))
    assert "unknown item kiwi" in obs and reward == 0.0
    obs, reward, *_ = env.step(format_tool_call("get_price", {"colour": "red"}))
    assert "bad arguments" in obs
    obs, reward, terminated, truncated, _ = env.step("<answer>8</answer>")
    assert (reward, terminated, truncated) == (1.0, True, False)
    after = env.step("<answer>8</answer>")
    assert after[1] == 0.0 and after[2] is True


@pytest.mark.parametrize(
    "action",
    ["hello", "<tool_call>{broken</tool_call>", '<tool_call>{"name": "nope"}</tool_call>',
     '<tool_call>{"name": "get_price", "arguments": [1]}</tool_call>', '<tool_call>["x"]</tool_call>'],
)
def test_tool_use_format_errors_are_penalised(action):
    env = _Lookup()
    obs, reward, terminated, _truncated, _info = env.step(action)
    assert reward == ToolUseBaseEnv.FORMAT_PENALTY and not terminated
    assert "Format error" in obs


def test_tool_use_truncates_and_turn_counter_resets_without_super():
    env = _Lookup(max_turns=2)
    env.step("x")
    *_, truncated, _ = env.step("x")
    assert truncated
    env.reset(seed=2)  # the subclass reset does not call super(); the base still resets its counter
    *_, truncated, info = env.step("x")
    assert not truncated and info["turn"] == 1


class _Workflow(ToolUseBaseEnv):
    def reset(self, seed=None):
        self._tools = {"set": {"description": "Set a key.", "parameters": {
            "type": "object", "properties": {"key": {"type": "string"}, "value": {"type": "integer"}}}}}
        self._state = {}
        self._user_messages = [
            {"message": "Set a to 1.", "check": lambda s: s.get("a") == 1},
            ("Now set b to 2.", lambda s: s.get("b") == 2),
        ]
        return "You manage a key-value store.", {}

    def tool_set(self, key, value):
        self._state[key] = value
        return "ok"

    def solution(self):
        return [{"name": "set", "arguments": {"key": "a", "value": 1}},
                {"name": "set", "arguments": {"key": "b", "value": 2}}, "done"]


def test_multi_instruction_reveals_messages_one_at_a_time():
    env = _Workflow(max_turns=6)
    obs, info = env.reset(seed=0)
    assert "Set a to 1." in obs and "set b" not in obs and info["instructions_total"] == 2
    obs, reward, terminated, *_ = env.step("<answer>done</answer>")
    assert reward == 0.0 and not terminated and "Not finished" in obs
    obs, *_ = env.step(format_tool_call("set", {"key": "a", "value": 1}))
    assert "Now set b to 2." in obs
    obs, *_ = env.step(format_tool_call("set", {"key": "b", "value": 2}))
    assert "done" in obs
    _, reward, terminated, *_ = env.step("<answer>done</answer>")
    assert reward == 1.0 and terminated


def test_tool_call_arguments_may_be_a_json_string():
    env = _Lookup()
    action = "<tool_call>" + json.dumps({"name": "get_price", "arguments": json.dumps({"item": "apple"})}) + "</tool_call>"
    obs, reward, *_ = env.step(action)
    assert "3" in obs and reward == 0.0


def test_boxed_helper():
    assert boxed("x") == "\\boxed{x}"
