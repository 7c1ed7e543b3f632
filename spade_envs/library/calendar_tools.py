"""CalendarAssistantEnv: answer a scheduling question by picking the right few tools out of many.

Why this shape: the agent sees seven calendar and office tools, but each question needs only two or
three of them (e.g. find_free_slot + get_timezone + convert_time for "when is my first free hour, in my
colleague's local time?"). Weather, e-mail and holiday tools are plausible but useless distractors, so
the skill under test is Tool Selection: reading the question, choosing the tools whose outputs combine
into the answer, and passing each one correctly formatted arguments (dates, HH:MM times, UTC offsets).

ToolUseBaseEnv is not imported: the SPADE loader injects it into this module's namespace.
"""

from __future__ import annotations

import random
import re
from typing import Any

_COUNT = re.compile(r"(-?\d+)\s*(?:min|mins|minutes?|hours?|hrs?|events?|meetings?|days?|people)?", re.IGNORECASE)
"""A count answered alone or with its unit: the whole answer must be that, so a negated or hedged one is refused."""
_TIME = re.compile(r"(\d{1,2}):(\d{2})\s*(am|pm)?", re.IGNORECASE)
_TZ = re.compile(r"^(?:UTC|GMT)?\s*(?:([+-])(\d{1,2})(?::?(\d{2}))?)?$", re.IGNORECASE)
_DATE = re.compile(r"^2\d{3}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$")
_TITLES = ["Design review", "Budget sync", "Team standup", "Client call", "Hiring panel", "1:1 with Sam",
           "Roadmap planning", "Vendor demo", "Lunch and learn", "Quarterly review", "Security briefing"]
_PEOPLE = ["Amara", "Bruno", "Chen", "Dalia", "Emeka", "Farah", "Goran", "Hana"]
_S = {"type": "string"}


def _hhmm(minutes: int) -> str:
    return f"{minutes % 1440 // 60:02d}:{minutes % 60:02d}"


def _tz(offset: int) -> str:
    return f"UTC{'+' if offset >= 0 else '-'}{abs(offset) // 60:02d}:{abs(offset) % 60:02d}"


def _params(**props: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "properties": props, "required": sorted(props)}


class CalendarAssistantEnv(ToolUseBaseEnv):  # noqa: F821 -- injected by the SPADE loader
    """Tool-use env (Tool Selection): only some of the offered tools are relevant to each question."""

    def __init__(self, max_turns: int = 8, **kwargs: Any) -> None:
        super().__init__(max_turns=max_turns, **kwargs)

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        """Seed a week of meetings, a few remote contacts, and one question about them."""
        rng = random.Random(seed)
        me = rng.choice([-300, -240, 0, 60, 120])
        offsets = [o for o in (-480, -420, -300, -180, 0, 60, 180, 330, 480, 540, 600) if o != me]
        contacts = {name: rng.choice(offsets) for name in rng.sample(_PEOPLE, 4)}
        dates = [f"2025-06-{d:02d}" for d in sorted(rng.sample(range(2, 28), 4))]
        events: dict[str, list[tuple[int, int, str]]] = {}
        for date in dates:
            t, day = 480 + rng.choice([0, 30, 60, 90]), []
            for title in rng.sample(_TITLES, rng.randint(3, 5)):
                length = rng.choice([30, 45, 60, 90])
                if t + length > 1080:
                    break
                day.append((t, t + length, title))
                t += length + rng.choice([0, 15, 30, 60, 90])
            events[date] = day
        self._state = {"me": me, "contacts": contacts, "events": events, "outbox": []}
        self._tools = {
            "list_events": {"description": "List my events on a date (YYYY-MM-DD), in my local time.",
                            "parameters": _params(date=_S)},
            "find_free_slot": {"description": "Earliest free slot of a given length on a date, searched "
                               "between 09:00 and 17:00 my local time.",
                               "parameters": _params(date=_S, duration_minutes={"type": "integer"})},
            "get_timezone": {"description": "A contact's time zone as a UTC offset.",
                             "parameters": _params(name=_S)},
            "convert_time": {"description": "Convert a HH:MM time between UTC offsets (e.g. UTC+05:30).",
                             "parameters": _params(time=_S, from_tz=_S, to_tz=_S)},
            "get_weather": {"description": "Weather forecast for a city on a date.",
                            "parameters": _params(city=_S, date=_S)},
            "send_email": {"description": "Send an e-mail.",
                           "parameters": _params(to=_S, subject=_S, body=_S)},
            "list_holidays": {"description": "Public holidays of a country this month.",
                              "parameters": _params(country=_S)},
        }
        kind = rng.choice(["slot", "minutes", "title"])
        name, date = rng.choice(sorted(contacts)), rng.choice(dates)
        their = contacts[name]
        fits = [n for n in (30, 45, 60, 90) if self._free_slot(date, n) is not None]
        kind = kind if fits or kind != "slot" else "minutes"
        if kind == "slot":
            length = rng.choice(fits)
            start = self._free_slot(date, length) or 0
            question = (f"I want a {length}-minute call with {name} on {date}. At what time, in {name}'s "
                        f"local time, does my earliest free {length}-minute slot on that day start?")
            self._expected_answer = _hhmm(start - me + their)
            self._plan = [("find_free_slot", {"date": date, "duration_minutes": length}),
                          ("get_timezone", {"name": name}),
                          ("convert_time", {"time": _hhmm(start), "from_tz": _tz(me), "to_tz": _tz(their)})]
        elif kind == "minutes":
            other = rng.choice([d for d in dates if d != date])
            question = f"How many minutes of meetings do I have in total on {date} and {other}?"
            self._expected_answer = sum(e - s for d in (date, other) for s, e, _ in events[d])
            self._plan = [("list_events", {"date": date}), ("list_events", {"date": other})]
        else:
            start, _, title = rng.choice(events[date])
            question = (f"{name} says our meeting on {date} starts at {_hhmm(start - me + their)} in "
                        f"{name}'s local time. What is the title of that meeting on my calendar?")
            self._expected_answer = title
            self._plan = [("get_timezone", {"name": name}),
                          ("convert_time", {"time": _hhmm(start - me + their), "from_tz": _tz(their),
                                            "to_tz": _tz(me)}), ("list_events", {"date": date})]
        obs = (f"You are my scheduling assistant. My time zone is {_tz(me)}. {question} Answer with "
               f"<answer>...</answer> (times as 24-hour HH:MM).")
        return obs, {"question_kind": kind}

    def check_answer(self, answer: str) -> bool:
        """Times compare as clock times ('9:00', '09:00', '9:00 am'); titles and numbers as usual."""
        expected = str(self._expected_answer)
        if re.fullmatch(r"\d\d:\d\d", expected):
            m = _TIME.fullmatch(answer.strip().rstrip("."))  # the whole answer is one clock time
            if m is None:
                return False
            hour, suffix = int(m.group(1)), (m.group(3) or "").lower()
            hour = hour % 12 + (12 if suffix == "pm" else 0) if suffix else hour
            return f"{hour:02d}:{m.group(2)}" == expected
        if isinstance(self._expected_answer, int):  # "180 minutes" is fine; "not 180" is not 180
            m = _COUNT.fullmatch(answer.replace(",", "").strip().rstrip("."))
            return m is not None and int(m.group(1)) == self._expected_answer
        return super().check_answer(answer.strip().strip("\"'"))

    def _free_slot(self, date: str, length: int) -> int | None:
        busy = self._state["events"].get(date, [])
        for start in range(540, 1020 - length + 1, 15):
            if all(start + length <= s or start >= e for s, e, _ in busy):
                return start
        return None

    @staticmethod
    def _text(value: Any, name: str, pattern: re.Pattern[str] | None = None) -> str:
        if not isinstance(value, str) or not value.strip():
            raise ValueError(f"'{name}' must be a non-empty string")
        if pattern is not None and not pattern.match(value.strip()):
            raise ValueError(f"'{name}' is not in the expected format (got {value[:40]!r})")
        return value.strip()

    def tool_list_events(self, date: Any = None) -> str:
        day = self._state["events"].get(self._text(date, "date (YYYY-MM-DD)", _DATE), [])
        return "\n".join(f"{_hhmm(s)}-{_hhmm(e)} {t}" for s, e, t in day) or "No events on that date."

    def tool_find_free_slot(self, date: Any = None, duration_minutes: Any = None) -> str:
        date = self._text(date, "date (YYYY-MM-DD)", _DATE)
        if isinstance(duration_minutes, bool) or not isinstance(duration_minutes, int) or \
                not 5 <= duration_minutes <= 480:
            raise ValueError("'duration_minutes' must be an integer between 5 and 480")
        start = self._free_slot(date, duration_minutes)
        return "No free slot that long." if start is None else \
            f"Earliest free slot: {_hhmm(start)}-{_hhmm(start + duration_minutes)} (local time)."

    def tool_get_timezone(self, name: Any = None) -> str:
        name = self._text(name, "name").title()
        if name not in self._state["contacts"]:
            raise ValueError(f"unknown contact {name!r}; known: {', '.join(sorted(self._state['contacts']))}")
        return f"{name}: {_tz(self._state['contacts'][name])}"

    def tool_convert_time(self, time: Any = None, from_tz: Any = None, to_tz: Any = None) -> str:
        m = re.fullmatch(r"(\d{1,2}):(\d{2})", self._text(time, "time (HH:MM)"))
        zones = [_TZ.match(self._text(z, label)) for z, label in ((from_tz, "from_tz"), (to_tz, "to_tz"))]
        if not m or int(m.group(1)) > 23 or int(m.group(2)) > 59:
            raise ValueError("'time' must be HH:MM in 24-hour format")
        parts = [(z.group(1), int(z.group(2) or 0), int(z.group(3) or 0)) for z in zones if z]
        if len(parts) < 2 or any(h > 14 or mins > 59 for _, h, mins in parts):
            raise ValueError("time zones must look like UTC+05:30, UTC-04:00 or UTC")
        off = [(-1 if sign == "-" else 1) * (h * 60 + mins) for sign, h, mins in parts]
        total = int(m.group(1)) * 60 + int(m.group(2)) - off[0] + off[1]
        shift = {-1: " (previous day)", 1: " (next day)"}.get(total // 1440, "")
        return f"{_hhmm(total)}{shift}"

    def tool_get_weather(self, city: Any = None, date: Any = None) -> str:
        key = self._text(city, "city") + self._text(date, "date (YYYY-MM-DD)", _DATE)
        return f"Forecast: {['sunny', 'cloudy', 'light rain', 'windy'][sum(map(ord, key)) % 4]}."

    def tool_send_email(self, to: Any = None, subject: Any = None, body: Any = None) -> str:
        mail = (self._text(to, "to"), self._text(subject, "subject"), self._text(body, "body"))
        self._state["outbox"].append(mail)
        return "E-mail sent."

    def tool_list_holidays(self, country: Any = None) -> str:
        return f"No public holidays in {self._text(country, 'country')} on the dates in your calendar."

    def solution(self) -> list[Any]:
        """The two or three relevant tool calls, then the answer."""
        return [{"name": n, "arguments": dict(a)} for n, a in self._plan] + [self._expected_answer]
