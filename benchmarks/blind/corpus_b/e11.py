"""Calendar Concierge: an assistant edits a user's calendar through tools, one request at a time.

Requests arrive one by one (cancel a meeting, book a new one, move another) and each is checked
against the calendar itself. Event ids must be looked up first.

ToolUseBaseEnv is not imported: the loader injects it into this module's namespace.
"""

from __future__ import annotations

import random
from typing import Any

_S = {"type": "string"}
_I = {"type": "integer"}
_TITLES = ["standup", "design review", "1:1 with Sam", "budget sync", "vendor call", "interview",
           "lunch and learn", "retro", "planning", "customer demo"]
_DAYS = ["2024-06-03", "2024-06-04", "2024-06-05", "2024-06-06", "2024-06-07"]


def _params(required: list[str], **props: Any) -> dict[str, Any]:
    return {"type": "object", "properties": props, "required": required}


class CalendarConciergeEnv(ToolUseBaseEnv):  # noqa: F821
    """Multi-instruction calendar editing."""

    def __init__(self, max_turns: int = 12, **kwargs: Any) -> None:
        super().__init__(max_turns=max_turns, **kwargs)

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        titles = rng.sample(_TITLES, 6)
        events: dict[str, dict[str, Any]] = {}
        for i, title in enumerate(titles):
            eid = f"EV{rng.randint(100, 999)}{i}"
            events[eid] = {"title": title, "date": rng.choice(_DAYS), "start": rng.randint(9, 16)}
        self._state = {"events": events, "next": 1}
        ids = list(events)
        cancel_id, move_id = ids[0], ids[1]
        new_title = rng.choice(["offsite prep", "hiring sync", "board dry run"])
        new_day, new_hour = rng.choice(_DAYS), rng.randint(9, 16)
        move_hour = rng.choice([h for h in range(9, 17) if h != events[move_id]["start"]])
        cancel, move = events[cancel_id], events[move_id]
        self._user_messages = [
            {"message": f"Please cancel my '{cancel['title']}' on {cancel['date']}.",
             "check": lambda st, e=cancel_id: e not in st["events"]},
            {"message": f"Book '{new_title}' on {new_day} starting at {new_hour}:00.",
             "check": lambda st, t=new_title, d=new_day, h=new_hour: any(
                 ev["title"] == t and ev["date"] == d and ev["start"] == h for ev in st["events"].values())},
            {"message": f"Move '{move['title']}' to start at {move_hour}:00, same day.",
             "check": lambda st, e=move_id, h=move_hour, d=move["date"]: e in st["events"]
             and st["events"][e]["start"] == h and st["events"][e]["date"] == d},
        ]
        self._plan = [
            {"name": "delete_event", "arguments": {"event_id": cancel_id}},
            {"name": "create_event", "arguments": {"title": new_title, "date": new_day, "start": new_hour}},
            {"name": "move_event", "arguments": {"event_id": move_id, "date": move["date"], "start": move_hour}},
        ]
        self._expected_answer = "done"
        self._tools = {
            "list_events": {"description": "List events on a date (YYYY-MM-DD): id, title, start hour.",
                            "parameters": _params(["date"], date=_S)},
            "create_event": {"description": "Create an event with a title, date and start hour (9-17).",
                             "parameters": _params(["title", "date", "start"], title=_S, date=_S, start=_I)},
            "delete_event": {"description": "Delete an event by id.", "parameters": _params(["event_id"], event_id=_S)},
            "move_event": {"description": "Move an event to a date and start hour.",
                           "parameters": _params(["event_id", "date", "start"], event_id=_S, date=_S, start=_I)},
        }
        obs = ("You manage the user's calendar for the week of 2024-06-03 to 2024-06-07 with tools. Handle each "
               "request; reply <answer>done</answer> when all are finished.")
        return obs, {"requests": 3}

    @staticmethod
    def _hour(value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not 9 <= value <= 17:
            raise ValueError("start must be an integer hour between 9 and 17")
        return value

    @staticmethod
    def _date(value: Any) -> str:
        if value not in _DAYS:
            raise ValueError(f"date must be one of {', '.join(_DAYS)}")
        return value

    def tool_list_events(self, date: Any = None) -> str:
        day = self._date(date)
        rows = [f"{eid}: {ev['title']} at {ev['start']}:00" for eid, ev in sorted(self._state["events"].items())
                if ev["date"] == day]
        return "\n".join(rows) or "No events."

    def tool_create_event(self, title: Any = None, date: Any = None, start: Any = None) -> str:
        if not isinstance(title, str) or not title.strip():
            raise ValueError("title must be a non-empty string")
        eid = f"NEW{self._state['next']}"
        self._state["next"] += 1
        self._state["events"][eid] = {"title": title.strip(), "date": self._date(date), "start": self._hour(start)}
        return f"Created {eid}."

    def tool_delete_event(self, event_id: Any = None) -> str:
        if event_id not in self._state["events"]:
            raise ValueError(f"no event {event_id!r}")
        del self._state["events"][event_id]
        return "Deleted."

    def tool_move_event(self, event_id: Any = None, date: Any = None, start: Any = None) -> str:
        if event_id not in self._state["events"]:
            raise ValueError(f"no event {event_id!r}")
        day, hour = self._date(date), self._hour(start)
        self._state["events"][event_id].update(date=day, start=hour)
        return f"Moved {event_id} to {day} {hour}:00."

    def solution(self) -> list[Any]:
        return [dict(c, arguments=dict(c["arguments"])) for c in self._plan] + ["done"]
