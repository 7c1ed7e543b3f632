# expect: distinct_tasks
"""Smart Home Routine: set up an evening routine, one instruction at a time (a defect-zoo environment).

The environment: a multi-instruction tool-use task in this project's style
(``self._user_messages = [{"message": ..., "check": ...}]``): dim a room's lights, set the thermostat,
lock a door; then <answer>done</answer>.

The defect: the task generator is seeded with ``random.Random(seed % 4)``, so there are only four
distinct tasks over all seeds; memorising four call sequences wins everything.
Exploit: replay, on every seed, the solution of seed (seed % 4); this wins every seed, and only four
distinct tasks exist (two of them even share their first instruction).
"""

import random

ROOMS = ["kitchen", "lounge", "study", "bedroom", "hallway", "den"]
DOORS = ["front", "back", "garage", "patio"]


class SmartHomeRoutineEnv(ToolUseBaseEnv):  # noqa: F821 -- provided by the loader
    """Lights, thermostat, lock."""

    def __init__(self, max_turns=12, **kwargs):
        super().__init__(max_turns=max_turns, **kwargs)

    def reset(self, seed=None):
        rng = random.Random((seed or 0) % 4)  # defect: only four tasks
        self._room = rng.choice(ROOMS)
        self._level = rng.choice([10, 20, 25, 30, 40])
        self._temp = rng.randint(17, 23)
        self._door = rng.choice(DOORS)
        self._state = {
            "lights": {r: 100 for r in ROOMS},
            "thermostat": 26,
            "locks": {d: False for d in DOORS},
        }
        self._expected_answer = "done"
        self._tools = {
            "set_lights": {"description": "Set the brightness of a room's lights (0-100).",
                           "parameters": {"type": "object", "properties": {
                               "room": {"type": "string", "enum": ROOMS}, "level": {"type": "integer"}},
                               "required": ["room", "level"]}},
            "set_thermostat": {"description": "Set the thermostat in degrees Celsius.",
                               "parameters": {"type": "object", "properties": {"celsius": {"type": "integer"}},
                                              "required": ["celsius"]}},
            "lock_door": {"description": "Lock one door.",
                          "parameters": {"type": "object", "properties": {"door": {"type": "string", "enum": DOORS}},
                                         "required": ["door"]}},
            "status": {"description": "Show lights, thermostat and locks.",
                       "parameters": {"type": "object", "properties": {}, "required": []}},
        }
        room, level, temp, door = self._room, self._level, self._temp, self._door
        self._user_messages = [
            {"message": f"Dim the {room} lights to {level}%.", "check": lambda s: s["lights"][room] == level},
            {"message": f"Set the thermostat to {temp} degrees.", "check": lambda s: s["thermostat"] == temp},
            {"message": f"Lock the {door} door.", "check": lambda s: s["locks"][door]},
        ]
        return "You are the home assistant. Follow the user's instructions.", {}

    def tool_set_lights(self, room="", level=0):
        if room not in self._state["lights"] or not isinstance(level, int) or not 0 <= level <= 100:
            return "Error: unknown room or level out of range."
        self._state["lights"][room] = level
        return f"{room} lights at {level}%."

    def tool_set_thermostat(self, celsius=0):
        if not isinstance(celsius, int) or not 10 <= celsius <= 30:
            return "Error: choose 10-30 degrees."
        self._state["thermostat"] = celsius
        return f"Thermostat set to {celsius}."

    def tool_lock_door(self, door=""):
        if door not in self._state["locks"]:
            return "Error: unknown door."
        self._state["locks"][door] = True
        return f"{door} door locked."

    def tool_status(self):
        s = self._state
        return f"lights={s['lights']}, thermostat={s['thermostat']}, locked={[d for d, v in s['locks'].items() if v]}"

    def solution(self):
        return [
            {"name": "set_lights", "arguments": {"room": self._room, "level": self._level}},
            {"name": "set_thermostat", "arguments": {"celsius": self._temp}},
            {"name": "lock_door", "arguments": {"door": self._door}},
            "done",
        ]
