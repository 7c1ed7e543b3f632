"""Smart-home concierge: carry out a resident's requests, one at a time, by changing device state.

ToolUseBaseEnv is injected by the loader. Requests are checked against the house's state.
"""

from __future__ import annotations

import random
from typing import Any

_ROOMS = ["kitchen", "lounge", "study", "bedroom", "nursery", "hallway", "bathroom", "attic"]
_DOORS = ["front", "back", "garage", "patio"]


def _obj(**props: Any) -> dict[str, Any]:
    return {"type": "object", "properties": props, "required": sorted(props)}


class SmartHomeEnv(ToolUseBaseEnv):  # noqa: F821
    def __init__(self, max_turns: int = 12, **kwargs: Any) -> None:
        super().__init__(max_turns=max_turns, **kwargs)

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        rng = random.Random(seed)
        rooms = sorted(rng.sample(_ROOMS, 5))
        self._state = {
            "thermostat": {r: rng.randint(16, 24) for r in rooms},
            "lights": {r: True for r in rooms},
            "doors": {d: rng.choice(["locked", "unlocked"]) for d in _DOORS},
        }
        room = rng.choice(rooms)
        target = rng.choice([t for t in range(17, 26) if t != self._state["thermostat"][room]])
        keep = rng.choice([r for r in rooms if r != room])
        door = rng.choice(_DOORS)
        self._state["doors"][door] = "unlocked"
        self._plan = [{"name": "set_thermostat", "arguments": {"room": room, "celsius": target}}]
        self._plan += [{"name": "set_lights", "arguments": {"room": r, "on": False}} for r in rooms if r != keep]
        self._plan.append({"name": "lock_door", "arguments": {"door": door}})
        self._user_messages = [
            {"message": f"Please set the {room} thermostat to {target} degrees Celsius.",
             "check": lambda s, r=room, t=target: s["thermostat"][r] == t},
            {"message": f"Turn off the lights everywhere except the {keep}.",
             "check": lambda s, k=keep: all(on == (r == k) for r, on in s["lights"].items())},
            {"message": f"And lock the {door} door, please.",
             "check": lambda s, d=door: s["doors"][d] == "locked"},
        ]
        self._expected_answer = "done"
        s = {"type": "string"}
        self._tools = {
            "list_rooms": {"description": "Rooms with their thermostat setting and light state.",
                           "parameters": {"type": "object", "properties": {}}},
            "set_thermostat": {"description": "Set a room's thermostat (10-30 Celsius, whole degrees).",
                               "parameters": _obj(room=s, celsius={"type": "integer"})},
            "set_lights": {"description": "Switch a room's lights on or off.",
                           "parameters": _obj(room=s, on={"type": "boolean"})},
            "list_doors": {"description": "Doors and whether each is locked.",
                           "parameters": {"type": "object", "properties": {}}},
            "lock_door": {"description": "Lock a door.", "parameters": _obj(door=s)},
            "unlock_door": {"description": "Unlock a door.", "parameters": _obj(door=s)},
        }
        obs = ("You are the home concierge with device tools. Carry out each request of the resident with the "
               "tools; when everything is done, reply <answer>done</answer>.")
        return obs, {"rooms": len(rooms)}

    def _room(self, room: Any) -> str:
        key = str(room).strip().lower()
        if key not in self._state["lights"]:
            raise ValueError(f"unknown room {room!r}; see list_rooms")
        return key

    def _door(self, door: Any) -> str:
        key = str(door).strip().lower().removesuffix(" door")
        if key not in self._state["doors"]:
            raise ValueError(f"unknown door {door!r}; see list_doors")
        return key

    def tool_list_rooms(self) -> str:
        return "\n".join(f"{r}: thermostat {self._state['thermostat'][r]} C, lights "
                         f"{'on' if self._state['lights'][r] else 'off'}" for r in sorted(self._state["lights"]))

    def tool_set_thermostat(self, room: Any = None, celsius: Any = None) -> str:
        key = self._room(room)
        if isinstance(celsius, bool) or not isinstance(celsius, int) or not 10 <= celsius <= 30:
            raise ValueError("celsius must be a whole number from 10 to 30")
        self._state["thermostat"][key] = celsius
        return f"{key} thermostat set to {celsius} C."

    def tool_set_lights(self, room: Any = None, on: Any = None) -> str:
        key = self._room(room)
        if not isinstance(on, bool):
            raise ValueError("'on' must be true or false")
        self._state["lights"][key] = on
        return f"{key} lights {'on' if on else 'off'}."

    def tool_list_doors(self) -> str:
        return "\n".join(f"{d}: {v}" for d, v in sorted(self._state["doors"].items()))

    def tool_lock_door(self, door: Any = None) -> str:
        key = self._door(door)
        self._state["doors"][key] = "locked"
        return f"{key} door locked."

    def tool_unlock_door(self, door: Any = None) -> str:
        key = self._door(door)
        self._state["doors"][key] = "unlocked"
        return f"{key} door unlocked."

    def solution(self) -> list[Any]:
        return [{"name": c["name"], "arguments": dict(c["arguments"])} for c in self._plan] + ["done"]
