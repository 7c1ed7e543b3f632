"""Fare desk: find the cheapest itinerary between two airports from itinerary and fare tools.

ToolUseBaseEnv is injected by the loader.
"""

from __future__ import annotations

import random
from typing import Any

_AIRPORTS = ["AMS", "BCN", "CPH", "DUB", "EDI", "FCO", "GVA", "HEL", "IST", "LIS", "MAD", "OSL", "PRG", "VIE"]


class FareDeskEnv(ToolUseBaseEnv):  # noqa: F821
    def __init__(self, max_turns: int = 10, **kwargs: Any) -> None:
        super().__init__(max_turns=max_turns, **kwargs)

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        rng = random.Random(seed)
        origin, dest = rng.sample(_AIRPORTS, 2)
        hubs = [a for a in _AIRPORTS if a not in (origin, dest)]
        while True:
            fares: dict[str, int] = {}
            itineraries: dict[str, list[str]] = {}
            codes = rng.sample(range(1000, 10000), rng.randint(8, 12))
            for code in codes:
                legs = []
                stops = [origin] + rng.sample(hubs, rng.randint(0, 2)) + [dest]
                for a, b in zip(stops, stops[1:]):
                    flight = f"{a[:2]}{rng.randint(100, 999)}"
                    while flight in fares:
                        flight = f"{a[:2]}{rng.randint(100, 999)}"
                    fares[flight] = rng.randint(40, 420)
                    legs.append(f"{flight} {a}-{b}")
                itineraries[f"ITN-{code}"] = legs
            totals = sorted((sum(fares[leg.split()[0]] for leg in legs), c) for c, legs in itineraries.items())
            if totals[0][0] < totals[1][0]:
                break
        self._state = {"origin": origin, "dest": dest, "fares": fares, "itineraries": itineraries,
                       "best": totals[0][1]}
        self._expected_answer = totals[0][1]
        self._tools = {
            "list_itineraries": {"description": "Itineraries (code and legs) between two airports.",
                                 "parameters": {"type": "object", "properties": {
                                     "origin": {"type": "string"}, "destination": {"type": "string"}},
                                     "required": ["origin", "destination"]}},
            "get_fares": {"description": "Current fare (EUR) of each listed flight number.",
                          "parameters": {"type": "object", "properties": {
                              "flight_numbers": {"type": "array", "items": {"type": "string"}}},
                              "required": ["flight_numbers"]}},
            "check_itinerary": {"description": "Check that an itinerary code can still be booked.",
                                "parameters": {"type": "object", "properties": {"code": {"type": "string"}},
                                               "required": ["code"]}},
        }
        obs = (f"A traveller wants the cheapest itinerary from {origin} to {dest} (total of all leg fares). "
               "Use the tools and reply with the itinerary code, e.g. <answer>ITN-1234</answer>.")
        return obs, {"origin": origin, "destination": dest}

    def tool_list_itineraries(self, origin: Any = None, destination: Any = None) -> str:
        if (str(origin).strip().upper(), str(destination).strip().upper()) != (self._state["origin"],
                                                                            self._state["dest"]):
            raise ValueError("no itineraries for that city pair")
        return "\n".join(f"{c}: " + " / ".join(legs) for c, legs in self._state["itineraries"].items())

    def tool_get_fares(self, flight_numbers: Any = None) -> str:
        if not isinstance(flight_numbers, list) or not flight_numbers:
            raise ValueError("flight_numbers must be a non-empty list")
        lines = []
        for f in flight_numbers[:40]:
            key = str(f).strip().upper()
            lines.append(f"{key}: {self._state['fares'][key]} EUR" if key in self._state["fares"]
                         else f"{key}: unknown flight")
        return "\n".join(lines)

    def tool_check_itinerary(self, code: Any = None) -> str:
        key = str(code).strip().upper()
        if key not in self._state["itineraries"]:
            raise ValueError(f"unknown itinerary {code!r}")
        best = "yes" if key == self._state["best"] else "no"
        return f"{key}: bookable, seats available. Lowest fare on this route: {best}."

    def solution(self) -> list[Any]:
        flights = [leg.split()[0] for legs in self._state["itineraries"].values() for leg in legs]
        return [{"name": "list_itineraries", "arguments": {"origin": self._state["origin"],
                                                           "destination": self._state["dest"]}},
                {"name": "get_fares", "arguments": {"flight_numbers": flights}},
                self._expected_answer]
