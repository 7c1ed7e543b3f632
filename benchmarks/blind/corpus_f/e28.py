"""TripDeskEnv: book the right flight out of a list of candidates, then add bags (tool use, workflow).

The flight search returns every flight of the day (time, stops, price); the traveller's request has
two conditions (non-stop, leaving after a given hour) and asks for the cheapest that meets both, so
the agent has to filter the candidates, not take the first or the cheapest row. The second request
adds checked bags to that booking. A wrong booking can be cancelled and redone. Requests are checked
against the booking system's state, then <answer>done</answer> completes the task.

ToolUseBaseEnv is not imported: the loader injects it into this module's namespace.
"""

from __future__ import annotations

import random
from typing import Any

_CITIES = ["Lisbon", "Madrid", "Vienna", "Prague", "Dublin", "Athens", "Oslo", "Zurich", "Warsaw", "Milan"]
_AIRLINES = ["AZ", "LX", "OS", "TP", "IB", "EI", "SK", "LO"]
_S = {"type": "string"}


def _params(**props: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "properties": props, "required": sorted(props)}


class TripDeskEnv(ToolUseBaseEnv):  # noqa: F821 -- injected by the loader
    """Two revealed requests: book the right flight, then add bags."""

    def __init__(self, max_turns: int = 10, **kwargs: Any) -> None:
        super().__init__(max_turns=max_turns, **kwargs)

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        rng = random.Random(seed)
        origin, destination = rng.sample(_CITIES, 2)
        date = f"2025-{rng.randint(3, 11):02d}-{rng.randint(1, 28):02d}"
        after = rng.choice([9, 10, 11, 12, 13])
        passenger = rng.choice(["K. Osei", "L. Novak", "M. Rossi", "J. Ahmed", "S. Lindqvist", "P. Costa"])
        while True:
            flights = []
            for _ in range(7):
                flights.append({"id": f"{rng.choice(_AIRLINES)}{rng.randint(100, 999)}",
                                "departs": rng.randint(6 * 4, 21 * 4) * 15,
                                "stops": rng.choice([0, 0, 1, 1, 2]),
                                "price": rng.randint(60, 420)})
            ids = {f["id"] for f in flights}
            prices = {f["price"] for f in flights}
            fits = sorted((f for f in flights if f["stops"] == 0 and f["departs"] > after * 60), key=lambda f: f["price"])
            cheapest_any = min(flights, key=lambda f: f["price"])
            if len(ids) == 7 and len(prices) == 7 and fits and cheapest_any is not fits[0]:
                break
        target, bags = fits[0]["id"], rng.randint(1, 3)
        self._state = {"flights": flights, "bookings": {}, "next": rng.randint(100, 900), "route": (origin, destination, date)}
        self._tools = {
            "search_flights": {"description": "All flights of a day between two cities: id, departure (local time), "
                                              "number of stops and price in EUR.",
                               "parameters": _params(origin=_S, destination=_S, date=_S)},
            "book_flight": {"description": "Book a seat on a flight for a passenger; returns a booking id.",
                            "parameters": _params(flight_id=_S, passenger=_S)},
            "cancel_booking": {"description": "Cancel a booking.", "parameters": _params(booking_id=_S)},
            "add_bags": {"description": "Set the number of checked bags on a booking (0-3).",
                         "parameters": _params(booking_id=_S, count={"type": "integer"})},
            "get_booking": {"description": "Show a booking.", "parameters": _params(booking_id=_S)},
        }

        def booked(state: dict[str, Any]) -> list[dict[str, Any]]:
            return [b for b in state["bookings"].values() if b["status"] == "active"]

        self._user_messages = [
            {"message": f"Please book {passenger} on the cheapest non-stop flight from {origin} to {destination} on "
                        f"{date} that leaves after {after}:00.",
             "check": lambda st: [b["flight"] for b in booked(st)] == [target]},
            {"message": f"Thanks. {passenger.split()[-1]} will check {bags} bag{'s' if bags > 1 else ''}; add them "
                        "to that booking, please.",
             "check": lambda st: [(b["flight"], b["bags"]) for b in booked(st)] == [(target, bags)]},
        ]
        self._expected_answer = "done"
        self._plan = (origin, destination, date, target, passenger, bags)
        text = ("You are a travel desk agent with booking tools. Carry out each request of the traveller; when "
                "all are done, reply <answer>done</answer>.")
        return text, {"requests": 2}

    def _booking(self, booking_id: Any) -> dict[str, Any]:
        booking = self._state["bookings"].get(str(booking_id).strip().upper())
        if booking is None:
            raise ValueError(f"no booking {booking_id!r}")
        return booking

    def tool_search_flights(self, origin: Any = None, destination: Any = None, date: Any = None) -> str:
        want = self._state["route"]
        given = (str(origin).strip().title(), str(destination).strip().title(), str(date).strip())
        if given != want:
            return "No flights found for that route and date."
        return "\n".join(f"{f['id']}: departs {f['departs'] // 60:02d}:{f['departs'] % 60:02d}, "
                         f"{'non-stop' if f['stops'] == 0 else str(f['stops']) + ' stop(s)'}, EUR {f['price']}"
                         for f in sorted(self._state["flights"], key=lambda f: f["departs"]))

    def tool_book_flight(self, flight_id: Any = None, passenger: Any = None) -> str:
        code = str(flight_id).strip().upper()
        if code not in {f["id"] for f in self._state["flights"]}:
            raise ValueError(f"unknown flight {flight_id!r}")
        if not isinstance(passenger, str) or not passenger.strip():
            raise ValueError("passenger name required")
        booking_id = f"BK{self._state['next']}"
        self._state["next"] += 1
        self._state["bookings"][booking_id] = {"flight": code, "passenger": passenger.strip(), "bags": 0,
                                               "status": "active"}
        return f"Booked {passenger.strip()} on {code}: booking {booking_id}."

    def tool_cancel_booking(self, booking_id: Any = None) -> str:
        self._booking(booking_id)["status"] = "cancelled"
        return "Booking cancelled."

    def tool_add_bags(self, booking_id: Any = None, count: Any = None) -> str:
        booking = self._booking(booking_id)
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= 3:
            raise ValueError("count must be an integer from 0 to 3")
        booking["bags"] = count
        return f"Booking now has {count} checked bag(s)."

    def tool_get_booking(self, booking_id: Any = None) -> str:
        b = self._booking(booking_id)
        return f"{b['passenger']} on {b['flight']}, {b['bags']} bag(s), {b['status']}."

    def solution(self) -> list[Any]:
        origin, destination, date, target, passenger, bags = self._plan
        booking_id = f"BK{self._state['next']}"
        return [{"name": "search_flights", "arguments": {"origin": origin, "destination": destination, "date": date}},
                {"name": "book_flight", "arguments": {"flight_id": target, "passenger": passenger}},
                {"name": "add_bags", "arguments": {"booking_id": booking_id, "count": bags}},
                "done"]
