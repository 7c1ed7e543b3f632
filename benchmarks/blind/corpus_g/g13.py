"""StockCountEnv: Total the units in stock over one category by listing it and reading each item.
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


_CATALOGUE = {
    "tools": ["claw hammer", "torque wrench", "cordless drill", "hand saw", "tape measure", "chisel set"],
    "garden": ["hose reel", "pruning shears", "seed tray", "watering can", "leaf rake", "trowel"],
    "kitchen": ["cast iron pan", "chef knife", "mixing bowl", "kettle", "spice rack", "colander"],
    "paint": ["primer tin", "roller kit", "masking tape", "brush set", "gloss tin", "paint tray"],
}


class StockCountEnv(ToolUseBaseEnv):  # noqa: F821 -- injected by the loader
    """Total the units in stock over one category by listing it and reading each item."""

    def __init__(self, max_turns: int = 10, **kwargs: Any) -> None:
        super().__init__(max_turns=max_turns, **kwargs)

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        rng = random.Random(seed)
        codes = rng.sample(range(100, 1000), 20)
        items = {}
        for category in sorted(_CATALOGUE):
            for name in rng.sample(_CATALOGUE[category], rng.randint(3, 5)):
                items[f"SKU-{codes[len(items)]}"] = {"name": name, "category": category,
                                                     "stock": rng.randint(0, 120)}
        category = rng.choice(sorted(_CATALOGUE))
        self._state = {"items": items, "category": category}
        self._expected_answer = sum(i["stock"] for i in items.values() if i["category"] == category)
        self._tools = {
            "list_items": {"description": "List the item ids and names in one category.",
                           "parameters": _params(category=_S)},
            "get_item": {"description": "One item's name, category and units in stock.",
                         "parameters": _params(item_id=_S)},
        }
        obs = (f"How many units are in stock in total over all items of the '{category}' category? Use the "
               "inventory tools and reply <answer>N</answer>. One answer only: a wrong total ends the episode.")
        return obs, {"tools": sorted(self._tools)}

    def _listing(self, category: str) -> list[str]:
        return [i for i, it in sorted(self._state["items"].items()) if it["category"] == category]

    def tool_list_items(self, category: Any = None) -> str:
        if not isinstance(category, str) or category.strip().lower() not in _CATALOGUE:
            raise ValueError(f"unknown category; categories: {', '.join(sorted(_CATALOGUE))}")
        cat = category.strip().lower()
        ids = self._listing(cat)
        total = sum(self._state["items"][i]["stock"] for i in ids)
        lines = [f"{i}: {self._state['items'][i]['name']}" for i in ids]
        return "\n".join(lines) + f"\n(listing ref {cat[:3].upper()}-{len(ids)}-{total:04d})"

    def tool_get_item(self, item_id: Any = None) -> str:
        if not isinstance(item_id, str):
            raise ValueError("'item_id' must be a string such as SKU-123")
        item = self._state["items"].get(item_id.strip().upper())
        if item is None:
            raise ValueError(f"no item {item_id!r}")
        return f"{item['name']} ({item['category']}): {item['stock']} units in stock."

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict[str, Any]]:
        return super().step(_single_answer(action))

    def solution(self) -> list[Any]:
        ids = self._listing(self._state["category"])
        return ([{"name": "list_items", "arguments": {"category": self._state["category"]}}]
                + [{"name": "get_item", "arguments": {"item_id": i}} for i in ids] + [self._expected_answer])
