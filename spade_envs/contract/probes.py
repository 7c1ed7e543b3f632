"""Fixed probe actions shared by the contract checks, the fuzzer and the benchmarks."""

from __future__ import annotations

GARBAGE_ACTIONS: tuple[str, ...] = (
    "",
    "   \n\t ",
    "I am not sure what to do.",
    "\\boxed{}",
    "\\boxed{",
    "}\\boxed{{}",
    "\\boxed{\\boxed{1}}",
    "\\boxed{1}\\boxed{2}\\boxed{3}",
    "\\boxed{-1}",
    "\\boxed{1e309}",
    "\\boxed{99999999999999999999999}",
    "\\boxed{" + "x" * 10_000 + "}",
    "\\boxed{测试 🙂 ∑ é}",
    "\\boxed{\x00\x1b[2J\u200b\ufffd}",
    "<tool_call>{not json</tool_call>",
    '<tool_call>{"name": "no_such_tool", "arguments": {}}</tool_call>',
    '<tool_call>{"name": 5, "arguments": [1, 2]}</tool_call>',
    "<answer></answer>",
)
"""Actions every environment must survive without raising: a model will send all of these one day."""
