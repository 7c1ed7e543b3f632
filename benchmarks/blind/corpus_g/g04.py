"""OrgChartEnv: Chain lookups through an org chart: the office room of an employee's manager's manager.
"""
from __future__ import annotations

import random
import re
from typing import Any

_ANSWER_TAG = re.compile(r"<answer>(.*?)</answer>", re.DOTALL)
_S = {"type": "string"}


def _params(**props: Any) -> dict[str, Any]:
    return {"type": "object", "properties": props, "required": sorted(props)}


def _single_answer(action: Any) -> Any:
    """Two different <answer> blocks in one reply count as one wrong answer, not as a choice."""
    if isinstance(action, str) and "<tool_call>" not in action:
        answers = {" ".join(a.split()).lower() for a in _ANSWER_TAG.findall(action[:20000])}
        if len(answers) > 1:
            return "<answer>(several different answers)</answer>"
    return action


_FIRST = ("Amara", "Bastian", "Chloe", "Dario", "Esther", "Felix", "Gemma", "Henrik", "Isla", "Jasper", "Kira",
          "Lorenzo", "Maya", "Nikolai", "Olive", "Pavel")
_LAST = ("Achebe", "Bergstrom", "Cortez", "Dubois", "Eriksen", "Fontaine", "Garcia", "Haddad", "Ishikawa",
         "Jovanovic", "Kowalski", "Laurent")
_TITLES = ("Chief Executive", "Vice President", "Vice President", "Manager", "Manager", "Manager", "Manager")


class OrgChartEnv(ToolUseBaseEnv):  # noqa: F821 -- injected by the loader
    """Chain lookups through an org chart: the office room of an employee's manager's manager."""

    def __init__(self, max_turns: int = 8, **kwargs: Any) -> None:
        super().__init__(max_turns=max_turns, **kwargs)

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        rng = random.Random(seed)
        names = rng.sample([f"{f} {l}" for f in _FIRST for l in _LAST], 12)
        ids = [f"E-{n}" for n in rng.sample(range(100, 1000), 12)]
        rooms = rng.sample(range(100, 1000), 12)
        managers: list[int | None] = [None, 0, 0]
        managers += [rng.choice([1, 2]) for _ in range(4)]
        managers += [rng.randint(3, 6) for _ in range(5)]
        staff = {}
        for i, emp in enumerate(ids):
            title = _TITLES[i] if i < len(_TITLES) else "Analyst"
            boss = managers[i]
            staff[emp] = {"name": names[i], "title": title, "manager": None if boss is None else ids[boss],
                          "room": rooms[i]}
        target = ids[rng.randint(3, 11)]
        self._target = target
        self._state = {"staff": staff}
        mgr = staff[target]["manager"]
        self._chain = [target, mgr, staff[mgr]["manager"]]
        self._expected_answer = staff[self._chain[2]]["room"]
        self._tools = {
            "find_employee": {"description": "Look up an employee id by full name.",
                              "parameters": _params(name=_S)},
            "get_employee": {"description": "An employee's record by id: name, title, manager id, office room.",
                             "parameters": _params(employee_id=_S)},
        }
        obs = (f"What is the office room number of the manager of {staff[target]['name']}'s manager? Use the "
               "directory tools and reply <answer>ROOM</answer> with the room number. One answer only: a wrong "
               "room ends the episode.")
        return obs, {"tools": sorted(self._tools)}

    def tool_find_employee(self, name: Any = None) -> str:
        if not isinstance(name, str) or not name.strip():
            raise ValueError("'name' must be a full name")
        wanted = " ".join(name.split()).lower()
        for emp, rec in sorted(self._state["staff"].items()):
            if rec["name"].lower() == wanted:
                return emp
        raise ValueError(f"nobody called {name!r}")

    def tool_get_employee(self, employee_id: Any = None) -> str:
        if not isinstance(employee_id, str):
            raise ValueError("'employee_id' must be a string such as E-123")
        rec = self._state["staff"].get(employee_id.strip().upper())
        if rec is None:
            raise ValueError(f"no employee {employee_id!r}")
        boss = rec["manager"] or "none"
        return f"{rec['name']}, {rec['title']}; manager: {boss}; office room {rec['room']}."

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict[str, Any]]:
        return super().step(_single_answer(action))

    def solution(self) -> list[Any]:
        name = self._state["staff"][self._target]["name"]
        return ([{"name": "find_employee", "arguments": {"name": name}}]
                + [{"name": "get_employee", "arguments": {"employee_id": e}} for e in self._chain]
                + [self._expected_answer])
