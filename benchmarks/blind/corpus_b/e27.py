"""Restock Planner: decide how many units to reorder across a small store's catalogue.

For every item, the reorder quantity is max(0, forecast demand + safety stock - units on hand),
where safety stock is 10% of forecast demand rounded up. The tools return the catalogue, stock and
forecasts; the answer is the total number of units to reorder.

ToolUseBaseEnv is not imported: the loader injects it into this module's namespace.
"""

from __future__ import annotations

import math
import random
from typing import Any

_S = {"type": "string"}
_CATALOGUE = ["oat milk", "espresso beans", "paper cups", "lids", "sugar sticks", "napkins",
              "chai syrup", "stir sticks", "pastry bags", "filters"]


class RestockPlannerEnv(ToolUseBaseEnv):  # noqa: F821
    """Tool-use: aggregate intermediate data into a reorder total."""

    def __init__(self, max_turns: int = 14, **kwargs: Any) -> None:
        super().__init__(max_turns=max_turns, **kwargs)

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        items = rng.sample(_CATALOGUE, rng.randint(3, 5))
        skus = {f"SKU-{rng.randint(100, 999)}{i}": name for i, name in enumerate(items)}
        total = 0
        while total == 0:
            stock = {s: rng.randint(0, 120) for s in skus}
            demand = {s: rng.randint(20, 150) for s in skus}
            total = sum(max(0, demand[s] + math.ceil(demand[s] / 10) - stock[s]) for s in skus)
        self._state = {"skus": skus, "stock": stock, "demand": demand}
        self._expected_answer = str(total)
        self._tools = {
            "list_items": {"description": "List the catalogue: SKU and item name.",
                           "parameters": {"type": "object", "properties": {}}},
            "get_stock": {"description": "Units on hand for a SKU.",
                          "parameters": {"type": "object", "properties": {"sku": _S}, "required": ["sku"]}},
            "get_forecast": {"description": "Forecast demand (units) for next week for a SKU.",
                             "parameters": {"type": "object", "properties": {"sku": _S}, "required": ["sku"]}},
        }
        obs = ("You plan next week's restock for a cafe. For each item reorder max(0, demand + safety - on_hand), "
               "with safety stock = ceil(10% of demand). Reply with the total units to reorder as <answer>N</answer>.")
        return obs, {"items": len(skus)}

    def _sku(self, sku: Any) -> str:
        key = str(sku).strip().upper()
        if key not in self._state["skus"]:
            raise ValueError(f"unknown SKU {sku!r}; call list_items")
        return key

    def tool_list_items(self) -> str:
        return "\n".join(f"{s}: {n}" for s, n in sorted(self._state["skus"].items()))

    def tool_get_stock(self, sku: Any = None) -> str:
        return str(self._state["stock"][self._sku(sku)])

    def tool_get_forecast(self, sku: Any = None) -> str:
        return str(self._state["demand"][self._sku(sku)])

    def solution(self) -> list[Any]:
        calls: list[Any] = [{"name": "list_items", "arguments": {}}]
        for s in sorted(self._state["skus"]):
            calls.append({"name": "get_stock", "arguments": {"sku": s}})
            calls.append({"name": "get_forecast", "arguments": {"sku": s}})
        return calls + [self._expected_answer]
