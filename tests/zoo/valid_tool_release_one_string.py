# expect: valid
"""Flight Desk: book the cheapest flight and report the confirmation code (skill: API Orchestration).

Written the way the SPADE release's tool-use prompt asks: subclass ToolUseBaseEnv without importing
it, ``random.seed(seed)`` in reset, ``self._tools`` with JSON-schema parameters (one with an enum),
a distractor tool, and solution() as ONE string of <tool_call> blocks followed by <answer>.

Looks suspicious: solution() is a single string, not a list of actions, so a checker that sends it
as one action sees several tool calls at once (or none of them in order) and no win.
Why it is correct: replayed block by block, as the release means it (one <tool_call> per step, then
the <answer>), it wins every seed; the answer (a confirmation code) exists only after the booking is
made, so the tool calls cannot be skipped, and a wrong flight gives a different code.
"""

import json
import random
import string
from typing import Tuple

CITIES = ["AMS", "BCN", "CPH", "DUB", "FCO", "LIS", "MUC", "OSL", "PRG", "VIE"]


class FlightDeskEnv(ToolUseBaseEnv):  # noqa: F821 -- provided by the loader
    def reset(self, seed=None) -> Tuple[str, dict]:
        self.turn_count = 0
        self._call_history = []
        if seed is not None:
            random.seed(seed)
        self._origin, self._destination = random.sample(CITIES, 2)
        self._date = f"2025-{random.randint(1, 12):02d}-{random.randint(1, 28):02d}"
        flights = {}
        for _ in range(random.randint(8, 14)):
            flight_id = f"{random.choice(['KL', 'SK', 'IB', 'LH', 'TP'])}{random.randint(100, 999)}"
            origin, destination = (self._origin, self._destination) if random.random() < 0.5 else random.sample(CITIES, 2)
            flights[flight_id] = {"origin": origin, "destination": destination, "date": self._date,
                                  "price": random.randint(40, 600),
                                  "code": "".join(random.choice(string.ascii_uppercase) for _ in range(6))}
        cheapest_id = f"XQ{random.randint(100, 999)}"
        low = min([f["price"] for f in flights.values()] + [600]) - random.randint(1, 30)
        flights[cheapest_id] = {"origin": self._origin, "destination": self._destination, "date": self._date,
                                "price": max(low, 20), "code": "".join(random.choice(string.ascii_uppercase) for _ in range(6))}
        self._state = {"flights": flights, "bookings": {}}
        self._cheapest = min((f["price"], fid) for fid, f in flights.items()
                             if f["origin"] == self._origin and f["destination"] == self._destination)[1]
        self._expected_answer = flights[self._cheapest]["code"]
        self._tools = {
            "search_flights": {"description": "Search flights between two airports on a date",
                               "parameters": {"type": "object", "properties": {
                                   "origin": {"type": "string"}, "destination": {"type": "string"},
                                   "date": {"type": "string"}}, "required": ["origin", "destination", "date"]}},
            "book_flight": {"description": "Book a seat on a flight; returns a confirmation code",
                            "parameters": {"type": "object", "properties": {
                                "flight_id": {"type": "string"},
                                "cabin": {"type": "string", "enum": ["economy", "business"]}},
                                "required": ["flight_id", "cabin"]}},
            "cancel_booking": {"description": "Cancel a booking by confirmation code",
                               "parameters": {"type": "object", "properties": {"code": {"type": "string"}},
                                              "required": ["code"]}},
        }
        return (f"TASK: Book the cheapest economy seat from {self._origin} to {self._destination} on {self._date}. "
                "Submit the booking's confirmation code with <answer>CODE</answer>."), {}

    def tool_search_flights(self, origin="", destination="", date=""):
        found = [{"flight_id": fid, "price": f["price"]} for fid, f in sorted(self._state["flights"].items())
                 if f["origin"] == origin and f["destination"] == destination and f["date"] == date]
        return json.dumps(found) if found else "No flights found"

    def tool_book_flight(self, flight_id="", cabin="economy"):
        flight = self._state["flights"].get(flight_id)
        if flight is None:
            return f"Error: flight {flight_id} not found"
        if cabin not in ("economy", "business"):
            return "Error: unknown cabin"
        self._state["bookings"][flight["code"]] = {"flight_id": flight_id, "cabin": cabin}
        return f"Booked {flight_id} ({cabin}). Confirmation code: {flight['code']}"

    def tool_cancel_booking(self, code=""):
        if code not in self._state["bookings"]:
            return f"Error: no booking {code}"
        del self._state["bookings"][code]
        return f"Cancelled {code}"

    def solution(self) -> str:
        calls = [
            {"name": "search_flights", "arguments": {"origin": self._origin, "destination": self._destination,
                                                     "date": self._date}},
            {"name": "book_flight", "arguments": {"flight_id": self._cheapest, "cabin": "economy"}},
        ]
        return "".join(f"<tool_call>{json.dumps(c)}</tool_call>" for c in calls) + \
            f"<answer>{self._expected_answer}</answer>"
