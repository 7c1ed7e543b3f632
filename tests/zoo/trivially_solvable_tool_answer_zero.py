# expect: trivially_solvable
"""Refund Audit: count orders that were refunded but are still awaiting shipment (a defect-zoo environment).

The environment: a tool-use task in this project's style. The agent lists the orders, reads their
shipping status and refund flag, and answers with how many orders are refunded AND still awaiting
shipment.

The defect: the generator only ever refunds DELIVERED orders, so no order is both refunded and
awaiting shipment: the answer is 0 on every seed.
Exploit: the constant action "<answer>0</answer>" wins every seed.
"""

import random

STATUSES = ["awaiting shipment", "shipped", "delivered"]


class RefundAuditEnv(ToolUseBaseEnv):  # noqa: F821 -- provided by the loader
    """Count refunded orders that have not shipped."""

    def __init__(self, max_turns=12, **kwargs):
        super().__init__(max_turns=max_turns, **kwargs)

    def reset(self, seed=None):
        rng = random.Random(seed)
        orders = {}
        for number in rng.sample(range(100, 999), 8):
            status = rng.choice(STATUSES)
            refunded = status == "delivered" and rng.random() < 0.5  # defect: only delivered orders
            orders[f"#{number}"] = {"status": status, "refunded": refunded}
        self._state = {"orders": orders}
        self._expected_answer = sum(o["refunded"] and o["status"] == "awaiting shipment" for o in orders.values())
        self._tools = {
            "list_orders": {
                "description": "List all order numbers.",
                "parameters": {"type": "object", "properties": {}, "required": []},
            },
            "get_order": {
                "description": "Show one order's shipping status and whether it was refunded.",
                "parameters": {"type": "object", "properties": {"order": {"type": "string"}}, "required": ["order"]},
            },
        }
        return ("How many orders have been refunded but are still awaiting shipment? Check every order, "
                "then answer with the count as <answer>n</answer>."), {}

    def tool_list_orders(self):
        return ", ".join(sorted(self._state["orders"]))

    def tool_get_order(self, order=""):
        found = self._state["orders"].get(str(order))
        if found is None:
            return f"No order {order!r}."
        return f"{order}: status={found['status']}, refunded={'yes' if found['refunded'] else 'no'}"

    def solution(self):
        calls = [{"name": "list_orders", "arguments": {}}]
        calls += [{"name": "get_order", "arguments": {"order": o}} for o in sorted(self._state["orders"])]
        return calls + [str(self._expected_answer)]
