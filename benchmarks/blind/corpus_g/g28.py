"""VaultCodeEnv: Work out a vault code from a clue, then give it as the answer.
"""
from __future__ import annotations

import random
import re
from typing import Any

_ANSWER_TAG = re.compile(r"<answer>(.*?)</answer>", re.DOTALL)
_S = {"type": "string"}


def _params(**props: Any) -> dict[str, Any]:
    return {"type": "object", "properties": props, "required": sorted(props)}


def _single_answer(action: Any) -> Any:
    """Two different <answer> blocks in one reply count as one wrong answer, not as a choice."""
    if isinstance(action, str) and "<tool_call>" not in action:
        answers = {" ".join(a.split()).lower() for a in _ANSWER_TAG.findall(action[:20000])}
        if len(answers) > 1:
            return "<answer>(several different answers)</answer>"
    return action


class VaultCodeEnv(ToolUseBaseEnv):  # noqa: F821 -- injected by the loader
    """Work out a vault code from a clue, then give it as the answer."""

    def __init__(self, max_turns: int = 8, **kwargs: Any) -> None:
        super().__init__(max_turns=max_turns, **kwargs)

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        rng = random.Random(seed)
        a, b = rng.randint(13, 97), rng.randint(13, 97)
        self._state = {"a": a, "b": b, "tries": 0}
        self._expected_answer = (a * b) % 60 + 1
        self._tools = {
            "read_clue": {"description": "Read the clue engraved on the vault door.",
                          "parameters": {"type": "object", "properties": {}, "required": []}},
            "try_code": {"description": "Turn the dial to a code (1-60) and see whether the handle moves. "
                                        "Trying does not use up your answer.",
                         "parameters": _params(code={"type": "integer"})},
        }
        obs = ("A vault has a code between 1 and 60. Read the clue with the tools, work out the code and reply "
               "<answer>CODE</answer>. One answer only: a wrong code ends the episode.")
        return obs, {"tools": sorted(self._tools)}

    def tool_read_clue(self) -> str:
        return (f"The code is the remainder of {self._state['a']} x {self._state['b']} divided by 60, plus one.")

    def tool_try_code(self, code: Any = None) -> str:
        if isinstance(code, bool) or not isinstance(code, int) or not 1 <= code <= 60:
            raise ValueError("'code' must be an integer from 1 to 60")
        self._state["tries"] += 1
        return "The handle moves." if code == self._expected_answer else "The handle does not move."

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict[str, Any]]:
        return super().step(_single_answer(action))

    def solution(self) -> list[Any]:
        return [{"name": "read_clue", "arguments": {}}, self._expected_answer]
