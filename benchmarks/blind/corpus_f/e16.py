"""ShipFromEnv: which warehouse can ship a customer's order in one parcel? (tool use)

The agent looks the order up (SKU and quantity), then checks stock per warehouse and answers with the
one warehouse that holds enough units. Answers like "the Oslo warehouse" are fine: the checker looks
for the warehouse's name in the answer.

ToolUseBaseEnv is not imported: the loader injects it into this module's namespace.
"""

from __future__ import annotations

import random
from typing import Any

_WAREHOUSES = ["Oslo", "Lima", "Pune", "Kyiv", "Baku", "Doha"]
_S = {"type": "string"}


class ShipFromEnv(ToolUseBaseEnv):  # noqa: F821 -- injected by the loader
    """Look up an order, compare stock, name the warehouse."""

    def __init__(self, max_turns: int = 8, **kwargs: Any) -> None:
        super().__init__(max_turns=max_turns, **kwargs)

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        rng = random.Random(seed)
        order_id = f"ORD-{rng.randint(10000, 99999)}"
        sku = f"SKU-{rng.randint(100, 999)}"
        quantity = rng.randint(5, 40)
        winner = rng.choice(_WAREHOUSES)
        stock = {w: (rng.randint(quantity, quantity + 30) if w == winner else rng.randint(0, quantity - 1))
                 for w in _WAREHOUSES}
        self._state = {"orders": {order_id: {"sku": sku, "quantity": quantity}}, "stock": {sku: stock}}
        self._expected_answer = winner
        self._tools = {
            "get_order": {"description": "Look up an order: SKU and quantity.",
                          "parameters": {"type": "object", "properties": {"order_id": _S}, "required": ["order_id"]}},
            "stock_levels": {"description": "Units of a SKU held in each of our warehouses "
                                            f"({', '.join(_WAREHOUSES)}).",
                             "parameters": {"type": "object", "properties": {"sku": _S}, "required": ["sku"]}},
        }
        text = (f"Order {order_id} must ship in one parcel from a single warehouse. Find the warehouse that has "
                "enough units and answer with its name, e.g. <answer>Oslo</answer>. One answer is judged.")
        return text, {"order": order_id}

    def check_answer(self, answer: str) -> bool:
        return str(self._expected_answer).lower() in str(answer).lower()

    def tool_get_order(self, order_id: Any = None) -> str:
        order = self._state["orders"].get(str(order_id).strip().upper())
        if order is None:
            raise ValueError(f"no order {order_id!r}")
        return f"{order['sku']} x {order['quantity']}"

    def tool_stock_levels(self, sku: Any = None) -> str:
        levels = self._state["stock"].get(str(sku).strip().upper())
        if levels is None:
            raise ValueError(f"unknown SKU {sku!r}")
        return ", ".join(f"{w}: {n}" for w, n in levels.items())

    def solution(self) -> list[Any]:
        order_id = next(iter(self._state["orders"]))
        sku = self._state["orders"][order_id]["sku"]
        return [{"name": "get_order", "arguments": {"order_id": order_id}},
                {"name": "stock_levels", "arguments": {"sku": sku}}, self._expected_answer]
