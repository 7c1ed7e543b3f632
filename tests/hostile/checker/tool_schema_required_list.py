# verdict: any
# static: passes
# barrier: invalid "required"
# attack: the tool schema's "required" holds a list inside the list, which the fuzzer hashed.
import random


class NestedRequiredEnv(ToolUseBaseEnv):
    """Look a key up and answer with its value."""

    def __init__(self, max_turns=6, **kwargs):
        super().__init__(max_turns=max_turns, **kwargs)

    def reset(self, seed=None):
        rng = random.Random(seed)
        self._state = {"a": rng.randint(10, 99), "b": rng.randint(10, 99)}
        self._expected_answer = str(self._state["a"])
        self._tools = {"lookup": {"description": "Return the value stored under a key.",
                                  "parameters": {"type": "object", "properties": {"key": {"type": "string"}}, "required": [["key"]]}}}
        return "Look up key a and answer with its value.", {}

    def tool_lookup(self, key=""):
        return str(self._state.get(key, "no such key"))

    def solution(self):
        return [{"name": "lookup", "arguments": {"key": "a"}}, self._expected_answer]
