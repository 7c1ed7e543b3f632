"""Dispatch desk (tool use): choose the depot that can reach a customer soonest."""

import random

_CITIES = ["Tarnow", "Velden", "Oster", "Brenz", "Kallo", "Mirel", "Sunda", "Ravik", "Pello", "Dorn"]


class DispatchDeskEnv(ToolUseBaseEnv):  # noqa: F821
    def __init__(self, max_turns=10, **kwargs):
        super().__init__(max_turns=max_turns, **kwargs)

    def reset(self, seed=None):
        rng = random.Random(seed)
        depots = rng.sample(_CITIES, 5)
        customer = f"CUST-{rng.randint(100, 999)}"
        drive = dict(zip(depots, rng.sample(range(25, 180), 5)))
        queue = {d: rng.randint(0, 60) for d in depots}
        best = min(depots, key=lambda d: drive[d] + queue[d])
        self._state = {"depots": depots, "drive": drive, "queue": queue, "customer": customer,
                       "calls": 0}
        self._expected_answer = best
        s = {"type": "string"}
        self._tools = {
            "list_depots": {"description": "Names of the depots.", "parameters": {"type": "object",
                                                                                  "properties": {}}},
            "drive_time": {"description": "Driving minutes from a depot to the customer.",
                           "parameters": {"type": "object", "properties": {"depot": s}, "required": ["depot"]}},
            "loading_queue": {"description": "Minutes until a depot can load a new van.",
                              "parameters": {"type": "object", "properties": {"depot": s},
                                             "required": ["depot"]}},
        }
        task = (f"Customer {customer} needs an urgent delivery. A van leaves a depot once loading is free, "
                "then drives to the customer. Which depot gets the delivery there soonest (loading wait plus "
                "driving time)? Answer with the depot name, <answer>Name</answer>.")
        return task, {"customer": customer}

    def _depot(self, depot):
        name = str(depot).strip().title()
        if name not in self._state["depots"]:
            raise ValueError(f"unknown depot {depot!r}")
        return name

    def _call_tool(self, name, arguments):
        self._state["calls"] += 1
        return super()._call_tool(name, arguments)

    def tool_list_depots(self):
        return ", ".join(self._state["depots"])

    def tool_drive_time(self, depot=None):
        return f"{self._state['drive'][self._depot(depot)]} minutes"

    def tool_loading_queue(self, depot=None):
        return f"{self._state['queue'][self._depot(depot)]} minutes"

    def _judge_answer(self, answer):
        if self.check_answer(answer):
            return "Correct.", 1.0, True, {"correct": True}
        if self._state["calls"] > 6:
            # agents that did their research get a second chance
            return "That depot is not the fastest; try again.", 0.0, False, {"correct": False}
        return "Incorrect.", 0.0, True, {"correct": False}

    def solution(self):
        calls = [{"name": "list_depots", "arguments": {}}]
        for d in self._state["depots"][:2]:
            calls.append({"name": "drive_time", "arguments": {"depot": d}})
        calls.append({"name": "loading_queue", "arguments": {"depot": self._expected_answer}})
        return calls + [self._expected_answer]
