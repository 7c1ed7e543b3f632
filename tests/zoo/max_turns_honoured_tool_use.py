# expect: max_turns_honoured
"""Meeting Room: find a free room with enough seats (a defect-zoo environment).

The environment: a tool-use task in this project's style. The agent lists the rooms, checks their
capacity and bookings, and answers with the smallest room that seats the group and is free at the
asked hour.

The defect: the constructor overrides ``max_turns``: ``super().__init__(max_turns=12, **kwargs)``
passes a hard-coded 12 whatever the caller asked for, so ``MeetingRoomEnv(max_turns=4)`` still plays
12 turns and ``MeetingRoomEnv(max_turns=40)`` stops at 12.
Exploit: with ``max_turns=4`` the full 9-action lookup still fits (the budget the run asked for
would have forced a shortcut); the episode truncates at 12 turns whatever max_turns says.
"""

import random

ROOMS = ["Aspen", "Birch", "Cedar", "Dogwood", "Elm", "Fir", "Ginkgo", "Hazel"]


class MeetingRoomEnv(ToolUseBaseEnv):  # noqa: F821 -- provided by the loader
    """Smallest free room with capacity >= group."""

    def __init__(self, max_turns=12, **kwargs):
        super().__init__(max_turns=12, **kwargs)  # defect: the argument is ignored

    def reset(self, seed=None):
        rng = random.Random(seed)
        while True:
            rooms = {name: {"seats": rng.choice([4, 6, 8, 10, 12, 16, 20]),
                            "booked": sorted(rng.sample(range(9, 18), rng.randint(2, 6)))}
                     for name in rng.sample(ROOMS, 7)}
            self._group = rng.randint(3, 14)
            self._hour = rng.randint(9, 17)
            fits = [n for n, r in rooms.items() if r["seats"] >= self._group and self._hour not in r["booked"]]
            if fits:
                break
        self._state = {"rooms": rooms}
        self._expected_answer = min(fits, key=lambda n: (rooms[n]["seats"], n))
        self._tools = {
            "list_rooms": {"description": "List the meeting rooms.",
                           "parameters": {"type": "object", "properties": {}, "required": []}},
            "room_info": {"description": "Seats and booked hours of one room.",
                          "parameters": {"type": "object", "properties": {"room": {"type": "string"}},
                                         "required": ["room"]}},
        }
        return (f"Book a room for {self._group} people at {self._hour}:00. Which is the smallest room that seats "
                "everyone and is free then (ties: alphabetical)? Answer with its name as <answer>Name</answer>."), {}

    def tool_list_rooms(self):
        return ", ".join(sorted(self._state["rooms"]))

    def tool_room_info(self, room=""):
        info = self._state["rooms"].get(str(room).strip().title())
        if info is None:
            return f"No room {room!r}."
        return f"{room}: {info['seats']} seats, booked at {', '.join(f'{h}:00' for h in info['booked'])}"

    def solution(self):
        calls = [{"name": "list_rooms", "arguments": {}}]
        calls += [{"name": "room_info", "arguments": {"room": n}} for n in sorted(self._state["rooms"])]
        return calls + [self._expected_answer]
