"""Skip Level: find the employee id of someone's manager's manager with the HR directory tools.

The directory tool returns one record at a time (name, id, manager id), so the agent has to follow
the reporting line two steps up.

ToolUseBaseEnv is not imported: the loader injects it into this module's namespace.
"""

from __future__ import annotations

import random
from typing import Any

_S = {"type": "string"}
_NAMES = ["Alma Reyes", "Bo Lindqvist", "Chidi Okafor", "Dara Singh", "Elif Kaya", "Femi Adeyemi",
          "Greta Holm", "Hugo Laurent", "Ines Duarte", "Jae Park", "Kofi Mensah", "Lior Ben-David",
          "Maya Iyer", "Nils Berg", "Omar Haddad", "Priya Nair"]


class SkipLevelEnv(ToolUseBaseEnv):  # noqa: F821
    """Tool-use multi-hop lookup."""

    def __init__(self, max_turns: int = 6, **kwargs: Any) -> None:
        super().__init__(max_turns=max_turns, **kwargs)

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        names = rng.sample(_NAMES, 10)
        ids = rng.sample(range(1000, 9999), 10)
        people = {f"E{i}": {"name": n, "manager": None} for n, i in zip(names, ids)}
        order = list(people)
        for pos, eid in enumerate(order[1:], start=1):
            people[eid]["manager"] = order[rng.randrange(max(0, pos - 3), pos)]
        depth: dict[str, int] = {}
        for eid in order:
            boss = people[eid]["manager"]
            depth[eid] = 0 if boss is None else depth[boss] + 1
        employee = rng.choice([e for e in order if depth[e] >= 2])
        skip = people[people[employee]["manager"]]["manager"]
        self._state = {"people": people, "employee": employee}
        self._expected_answer = skip
        self._tools = {
            "find_person": {"description": "Search the directory by full name; returns the employee id.",
                            "parameters": {"type": "object", "properties": {"name": _S}, "required": ["name"]}},
            "get_record": {"description": "Directory record for an employee id: name and manager id.",
                           "parameters": {"type": "object", "properties": {"employee_id": _S},
                                          "required": ["employee_id"]}},
        }
        obs = (f"HR question: what is the employee id of {people[employee]['name']}'s manager's manager? Use the "
               "directory tools and reply <answer>E1234</answer>.")
        return obs, {}

    def tool_find_person(self, name: Any = None) -> str:
        for eid, rec in self._state["people"].items():
            if isinstance(name, str) and rec["name"].lower() == name.strip().lower():
                return eid
        raise ValueError(f"nobody called {name!r}")

    def tool_get_record(self, employee_id: Any = None) -> str:
        rec = self._state["people"].get(str(employee_id).strip().upper())
        if rec is None:
            raise ValueError(f"unknown employee id {employee_id!r}")
        return f"{rec['name']} ({str(employee_id).strip().upper()}), manager: {rec['manager'] or 'none'}"

    def solution(self) -> list[Any]:
        emp = self._state["employee"]
        mgr = self._state["people"][emp]["manager"]
        return [{"name": "find_person", "arguments": {"name": self._state["people"][emp]["name"]}},
                {"name": "get_record", "arguments": {"employee_id": emp}},
                {"name": "get_record", "arguments": {"employee_id": mgr}},
                self._expected_answer]
