# expect: valid
"""Calendar Assistant: a multi-instruction calendar task in the SPADE release's style (skill: Multi-Step Workflows).

Written the way the release's multi-turn tool-use prompt asks: ``self._user_messages`` (instruction
strings), ``self._message_criteria`` (lambdas over ``self._state``), ``self._current_msg = 0``, every
tool ending with ``return result + self._advance_if_done()``, ``_check_answer`` true only for "done"
after every instruction, reset returning ``(self._user_messages[0], {})``, and a one-string solution.

Looks suspicious: the instructions are strings with separate criteria (not this project's
{"message", "check"} dicts), _check_answer (not check_answer) decides the win, and solution() is one
string: a checker that only knows the dict style sees instructions that can never complete.
Why it is correct: every criterion is False at reset and becomes True only through its own
instruction's tool (the read instruction checks a flag that get_event sets), the values a criterion
needs are in the instruction or a tool result, and replaying the solution block by block completes
the instructions in order and wins every seed.
"""

import json
import random
from typing import Tuple

TITLES = ["Dentist", "Team sync", "Gym", "Piano lesson", "Car service", "Book club", "Vet visit"]
PEOPLE = ["sam", "noor", "ivo", "lena", "tariq", "mei"]


class CalendarAssistantEnv(ToolUseBaseEnv):  # noqa: F821 -- provided by the loader
    def __init__(self, max_turns=12, **kwargs):
        super().__init__(max_turns=max_turns, **kwargs)

    def reset(self, seed=None) -> Tuple[str, dict]:
        self.turn_count = 0
        self._call_history = []
        rng = random.Random(seed)
        events = {}
        for title in rng.sample(TITLES, 5):
            events[f"ev{rng.randint(100, 999)}"] = {"title": title, "day": rng.randint(1, 28), "hour": rng.randint(8, 18),
                                                    "reminder_min": None, "guests": []}
        self._event = rng.choice(sorted(events))
        self._title = events[self._event]["title"]
        self._new_day = rng.choice([d for d in range(1, 29) if d != events[self._event]["day"]])
        self._new_hour = rng.randint(8, 18)
        self._reminder = rng.choice([15, 30, 60, 120])
        self._guest = rng.choice(PEOPLE)
        self._state = {"events": events, "last_viewed": None}
        self._tools = {
            "list_events": {"description": "List the events this month (id and title)",
                            "parameters": {"type": "object", "properties": {}}},
            "get_event": {"description": "Show one event's details",
                          "parameters": {"type": "object", "properties": {"event_id": {"type": "string"}},
                                         "required": ["event_id"]}},
            "reschedule": {"description": "Move an event to another day and hour",
                           "parameters": {"type": "object", "properties": {
                               "event_id": {"type": "string"}, "day": {"type": "integer"}, "hour": {"type": "integer"}},
                               "required": ["event_id", "day", "hour"]}},
            "set_reminder": {"description": "Set a reminder some minutes before an event",
                             "parameters": {"type": "object", "properties": {
                                 "event_id": {"type": "string"},
                                 "minutes": {"type": "integer", "enum": [15, 30, 60, 120]}},
                                 "required": ["event_id", "minutes"]}},
            "invite": {"description": "Invite a person to an event",
                       "parameters": {"type": "object", "properties": {
                           "event_id": {"type": "string"}, "person": {"type": "string", "enum": PEOPLE}},
                           "required": ["event_id", "person"]}},
        }
        ev, day, hour, minutes, guest = self._event, self._new_day, self._new_hour, self._reminder, self._guest
        self._user_messages = [
            f"When is my {self._title} appointment this month?",
            f"Please move it to day {day} at {hour}:00.",
            f"Remind me {minutes} minutes before it.",
            f"And invite {guest} to it.",
        ]
        self._message_criteria = [
            lambda s: s["last_viewed"] == ev,
            lambda s: s["events"][ev]["day"] == day and s["events"][ev]["hour"] == hour,
            lambda s: s["events"][ev]["reminder_min"] == minutes,
            lambda s: guest in s["events"][ev]["guests"],
        ]
        self._current_msg = 0
        self._expected_answer = "done"
        return (self._user_messages[0], {})

    def _advance_if_done(self) -> str:
        if self._current_msg >= len(self._user_messages):
            return ""
        if self._message_criteria[self._current_msg](self._state):
            self._current_msg += 1
            if self._current_msg >= len(self._user_messages):
                return "\n\n[ALL STEPS COMPLETE] Submit <answer>done</answer>."
            next_msg = self._user_messages[self._current_msg]
            return f"\n\n[STEP {self._current_msg} COMPLETE — NEW INSTRUCTION] {next_msg}"
        return ""

    def _check_answer(self, answer: str) -> bool:
        return answer.strip().lower() == "done" and self._current_msg >= len(self._user_messages)

    def tool_list_events(self) -> str:
        listed = [{"event_id": e, "title": v["title"]} for e, v in sorted(self._state["events"].items())]
        return json.dumps(listed) + self._advance_if_done()

    def tool_get_event(self, event_id="") -> str:
        event = self._state["events"].get(event_id)
        if event is None:
            return f"Error: event {event_id} not found" + self._advance_if_done()
        self._state["last_viewed"] = event_id
        return json.dumps({"event_id": event_id, **event}) + self._advance_if_done()

    def tool_reschedule(self, event_id="", day=1, hour=9) -> str:
        event = self._state["events"].get(event_id)
        if event is None or not isinstance(day, int) or not 1 <= day <= 28 or not isinstance(hour, int) or not 8 <= hour <= 18:
            return "Error: unknown event or invalid day/hour" + self._advance_if_done()
        event["day"], event["hour"] = day, hour
        return f"Moved {event_id} to day {day} at {hour}:00" + self._advance_if_done()

    def tool_set_reminder(self, event_id="", minutes=30) -> str:
        event = self._state["events"].get(event_id)
        if event is None or minutes not in (15, 30, 60, 120):
            return "Error: unknown event or reminder" + self._advance_if_done()
        event["reminder_min"] = minutes
        return f"Reminder set {minutes} minutes before {event_id}" + self._advance_if_done()

    def tool_invite(self, event_id="", person="") -> str:
        event = self._state["events"].get(event_id)
        if event is None or person not in PEOPLE:
            return "Error: unknown event or person" + self._advance_if_done()
        if person not in event["guests"]:
            event["guests"].append(person)
        return f"Invited {person} to {event_id}" + self._advance_if_done()

    def solution(self) -> str:
        ev = self._event
        calls = [
            {"name": "list_events", "arguments": {}},
            {"name": "get_event", "arguments": {"event_id": ev}},
            {"name": "reschedule", "arguments": {"event_id": ev, "day": self._new_day, "hour": self._new_hour}},
            {"name": "set_reminder", "arguments": {"event_id": ev, "minutes": self._reminder}},
            {"name": "invite", "arguments": {"event_id": ev, "person": self._guest}},
        ]
        return "".join(f"<tool_call>{json.dumps(c)}</tool_call>" for c in calls) + "<answer>done</answer>"
