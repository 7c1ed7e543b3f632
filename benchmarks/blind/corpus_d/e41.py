"""Refund desk: total the refunds owed to a customer for returned orders.

ToolUseBaseEnv is injected by the loader.
"""

from __future__ import annotations

import random
from typing import Any

_FIRST = ["Maya", "Owen", "Priya", "Quinn", "Rosa", "Sven", "Tara", "Umar", "Vera", "Wes"]


class RefundDeskEnv(ToolUseBaseEnv):  # noqa: F821
    def __init__(self, max_turns: int = 10, **kwargs: Any) -> None:
        super().__init__(max_turns=max_turns, **kwargs)

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        rng = random.Random(seed)
        customer = f"{rng.choice(_FIRST)}-{rng.randint(100, 999)}"
        orders = {}
        for _ in range(rng.randint(3, 5)):
            oid = f"R{rng.randint(10000, 99999)}"
            orders[oid] = {"amount_cents": rng.randint(499, 25999), "returned": rng.random() < 0.6}
        first = sorted(orders)[0]
        orders[first]["returned"] = True
        total_cents = sum(o["amount_cents"] for o in orders.values() if o["returned"])
        self._state = {"customer": customer, "orders": orders}
        self._expected_answer = total_cents
        s = {"type": "string"}
        self._tools = {
            "list_orders": {"description": "Order ids for a customer.",
                            "parameters": {"type": "object", "properties": {"customer_id": s},
                                           "required": ["customer_id"]}},
            "get_order": {"description": "One order: amount_cents and whether it was returned.",
                          "parameters": {"type": "object", "properties": {"order_id": s},
                                         "required": ["order_id"]}},
        }
        obs = (f"Customer {customer} returned some orders. Every returned order is refunded in full. What is "
               "the total refund due, in dollars (e.g. 12.50)? Use the tools, then reply "
               "<answer>amount</answer>.")
        return obs, {"customer": customer}

    def tool_list_orders(self, customer_id: Any = None) -> str:
        if str(customer_id).strip().lower() != self._state["customer"].lower():
            raise ValueError(f"unknown customer {customer_id!r}")
        return ", ".join(sorted(self._state["orders"]))

    def tool_get_order(self, order_id: Any = None) -> str:
        key = str(order_id).strip().upper()
        if key not in self._state["orders"]:
            raise ValueError(f"unknown order {order_id!r}")
        o = self._state["orders"][key]
        return f'{{"order_id": "{key}", "amount_cents": {o["amount_cents"]}, "returned": {str(o["returned"]).lower()}}}'

    def solution(self) -> list[Any]:
        calls: list[Any] = [{"name": "list_orders", "arguments": {"customer_id": self._state["customer"]}}]
        calls += [{"name": "get_order", "arguments": {"order_id": o}} for o in sorted(self._state["orders"])]
        return calls + [str(self._expected_answer)]
