# expect: instance_isolation
"""Parking Garage: which level has the most free spaces? (a defect-zoo environment).

The environment: a tool-use task in this project's style. The agent lists the garage levels, reads
each level's capacity and parked cars, and answers with the level that has the most free spaces.

The defect: the garage data is kept in a MODULE-level dict, ``_GARAGE``, which every reset
overwrites, so two live instances with different seeds share one garage: after ``a.reset(s1);
b.reset(s2)``, instance a's tools show b's levels and a grades against b's answer.
Exploit: with two interleaved instances, replaying a's own solution (computed right after a's reset)
loses on most pairs of seeds; a single instance is unaffected.
"""

import random

_GARAGE = {"levels": {}, "answer": None}  # defect: module-level state shared by every instance


class ParkingGarageEnv(ToolUseBaseEnv):  # noqa: F821 -- provided by the loader
    """arg-max of capacity - parked."""

    def __init__(self, max_turns=12, **kwargs):
        super().__init__(max_turns=max_turns, **kwargs)

    def reset(self, seed=None):
        rng = random.Random(seed)
        names = rng.sample(["P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8", "B1", "B2"], 6)
        free = rng.sample(range(0, 120), 6)
        levels = {}
        for name, spaces in zip(names, free):
            capacity = rng.randint(spaces + 20, spaces + 200)
            levels[name] = {"capacity": capacity, "parked": capacity - spaces}
        _GARAGE["levels"] = levels
        _GARAGE["answer"] = max(levels, key=lambda n: levels[n]["capacity"] - levels[n]["parked"])
        self._state = {"calls": 0}
        self._expected_answer = _GARAGE["answer"]
        self._tools = {
            "list_levels": {"description": "List the garage's levels.",
                            "parameters": {"type": "object", "properties": {}, "required": []}},
            "level_status": {"description": "Capacity and parked cars on one level.",
                             "parameters": {"type": "object", "properties": {"level": {"type": "string"}},
                                            "required": ["level"]}},
        }
        return ("Which garage level has the most free spaces right now? Answer with the level's name as "
                "<answer>P1</answer>."), {}

    def check_answer(self, answer):
        return str(answer).strip().upper() == _GARAGE["answer"]

    def tool_list_levels(self):
        return ", ".join(sorted(_GARAGE["levels"]))

    def tool_level_status(self, level=""):
        info = _GARAGE["levels"].get(str(level).strip().upper())
        if info is None:
            return f"No level {level!r}."
        return f"{level}: capacity {info['capacity']}, parked {info['parked']}"

    def solution(self):
        calls = [{"name": "list_levels", "arguments": {}}]
        calls += [{"name": "level_status", "arguments": {"level": n}} for n in sorted(_GARAGE["levels"])]
        return calls + [_GARAGE["answer"]]
