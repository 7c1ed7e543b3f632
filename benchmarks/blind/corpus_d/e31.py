"""Weather desk with many tools: how much warmer (in Fahrenheit degrees) one city is than another.

ToolUseBaseEnv is injected by the loader. Eight tools are offered; only two or three are needed.
"""

from __future__ import annotations

import random
from typing import Any

_CITIES = ["Accra", "Bergen", "Cusco", "Durban", "Fukuoka", "Galway", "Hanoi", "Irkutsk", "Jaipur", "Kyoto",
           "Leeds", "Malaga", "Nairobi", "Oaxaca", "Perth", "Quebec", "Recife", "Tromso"]


def _obj(**props: Any) -> dict[str, Any]:
    return {"type": "object", "properties": props, "required": sorted(props)}


class WeatherDeskEnv(ToolUseBaseEnv):  # noqa: F821
    def __init__(self, max_turns: int = 10, **kwargs: Any) -> None:
        super().__init__(max_turns=max_turns, **kwargs)

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        rng = random.Random(seed)
        cities = sorted(rng.sample(_CITIES, 8))
        while True:
            temps = {c: round(rng.uniform(-15, 38), 1) for c in cities}
            warm, cold = rng.sample(cities, 2)
            if temps[warm] - temps[cold] >= 2.0:
                break
        self._state = {
            "temps": temps,
            "humidity": {c: rng.randint(20, 99) for c in cities},
            "wind": {c: rng.randint(0, 60) for c in cities},
            "aqi": {c: rng.randint(5, 180) for c in cities},
            "forecast": {c: [round(temps[c] + rng.uniform(-6, 6), 1) for _ in range(3)] for c in cities},
            "warm": warm, "cold": cold,
        }
        self._expected_answer = f"{(temps[warm] - temps[cold]) * 9 / 5:.1f}"
        s = {"type": "string"}
        self._tools = {
            "list_cities": {"description": "Cities covered by the weather service.",
                            "parameters": {"type": "object", "properties": {}}},
            "get_current_temperature": {"description": "Current air temperature of a city, in Celsius.",
                                        "parameters": _obj(city=s)},
            "get_forecast": {"description": "Forecast high (Celsius) for a city, 1-3 days ahead.",
                             "parameters": _obj(city=s, days_ahead={"type": "integer"})},
            "get_humidity": {"description": "Relative humidity (%) in a city now.", "parameters": _obj(city=s)},
            "get_wind": {"description": "Wind speed (km/h) in a city now.", "parameters": _obj(city=s)},
            "get_air_quality": {"description": "Air quality index of a city now.", "parameters": _obj(city=s)},
            "convert_temperature": {"description": "Convert an absolute temperature between C and F.",
                                    "parameters": _obj(value={"type": "number"}, from_unit=s, to_unit=s)},
            "get_station_info": {"description": "Name and elevation of a city's weather station.",
                                 "parameters": _obj(city=s)},
        }
        obs = (f"A traveller asks: right now, how many degrees Fahrenheit warmer is {warm} than {cold}? That is "
               f"(temperature in {warm}) minus (temperature in {cold}), expressed as a Fahrenheit difference, to "
               "one decimal; answers within 0.1 are accepted. Use the tools, then reply <answer>number</answer>.")
        return obs, {"cities": len(cities)}

    def _city(self, city: Any) -> str:
        key = str(city).strip().title()
        if key not in self._state["temps"]:
            raise ValueError(f"unknown city {city!r}; see list_cities")
        return key

    def tool_list_cities(self) -> str:
        return ", ".join(sorted(self._state["temps"]))

    def tool_get_current_temperature(self, city: Any = None) -> str:
        key = self._city(city)
        return f"{key}: {self._state['temps'][key]:.1f} C"

    def tool_get_forecast(self, city: Any = None, days_ahead: Any = None) -> str:
        key = self._city(city)
        if days_ahead not in (1, 2, 3) or isinstance(days_ahead, bool):
            raise ValueError("days_ahead must be 1, 2 or 3")
        return f"{key}, day +{days_ahead}: high {self._state['forecast'][key][days_ahead - 1]:.1f} C"

    def tool_get_humidity(self, city: Any = None) -> str:
        key = self._city(city)
        return f"{key}: {self._state['humidity'][key]}% relative humidity"

    def tool_get_wind(self, city: Any = None) -> str:
        key = self._city(city)
        return f"{key}: wind {self._state['wind'][key]} km/h"

    def tool_get_air_quality(self, city: Any = None) -> str:
        key = self._city(city)
        return f"{key}: AQI {self._state['aqi'][key]}"

    def tool_get_station_info(self, city: Any = None) -> str:
        key = self._city(city)
        return f"{key} central station, elevation {len(key) * 37} m"

    def tool_convert_temperature(self, value: Any = None, from_unit: Any = None, to_unit: Any = None) -> str:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or abs(value) > 1000:
            raise ValueError("value must be a number between -1000 and 1000")
        units = (str(from_unit).strip().upper()[:1], str(to_unit).strip().upper()[:1])
        if units == ("C", "F"):
            return f"{value * 9 / 5 + 32:.2f} F"
        if units == ("F", "C"):
            return f"{(value - 32) * 5 / 9:.2f} C"
        if units[0] == units[1] and units[0] in "CF":
            return f"{value:.2f} {units[0]}"
        raise ValueError("units must be C or F")

    def check_answer(self, answer: str) -> bool:
        try:
            value = float(str(answer).strip().replace("°", "").rstrip("Ff").strip())
        except ValueError:
            return False
        return abs(value - float(self._expected_answer)) <= 0.1 + 1e-9

    def solution(self) -> list[Any]:
        return [{"name": "get_current_temperature", "arguments": {"city": self._state["warm"]}},
                {"name": "get_current_temperature", "arguments": {"city": self._state["cold"]}},
                self._expected_answer]
