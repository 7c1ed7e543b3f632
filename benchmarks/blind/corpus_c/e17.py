"""Service-level planner (tool use): find the one depot that reaches every order within the window."""

import random

_DEPOTS = ["North Yard", "Quay Side", "Mill Lane", "Airport Park", "Stone Cross", "West Gate", "Kiln Row",
           "Bay Point", "Fern Hill", "Ash Court"]


class ServiceLevelEnv(ToolUseBaseEnv):  # noqa: F821
    def __init__(self, max_turns=10, **kwargs):
        super().__init__(max_turns=max_turns, **kwargs)

    def reset(self, seed=None):
        rng = random.Random(seed)
        depots = rng.sample(_DEPOTS, 8)
        orders = [f"ORD-{rng.randint(1000, 9999)}" for _ in range(rng.randint(4, 6))]
        window = rng.choice([30, 35, 40, 45])
        good = rng.choice(depots)
        times = {}
        for d in depots:
            row = {o: rng.randint(8, window + 25) for o in orders}
            if d == good:
                row = {o: rng.randint(8, window) for o in orders}
            elif all(t <= window for t in row.values()):
                row[rng.choice(orders)] = window + rng.randint(1, 20)
            times[d] = row
        self._state = {"depots": depots, "orders": orders, "times": times, "window": window}
        self._expected_answer = good
        s = {"type": "string"}
        self._tools = {
            "list_depots": {"description": "All depots.", "parameters": {"type": "object", "properties": {}}},
            "list_orders": {"description": "Today's open orders.", "parameters": {"type": "object",
                                                                                 "properties": {}}},
            "travel_time": {"description": "Minutes from a depot to an order's address.",
                            "parameters": {"type": "object", "properties": {"depot": s, "order_id": s},
                                           "required": ["depot", "order_id"]}},
            "check_depot": {"description": "Run the service-level rules for a depot assignment.",
                            "parameters": {"type": "object", "properties": {"depot": s}, "required": ["depot"]}},
        }
        task = (f"Every open order must be reached within {window} minutes of leaving its depot, and all of them "
                "must be served from one depot. Exactly one depot qualifies. Which one? "
                "Reply <answer>Depot Name</answer>.")
        return task, {"window": window}

    def _depot(self, depot):
        for d in self._state["depots"]:
            if d.lower() == str(depot).strip().lower():
                return d
        raise ValueError(f"unknown depot {depot!r}")

    def tool_list_depots(self):
        return ", ".join(self._state["depots"])

    def tool_list_orders(self):
        return ", ".join(self._state["orders"])

    def tool_travel_time(self, depot=None, order_id=None):
        row = self._state["times"][self._depot(depot)]
        key = str(order_id).strip().upper()
        if key not in row:
            raise ValueError("unknown order")
        return f"{row[key]} minutes"

    def tool_check_depot(self, depot=None):
        d = self._depot(depot)
        ok = all(t <= self._state["window"] for t in self._state["times"][d].values())
        return f"{d}: {'meets' if ok else 'violates'} the service level"

    def solution(self):
        calls = [{"name": "list_depots", "arguments": {}}, {"name": "list_orders", "arguments": {}}]
        calls += [{"name": "travel_time", "arguments": {"depot": self._expected_answer, "order_id": o}}
                  for o in self._state["orders"]]
        return calls + [self._expected_answer]
