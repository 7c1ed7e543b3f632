"""Travel agent (tool use): book-ahead research for the cheapest direct flight."""

import random

_AIRPORTS = ["OSL", "LIS", "VIE", "DUB", "ATH", "PRG", "BCN", "HEL", "WAW", "ZRH"]
_CARRIERS = ["NX", "QF", "LR", "TV", "KP", "SB"]


class FlightFinderEnv(ToolUseBaseEnv):  # noqa: F821
    def __init__(self, max_turns=8, **kwargs):
        super().__init__(max_turns=max_turns, **kwargs)

    def reset(self, seed=None):
        rng = random.Random(seed)
        origin, dest = rng.sample(_AIRPORTS, 2)
        day = rng.randint(3, 27)
        flights = []
        prices = rng.sample(range(79, 640), 7)
        for i, price in enumerate(prices):
            flights.append({"flight": f"{rng.choice(_CARRIERS)}-{rng.randint(100, 989) + i}",
                            "depart": f"{rng.randint(6, 21):02d}:{rng.choice(['00', '15', '30', '45'])}",
                            "stops": rng.choice([0, 0, 1, 1, 2]), "price": price})
        if not any(f["stops"] == 0 for f in flights):
            flights[0]["stops"] = 0
        direct = [f for f in flights if f["stops"] == 0]
        cheapest = min(direct, key=lambda f: f["price"])
        self._state = {"origin": origin, "dest": dest, "day": day, "flights": flights}
        self._expected_answer = cheapest["price"]
        s = {"type": "string"}
        self._tools = {
            "search_flights": {"description": "Flights between two airports on a day of May (1-31).",
                               "parameters": {"type": "object", "properties": {
                                   "origin": s, "destination": s, "day": {"type": "integer"}},
                                   "required": ["origin", "destination", "day"]}},
            "fare_rules": {"description": "Baggage and change rules of a flight.",
                           "parameters": {"type": "object", "properties": {"flight": s}, "required": ["flight"]}},
        }
        task = (f"A customer wants to fly from {origin} to {dest} on May {day}, and only direct (non-stop) "
                "flights will do. Find the cheapest direct flight and reply with its flight number, e.g. "
                "<answer>AB-123</answer>.")
        return task, {"origin": origin, "destination": dest}

    def tool_search_flights(self, origin=None, destination=None, day=None):
        st = self._state
        if str(origin).upper() != st["origin"] or str(destination).upper() != st["dest"] or day != st["day"]:
            return "No flights found for that route and day."
        return "\n".join(f"{f['flight']} dep {f['depart']}, {f['stops']} stop(s), EUR {f['price']}"
                         for f in st["flights"])

    def tool_fare_rules(self, flight=None):
        if not any(f["flight"] == str(flight).upper() for f in self._state["flights"]):
            raise ValueError("unknown flight")
        return "1 cabin bag included; changes allowed for a fee."

    def solution(self):
        st = self._state
        return [{"name": "search_flights", "arguments": {"origin": st["origin"], "destination": st["dest"],
                                                          "day": st["day"]}}, self._expected_answer]
