"""RoomBookingEnv: handle an office manager's room requests one at a time (tool use, multi-step workflow).

The office has four meeting rooms of different sizes and a week of existing bookings. Requests arrive
one by one: first book a room for a meeting (the smallest room that is big enough AND free at that
hour), then cancel one of the manager's existing bookings. Each request is checked against the booking
system's state, not against the agent's words; the next request appears once the current one holds.

ToolUseBaseEnv is not imported: the SPADE loader injects it into this module's namespace.
"""

from __future__ import annotations

import random
from typing import Any

_ROOMS = {"Juniper": 4, "Cedar": 6, "Maple": 10, "Redwood": 16}
_DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"]
_TOPICS = ["budget review", "design sync", "hiring panel", "vendor call", "quarterly planning", "retro"]
_STR = {"type": "string"}
_INT = {"type": "integer"}


class RoomBookingEnv(ToolUseBaseEnv):  # noqa: F821 -- injected by the loader
    """Tool-use multi-instruction env: book the right room, then cancel a booking."""

    def __init__(self, max_turns: int = 12, **kwargs: Any) -> None:
        super().__init__(max_turns=max_turns, **kwargs)

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        rng = random.Random(seed)
        bookings: dict[str, dict[str, Any]] = {}
        ids = iter(rng.sample(range(1000, 9999), 90))
        for room in _ROOMS:
            for day in _DAYS:
                for hour in rng.sample(range(9, 17), rng.randint(1, 4)):
                    bookings[f"BK{next(ids)}"] = {"room": room, "day": day, "start": hour, "end": hour + 1,
                                                  "title": rng.choice(_TOPICS), "owner": "team"}
        own_id = f"BK{next(ids)}"
        own_day, own_hour = rng.choice(_DAYS), rng.randint(9, 16)
        own_room = rng.choice(sorted(_ROOMS))
        for key in [k for k, b in bookings.items() if b["room"] == own_room and b["day"] == own_day and b["start"] == own_hour]:
            del bookings[key]
        bookings[own_id] = {"room": own_room, "day": own_day, "start": own_hour, "end": own_hour + 1,
                            "title": "one-to-one", "owner": "manager"}
        free: list[str] = []
        while not free:
            day, hour, people = rng.choice(_DAYS), rng.randint(9, 16), rng.randint(3, 12)
            fitting = [r for r in sorted(_ROOMS, key=_ROOMS.get) if _ROOMS[r] >= people]
            free = [r for r in fitting if not self._clash(bookings, r, day, hour, hour + 1)]
        room, title = free[0], f"{rng.choice(_TOPICS)} with {rng.choice(['Acme', 'Borealis', 'Kestrel', 'Nimbus'])}"
        self._state = {"bookings": bookings, "next_id": 10000}
        self._tools = {
            "list_rooms": {"description": "List meeting rooms and how many people each seats.",
                           "parameters": {"type": "object", "properties": {}, "required": []}},
            "get_bookings": {"description": "List a room's bookings on a day (id, start hour, end hour, title, owner).",
                             "parameters": {"type": "object", "properties": {"room": _STR, "day": _STR}, "required": ["room", "day"]}},
            "book_room": {"description": "Book a room on a day from start hour to end hour (24h clock, whole hours).",
                          "parameters": {"type": "object", "properties": {"room": _STR, "day": _STR, "start": _INT, "end": _INT, "title": _STR},
                                         "required": ["room", "day", "start", "end", "title"]}},
            "cancel_booking": {"description": "Cancel a booking by id.",
                               "parameters": {"type": "object", "properties": {"booking_id": _STR}, "required": ["booking_id"]}},
        }
        want = (room, day, hour, hour + 1, title.lower())
        self._user_messages = [
            {"message": f"Please book the smallest room that seats at least {people} people and is free on {day} "
                        f"from {hour}:00 to {hour + 1}:00, titled '{title}'.",
             "check": lambda st, w=want: any((b["room"], b["day"], b["start"], b["end"], b["title"].lower()) == w
                                             for b in st["bookings"].values())},
            {"message": f"Also, cancel my one-to-one on {own_day} at {own_hour}:00 in {own_room}; it is no longer needed.",
             "check": lambda st, k=own_id: k not in st["bookings"]},
        ]
        self._expected_answer = "done"
        self._plan = [{"name": "book_room", "arguments": {"room": room, "day": day, "start": hour, "end": hour + 1, "title": title}},
                      {"name": "cancel_booking", "arguments": {"booking_id": own_id}}]
        text = ("You are the office assistant with access to the room booking system. Handle each request "
                "with the tools; when everything is done, reply <answer>done</answer>.")
        return text, {"requests": 2}

    @staticmethod
    def _clash(bookings: dict[str, dict[str, Any]], room: str, day: str, start: int, end: int) -> bool:
        return any(b["room"] == room and b["day"] == day and b["start"] < end and start < b["end"] for b in bookings.values())

    @staticmethod
    def _pick(value: Any, options: Any, name: str) -> str:
        for option in options:
            if isinstance(value, str) and value.strip().lower() == option.lower():
                return option
        raise ValueError(f"'{name}' must be one of {', '.join(options)}")

    def tool_list_rooms(self) -> str:
        return "\n".join(f"{r}: seats {n}" for r, n in _ROOMS.items())

    def tool_get_bookings(self, room: Any = None, day: Any = None) -> str:
        room, day = self._pick(room, _ROOMS, "room"), self._pick(day, _DAYS, "day")
        rows = sorted((b["start"], k, b) for k, b in self._state["bookings"].items() if b["room"] == room and b["day"] == day)
        if not rows:
            return f"{room} has no bookings on {day}."
        return "\n".join(f"{k}: {b['start']}:00-{b['end']}:00 '{b['title']}' ({b['owner']})" for _, k, b in rows)

    def tool_book_room(self, room: Any = None, day: Any = None, start: Any = None, end: Any = None, title: Any = None) -> str:
        room, day = self._pick(room, _ROOMS, "room"), self._pick(day, _DAYS, "day")
        if any(isinstance(v, bool) or not isinstance(v, int) for v in (start, end)) or not 8 <= start < end <= 19:
            raise ValueError("'start' and 'end' must be whole hours with 8 <= start < end <= 19")
        if not isinstance(title, str) or not title.strip():
            raise ValueError("'title' must be a non-empty string")
        if self._clash(self._state["bookings"], room, day, start, end):
            raise ValueError(f"{room} is already booked on {day} in that slot")
        key = f"BK{self._state['next_id']}"
        self._state["next_id"] += 1
        self._state["bookings"][key] = {"room": room, "day": day, "start": start, "end": end,
                                        "title": title.strip(), "owner": "manager"}
        return f"Booked {room} on {day} {start}:00-{end}:00 as {key}."

    def tool_cancel_booking(self, booking_id: Any = None) -> str:
        key = str(booking_id).strip().upper()
        if key not in self._state["bookings"]:
            raise ValueError(f"no booking {booking_id!r}")
        del self._state["bookings"][key]
        return f"Cancelled {key}."

    def solution(self) -> list[Any]:
        return [dict(call) for call in self._plan] + ["done"]
