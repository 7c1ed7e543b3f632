# expect: feasible
"""Timesheet Lead: who logged the most hours this month? (a defect-zoo environment).

The environment: a tool-use task in this project's style. The agent lists the team, reads each
member's timesheet and answers with the name of the member with the most hours; a tie goes to the
name that comes first alphabetically.

The defect: solution() picks the maximum with ``max(names, key=hours)`` over the team in roster
order, which ignores the alphabetical tie-break, so it is wrong on the rare seeds where two members
tie for the most hours and the roster lists the later name first (2 of the 100 sanity seeds: 10
and 991564255).
Exploit: none for the agent; the feasibility certificate is wrong on rare seeds.
"""

import random

PEOPLE = ["Amara", "Bastian", "Chiara", "Dmitri", "Elena", "Farouk", "Greta", "Hyun", "Isidro", "Jana", "Kofi"]


class TimesheetLeadEnv(ToolUseBaseEnv):  # noqa: F821 -- provided by the loader
    """Arg-max of hours with an alphabetical tie-break."""

    def __init__(self, max_turns=12, **kwargs):
        super().__init__(max_turns=max_turns, **kwargs)

    def reset(self, seed=None):
        rng = random.Random(seed)
        roster = rng.sample(PEOPLE, 8)
        hours = {name: rng.randint(100, 160) for name in roster}
        self._state = {"roster": roster, "hours": hours}
        best = max(hours.values())
        self._expected_answer = min(name for name in roster if hours[name] == best)
        self._tools = {
            "list_team": {"description": "List the team members in roster order.",
                          "parameters": {"type": "object", "properties": {}, "required": []}},
            "get_timesheet": {"description": "Hours one member logged this month.",
                              "parameters": {"type": "object", "properties": {"name": {"type": "string"}},
                                             "required": ["name"]}},
        }
        return ("Who on the team logged the most hours this month? If several tie, answer with the name that "
                "comes first alphabetically. Answer as <answer>Name</answer>."), {}

    def tool_list_team(self):
        return ", ".join(self._state["roster"])

    def tool_get_timesheet(self, name=""):
        hours = self._state["hours"].get(str(name).strip().title())
        return f"{name}: {hours} hours" if hours is not None else f"No member {name!r}."

    def solution(self):
        roster, hours = self._state["roster"], self._state["hours"]
        calls = [{"name": "list_team", "arguments": {}}]
        calls += [{"name": "get_timesheet", "arguments": {"name": n}} for n in roster]
        return calls + [max(roster, key=lambda n: hours[n])]  # defect: no alphabetical tie-break
