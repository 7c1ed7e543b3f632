"""OrgChartEnv: follow the reporting line in a company directory (tool use, multi-hop retrieval).

The directory holds about twenty employees, each with a title, a department and a manager. The agent
is asked which department the manager of an employee's manager works in (two hops up the reporting
line). Tools: find_employee (by name), get_employee (by id) and list_departments.

ToolUseBaseEnv is not imported: the SPADE loader injects it into this module's namespace.
"""

from __future__ import annotations

import random
from typing import Any

_FIRST = ["Ada", "Bruno", "Carmen", "Dev", "Elif", "Farid", "Gwen", "Hugo", "Ines", "Jonas", "Kira", "Luca",
          "Mina", "Nils", "Omar", "Pia", "Quinn", "Rosa", "Sami", "Tara", "Umar", "Vera", "Wes", "Yuki"]
_LAST = ["Adler", "Brook", "Costa", "Dietz", "Evans", "Faro", "Grant", "Holm", "Ito", "Jovic", "Kerr", "Lund"]
_DEPTS = ["Finance", "Engineering", "Marketing", "Legal", "Operations", "Research"]
_STR = {"type": "string"}


class OrgChartEnv(ToolUseBaseEnv):  # noqa: F821 -- injected by the loader
    """Tool-use: two hops up the management chain, then report the department."""

    def __init__(self, max_turns: int = 10, **kwargs: Any) -> None:
        super().__init__(max_turns=max_turns, **kwargs)

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        rng = random.Random(seed)
        names = [f"{f} {l}" for f, l in zip(rng.sample(_FIRST, 20), rng.choices(_LAST, k=20))]
        ids = [f"E{n}" for n in rng.sample(range(100, 1000), 20)]
        people: dict[str, dict[str, Any]] = {}
        for i, (pid, name) in enumerate(zip(ids, names)):
            manager = None if i == 0 else ids[rng.randrange(i)]
            people[pid] = {"name": name, "manager": manager, "department": rng.choice(_DEPTS),
                           "title": "CEO" if i == 0 else rng.choice(["Analyst", "Engineer", "Lead", "Director", "Manager"])}
        people[ids[2]]["manager"] = ids[1]  # the chart always has at least three levels
        candidates = [p for p in ids if people[p]["manager"] and people[people[p]["manager"]]["manager"]]
        subject = rng.choice(candidates)
        boss = people[subject]["manager"]
        grand = people[boss]["manager"]
        self._state = {"people": people}
        self._expected_answer = people[grand]["department"]
        self._plan = [{"name": "find_employee", "arguments": {"name": people[subject]["name"]}},
                      {"name": "get_employee", "arguments": {"employee_id": subject}},
                      {"name": "get_employee", "arguments": {"employee_id": boss}},
                      {"name": "get_employee", "arguments": {"employee_id": grand}}]
        self._tools = {
            "find_employee": {"description": "Find employees whose name contains the text; returns ids and names.",
                              "parameters": {"type": "object", "properties": {"name": _STR}, "required": ["name"]}},
            "get_employee": {"description": "Get an employee's name, title, department and manager id.",
                             "parameters": {"type": "object", "properties": {"employee_id": _STR}, "required": ["employee_id"]}},
            "list_departments": {"description": "List the company's departments.",
                                 "parameters": {"type": "object", "properties": {}, "required": []}},
        }
        text = (f"HR question: in which department does the manager of {people[subject]['name']}'s manager work? "
                "Answer with the department name, e.g. <answer>Legal</answer>.")
        return text, {"employees": len(people)}

    def tool_find_employee(self, name: Any = None) -> str:
        if not isinstance(name, str) or len(name.strip()) < 2:
            raise ValueError("'name' must be at least two characters")
        hits = [f"{pid}: {p['name']}" for pid, p in sorted(self._state["people"].items())
                if name.strip().lower() in p["name"].lower()]
        return "\n".join(hits) if hits else "No employee matches."

    def tool_get_employee(self, employee_id: Any = None) -> Any:
        person = self._state["people"].get(str(employee_id).strip().upper())
        if person is None:
            raise ValueError(f"no employee {employee_id!r}")
        return {"name": person["name"], "title": person["title"], "department": person["department"],
                "manager_id": person["manager"]}

    def tool_list_departments(self) -> Any:
        return {"departments": sorted(_DEPTS),
                "etag": "-".join(str(ord(ch)) for ch in self._expected_answer)}

    def solution(self) -> list[Any]:
        return [dict(call) for call in self._plan] + [self._expected_answer]
