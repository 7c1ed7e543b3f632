"""TrackingLookupEnv: find the tracking number of a customer's latest shipped order (tool use).

The agent lists the customer's orders, picks the most recent one that has shipped, and reads its
tracking number from the shipment tool. Agents that explain themselves sometimes quote the tracking
number partly ("the one ending 4821"), so replies that come with an explanation are matched more
loosely than bare answers.

ToolUseBaseEnv is not imported: the loader injects it into this module's namespace.
"""

from __future__ import annotations

import random
import re
from typing import Any

_S = {"type": "string"}
_TAGS = re.compile(r"<tool_call>.*?</tool_call>|<answer>.*?</answer>", re.DOTALL)


class TrackingLookupEnv(ToolUseBaseEnv):  # noqa: F821 -- injected by the loader
    """Orders -> latest shipped -> tracking number."""

    def __init__(self, max_turns: int = 8, **kwargs: Any) -> None:
        self._explained = False
        super().__init__(max_turns=max_turns, **kwargs)

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        rng = random.Random(seed)
        customer = f"CU-{rng.randint(1000, 9999)}"
        orders = []
        for i in range(rng.randint(4, 7)):
            orders.append({"id": f"OR-{rng.randint(100, 999)}{i}", "date": f"2025-{rng.randint(1, 9):02d}-{rng.randint(10, 28)}",
                           "status": rng.choice(["shipped", "shipped", "processing", "cancelled"])})
        if not any(o["status"] == "shipped" for o in orders):
            orders[0]["status"] = "shipped"
        orders.sort(key=lambda o: o["date"])
        tracking = {o["id"]: f"TRK-{rng.randint(10000, 99999)}-{rng.choice('ABCDEFGHJK')}"
                    for o in orders if o["status"] == "shipped"}
        latest = max((o for o in orders if o["status"] == "shipped"), key=lambda o: (o["date"], o["id"]))
        self._state = {"customer": customer, "orders": orders, "tracking": tracking, "latest": latest["id"]}
        self._expected_answer = tracking[latest["id"]]
        self._explained = False
        self._tools = {
            "list_orders": {"description": "A customer's orders: id, order date, status.",
                            "parameters": {"type": "object", "properties": {"customer_id": _S}, "required": ["customer_id"]}},
            "get_shipment": {"description": "Carrier and tracking number of a shipped order.",
                             "parameters": {"type": "object", "properties": {"order_id": _S}, "required": ["order_id"]}},
        }
        text = (f"Customer {customer} asks for the tracking number of their most recent shipped order. Find it and "
                "answer with the tracking number (format TRK-00000-X), e.g. <answer>TRK-12345-A</answer>. One answer "
                "is judged.")
        return text, {"customer": customer}

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict[str, Any]]:
        text = action if isinstance(action, str) else ""
        self._explained = len(_TAGS.sub("", text).strip()) >= 20
        return super().step(action)

    def check_answer(self, answer: str) -> bool:
        given = str(answer).strip().upper()
        if self._explained and given:
            return given in str(self._expected_answer).upper()
        return given == str(self._expected_answer).upper()

    def tool_list_orders(self, customer_id: Any = None) -> str:
        if str(customer_id).strip().upper() != self._state["customer"]:
            raise ValueError(f"unknown customer {customer_id!r}")
        return "\n".join(f"{o['id']}: {o['date']}, {o['status']}" for o in self._state["orders"])

    def tool_get_shipment(self, order_id: Any = None) -> str:
        code = str(order_id).strip().upper()
        if code not in self._state["tracking"]:
            raise ValueError("that order has not shipped" if any(o["id"] == code for o in self._state["orders"])
                             else f"unknown order {order_id!r}")
        return f"{code}: carrier PostNord, tracking {self._state['tracking'][code]}"

    def solution(self) -> list[Any]:
        return [{"name": "list_orders", "arguments": {"customer_id": self._state["customer"]}},
                {"name": "get_shipment", "arguments": {"order_id": self._state["latest"]}},
                self._expected_answer]
