"""HeavyCoinEnv: find the one heavy coin among nine with at most two weighings (tool use).

The balance tool only says which pan is heavier (partial feedback) and is put away after two
weighings, so the agent has to plan: three against three, then one against one within the heavy
group. The answer is the coin's number (1-9). Malformed weighings (overlapping or unequal pans,
unknown coins) are rejected without using up a weighing.

ToolUseBaseEnv is not imported: the loader injects it into this module's namespace.
"""

from __future__ import annotations

import random
from typing import Any

_MERCHANTS = ["Ilse", "Tomasz", "Amina", "Ravi", "Keiko", "Diego", "Olu", "Freya", "Yusuf", "Marta"]
_METALS = ["silver", "gold", "bronze", "copper"]
_LIST = {"type": "array", "items": {"type": "integer"}}


class HeavyCoinEnv(ToolUseBaseEnv):  # noqa: F821 -- injected by the loader
    """Two weighings, nine coins, one heavier."""

    reward_range = (-0.1, 1.0)

    def __init__(self, max_turns: int = 6, **kwargs: Any) -> None:
        super().__init__(max_turns=max_turns, **kwargs)

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        rng = random.Random(seed)
        heavy = rng.randint(1, 9)
        merchant, metal = rng.choice(_MERCHANTS), rng.choice(_METALS)
        self._state = {"heavy": heavy, "weighings": 0}
        self._expected_answer = str(heavy)
        self._tools = {
            "weigh": {"description": "Put coins on the two pans of a balance and see which side is heavier. "
                                     "Coins are numbered 1-9; both pans must hold the same number of coins and no "
                                     "coin may be on both. Only two weighings are allowed.",
                      "parameters": {"type": "object", "properties": {"left": _LIST, "right": _LIST},
                                     "required": ["left", "right"]}},
        }
        text = (f"{merchant} has nine {metal} coins numbered 1 to 9. One is counterfeit and slightly heavier; the "
                "others weigh the same. You may use the balance at most twice. Then answer with the number of "
                "the heavy coin, e.g. <answer>5</answer>. One answer is judged.")
        return text, {"coins": 9, "weighings_allowed": 2}

    @staticmethod
    def _pan(value: Any, name: str) -> list[int]:
        if not isinstance(value, list) or not value:
            raise ValueError(f"'{name}' must be a non-empty list of coin numbers")
        coins = []
        for coin in value:
            if isinstance(coin, bool) or not isinstance(coin, int) or not 1 <= coin <= 9:
                raise ValueError(f"coins are numbered 1-9; got {coin!r}")
            coins.append(coin)
        if len(set(coins)) != len(coins):
            raise ValueError(f"a coin appears twice on the {name} pan")
        return coins

    def tool_weigh(self, left: Any = None, right: Any = None) -> str:
        if self._state["weighings"] >= 2:
            return "The balance has been put away: you already used your two weighings."
        pan_l, pan_r = self._pan(left, "left"), self._pan(right, "right")
        if len(pan_l) != len(pan_r) or set(pan_l) & set(pan_r):
            raise ValueError("both pans need the same number of coins and no coin on both")
        self._state["weighings"] += 1
        heavy = self._state["heavy"]
        side = "left pan is heavier" if heavy in pan_l else "right pan is heavier" if heavy in pan_r else "balanced"
        return f"Weighing {self._state['weighings']} of 2: {side}."

    def solution(self) -> list[Any]:
        heavy = self._state["heavy"]
        group = (heavy - 1) // 3
        first = {"name": "weigh", "arguments": {"left": [1, 2, 3], "right": [4, 5, 6]}}
        a = 3 * group + 1
        second = {"name": "weigh", "arguments": {"left": [a], "right": [a + 1]}}
        return [first, second, str(heavy)]
