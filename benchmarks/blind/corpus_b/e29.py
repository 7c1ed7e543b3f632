"""Offsite Rescheduler: clear a team member's calendar for the company offsite.

The offsite blocks one day. Every meeting the employee has on that day must be moved to the
following Friday at the same hour. The agent lists the meetings, moves the ones that clash, and
replies done.

ToolUseBaseEnv is not imported: the loader injects it into this module's namespace.
"""

from __future__ import annotations

import random
from typing import Any

_S = {"type": "string"}
_PEOPLE = ["dana", "eric", "fiona", "gabe", "holly", "isaac"]
_DAYS = ["monday", "tuesday", "wednesday", "thursday"]
_TOPICS = ["sync", "review", "planning", "1:1", "demo", "hiring panel", "roadmap"]


class OffsiteReschedulerEnv(ToolUseBaseEnv):  # noqa: F821
    """Tool-use state change: move clashing meetings."""

    def __init__(self, max_turns: int = 10, **kwargs: Any) -> None:
        super().__init__(max_turns=max_turns, **kwargs)

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        person = rng.choice(_PEOPLE)
        offsite = rng.choice(_DAYS)
        meetings: dict[str, dict[str, Any]] = {}
        for i in range(rng.randint(4, 7)):
            meetings[f"M{rng.randint(100, 999)}{i}"] = {"topic": rng.choice(_TOPICS),
                                                        "day": rng.choice(_DAYS), "hour": rng.randint(9, 16)}
        clash = sorted(m for m, v in meetings.items() if v["day"] == offsite)
        if not clash:
            first = sorted(meetings)[0]
            meetings[first]["day"] = offsite
            clash = [first]
        self._state = {"person": person, "offsite": offsite, "meetings": meetings, "clash": clash}
        self._expected_answer = "done"
        self._tools = {
            "list_meetings": {"description": "List an employee's meetings this week (id, topic, day, hour).",
                              "parameters": {"type": "object", "properties": {"employee": _S},
                                             "required": ["employee"]}},
            "reschedule": {"description": "Move a meeting to a day (monday-friday), keeping its hour.",
                           "parameters": {"type": "object", "properties": {"meeting_id": _S, "day": _S},
                                          "required": ["meeting_id", "day"]}},
        }
        obs = (f"The offsite is on {offsite.capitalize()}. Move every meeting {person.capitalize()} has on "
               f"{offsite.capitalize()} to Friday (same hour). Reply <answer>done</answer> when finished.")
        return obs, {"employee": person}

    def tool_list_meetings(self, employee: Any = None) -> str:
        if str(employee).strip().lower() != self._state["person"]:
            raise ValueError(f"no calendar for {employee!r}")
        return "\n".join(f"{m}: {v['topic']}, {v['day']} {v['hour']}:00"
                         for m, v in sorted(self._state["meetings"].items()))

    def tool_reschedule(self, meeting_id: Any = None, day: Any = None) -> str:
        if meeting_id not in self._state["meetings"]:
            raise ValueError(f"unknown meeting {meeting_id!r}")
        target = str(day).strip().lower()
        if target not in _DAYS + ["friday"]:
            raise ValueError("day must be monday-friday")
        self._state["meetings"][meeting_id]["day"] = target
        return f"{meeting_id} moved to {target}."

    def solution(self) -> list[Any]:
        calls: list[Any] = [{"name": "list_meetings", "arguments": {"employee": self._state["person"]}}]
        calls += [{"name": "reschedule", "arguments": {"meeting_id": m, "day": "friday"}}
                  for m in self._state["clash"]]
        return calls + ["done"]
