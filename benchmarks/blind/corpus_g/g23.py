"""HeavyCoinEnv: Nine coins, one heavier; a balance tool that counts its own uses allows two weighings.
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


_COINS = "ABCDEFGHI"


class HeavyCoinEnv(ToolUseBaseEnv):  # noqa: F821 -- injected by the loader
    """Nine coins, one heavier; a balance tool that counts its own uses allows two weighings."""

    WEIGHINGS = 2

    def __init__(self, max_turns: int = 5, **kwargs: Any) -> None:
        super().__init__(max_turns=max_turns, **kwargs)

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        rng = random.Random(seed)
        self._state = {"heavy": rng.choice(_COINS), "used": 0}
        self._expected_answer = self._state["heavy"]
        coins = {"type": "array", "items": {"type": "string"}}
        self._tools = {
            "weigh": {"description": "Put coins (letters A-I) on the two pans of a balance; both pans must hold "
                                     "the same number of coins. Reports the heavier side and how many weighings "
                                     f"are left; the balance works only {self.WEIGHINGS} times.",
                      "parameters": _params(left=coins, right=coins)},
        }
        obs = ("Nine coins A to I look identical, but exactly one is heavier than the others. Find it with the "
               f"balance tool, which can be used only {self.WEIGHINGS} times, then reply <answer>LETTER</answer>. "
               "One answer only: a wrong coin ends the episode.")
        return obs, {"coins": 9}

    @staticmethod
    def _pan(value: Any, name: str) -> list[str]:
        if not isinstance(value, list) or not value or len(value) > 4:
            raise ValueError(f"'{name}' must be a list of 1 to 4 coin letters")
        pan = []
        for coin in value:
            if not isinstance(coin, str) or coin.strip().upper() not in _COINS or not coin.strip():
                raise ValueError(f"unknown coin {coin!r}; coins are A-I")
            pan.append(coin.strip().upper())
        return pan

    def tool_weigh(self, left: Any = None, right: Any = None) -> str:
        lp, rp = self._pan(left, "left"), self._pan(right, "right")
        if len(lp) != len(rp) or len(set(lp + rp)) != len(lp) + len(rp):
            raise ValueError("both pans need the same number of different coins")
        if self._state["used"] >= self.WEIGHINGS:
            raise ValueError("the balance has been used up")
        self._state["used"] += 1
        heavy = self._state["heavy"]
        if heavy in lp + rp:
            text = f"The {'left' if heavy in lp else 'right'} pan is heavier."
        else:
            text = "The pans balance."
        return text + f" Weighings left: {self.WEIGHINGS - self._state['used']}."

    def check_answer(self, answer: str) -> bool:
        text = " ".join(str(answer).split()).lower().rstrip(".")
        match = re.fullmatch(r"(?:coin\s*)?([a-i])", text)
        return bool(match) and match.group(1).upper() == self._state["heavy"]

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict[str, Any]]:
        return super().step(_single_answer(action))

    def solution(self) -> list[Any]:
        heavy = self._state["heavy"]
        group = next(g for g in ("ABC", "DEF", "GHI") if heavy in g)
        return [{"name": "weigh", "arguments": {"left": list("ABC"), "right": list("DEF")}},
                {"name": "weigh", "arguments": {"left": [group[0]], "right": [group[1]]}}, heavy]
