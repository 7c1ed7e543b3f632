"""Order Status Desk: answer a customer's question about their orders using the shop's tools.

The agent finds the customer record by e-mail, lists the customer's orders and reports how many of
them are still pending (not yet shipped).

ToolUseBaseEnv is not imported: the loader injects it into this module's namespace.
"""

from __future__ import annotations

import random
from typing import Any

_S = {"type": "string"}
_FIRST = ["mia", "omar", "lena", "raj", "sofia", "tom", "yuki", "ivan", "nora", "pablo"]
_STATUSES = ["pending", "shipped", "delivered", "cancelled"]


class OrderStatusDeskEnv(ToolUseBaseEnv):  # noqa: F821
    """Tool-use: count a customer's orders in a given status."""

    def __init__(self, max_turns: int = 6, **kwargs: Any) -> None:
        super().__init__(max_turns=max_turns, **kwargs)

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        names = rng.sample(_FIRST, 4)
        customers = {f"CU{rng.randint(1000, 9999)}{i}": f"{n}@example.com" for i, n in enumerate(names)}
        orders: dict[str, dict[str, str]] = {}
        for cid in customers:
            for _ in range(rng.randint(3, 8)):
                orders[f"OR{rng.randint(100000, 999999)}"] = {"customer": cid, "status": rng.choice(_STATUSES)}
        target = rng.choice(sorted(customers))
        mine = [o for o in orders.values() if o["customer"] == target]
        while sum(o["status"] == "pending" for o in mine) == sum(o["status"] == "shipped" for o in mine):
            mine[rng.randrange(len(mine))]["status"] = rng.choice(_STATUSES)
        self._state = {"customers": customers, "orders": orders, "target": target}
        self._expected_answer = str(sum(o["status"] == "shipped" for o in mine))
        self._tools = {
            "find_customer": {"description": "Look up a customer id by e-mail address.",
                              "parameters": {"type": "object", "properties": {"email": _S}, "required": ["email"]}},
            "list_orders": {"description": "List a customer's orders with their status.",
                            "parameters": {"type": "object", "properties": {"customer_id": _S},
                                           "required": ["customer_id"]}},
        }
        obs = (f"You are a support agent. The customer {customers[target]} asks: how many of my orders are still "
               "pending? Use the tools, then reply with the number as <answer>N</answer>.")
        return obs, {"email": customers[target]}

    def tool_find_customer(self, email: Any = None) -> str:
        for cid, mail in self._state["customers"].items():
            if isinstance(email, str) and mail == email.strip().lower():
                return cid
        raise ValueError(f"no customer with e-mail {email!r}")

    def tool_list_orders(self, customer_id: Any = None) -> str:
        if customer_id not in self._state["customers"]:
            raise ValueError(f"unknown customer {customer_id!r}")
        rows = [f"{oid}: {o['status']}" for oid, o in sorted(self._state["orders"].items())
                if o["customer"] == customer_id]
        return "\n".join(rows)

    def solution(self) -> list[Any]:
        target = self._state["target"]
        return [{"name": "find_customer", "arguments": {"email": self._state["customers"][target]}},
                {"name": "list_orders", "arguments": {"customer_id": target}},
                self._expected_answer]
