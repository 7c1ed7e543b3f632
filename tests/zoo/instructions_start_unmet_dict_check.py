# expect: instructions_start_unmet
"""Order Fixer: a multi-instruction retail task in this project's style (a defect-zoo environment).

The environment: ``self._user_messages = [{"message": ..., "check": ...}]``, revealed one at a time
by the base class: keep an order active, change its shipping address, add a gift note; then
<answer>done</answer>.

The defect: the first instruction's check already holds at reset: "make sure order #N is not
cancelled" is checked as ``s['orders'][N]['status'] != 'cancelled'``, and the order starts
'processing', so the base class marks instruction 1 done after the agent's first tool call, whatever
it is.
Exploit: never look at the order: update_address (which completes instruction 1 for free and then
instruction 2), add_note, then <answer>done</answer>; this wins every seed.
"""

import random

STREETS = ["Elm Street", "Harbour Road", "Mill Lane", "Quarry Way", "Station Road", "Willow Close"]


class OrderFixerEnv(ToolUseBaseEnv):  # noqa: F821 -- provided by the loader
    """Three dependent edits to one order."""

    def reset(self, seed=None):
        rng = random.Random(seed)
        self._order = rng.randint(1000, 9999)
        self._address = f"{rng.randint(1, 199)} {rng.choice(STREETS)}"
        self._note = rng.choice(["Happy birthday!", "Congratulations!", "With love", "Get well soon"])
        self._state = {"orders": {self._order: {"status": "processing", "address": "old address", "note": ""}}}
        self._expected_answer = "done"
        self._tools = {
            "get_order": {"description": "Show an order.",
                          "parameters": {"type": "object", "properties": {"order_id": {"type": "integer"}},
                                         "required": ["order_id"]}},
            "update_address": {"description": "Change an order's shipping address.",
                               "parameters": {"type": "object", "properties": {
                                   "order_id": {"type": "integer"}, "address": {"type": "string"}},
                                   "required": ["order_id", "address"]}},
            "add_note": {"description": "Attach a gift note to an order.",
                         "parameters": {"type": "object", "properties": {
                             "order_id": {"type": "integer"}, "note": {"type": "string"}},
                             "required": ["order_id", "note"]}},
        }
        order, address, note = self._order, self._address, self._note
        self._user_messages = [
            {"message": f"Please make sure order #{order} is not cancelled.",
             "check": lambda s: s["orders"][order]["status"] != "cancelled"},  # defect: true at reset
            {"message": f"Ship it to {address} instead.", "check": lambda s: s["orders"][order]["address"] == address},
            {"message": f"Add the gift note '{note}'.", "check": lambda s: s["orders"][order]["note"] == note},
        ]
        return "You are a retail support agent.", {}

    def _find(self, order_id):
        try:
            return self._state["orders"].get(int(order_id))
        except (TypeError, ValueError):
            return None

    def tool_get_order(self, order_id=0):
        order = self._find(order_id)
        return f"Order {order_id}: {order}" if order else f"No order {order_id!r}."

    def tool_update_address(self, order_id=0, address=""):
        order = self._find(order_id)
        if order is None or not str(address).strip():
            return "Error: unknown order or empty address."
        order["address"] = str(address).strip()
        return f"Order {order_id} now ships to {order['address']}."

    def tool_add_note(self, order_id=0, note=""):
        order = self._find(order_id)
        if order is None:
            return "Error: unknown order."
        order["note"] = str(note)
        return f"Note added to order {order_id}."

    def solution(self):
        return [
            {"name": "get_order", "arguments": {"order_id": self._order}},
            {"name": "update_address", "arguments": {"order_id": self._order, "address": self._address}},
            {"name": "add_note", "arguments": {"order_id": self._order, "note": self._note}},
            "done",
        ]
