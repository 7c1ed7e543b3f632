"""Beacon Drone: locate a hidden beacon with range scans and land on it (skill: Search).

A drone flies over a 9x9 field (rows 1-9 from north to south, columns 1-9 from west to east). A
rescue beacon lies on one hidden square at least six steps away. A scan reports the number of steps
(rows plus columns) between the drone and the beacon; flying moves 1-4 squares in a compass
direction; landing on the beacon's square wins. Scans from a few well-chosen places pin the beacon
down; flying and landing at random almost never finds it within 14 turns. A status report (position
and the number of scans so far) and a help text are available at any time.
"""

from __future__ import annotations

import random
import re
from typing import Any

_N = 9
_DIRS = {"north": (-1, 0), "south": (1, 0), "east": (0, 1), "west": (0, -1)}
_BOX = re.compile(r"\\boxed\{([^{}]*)\}")
_FLY = re.compile(r"^fly\s+(north|south|east|west|n|s|e|w)(?:\s+([0-9]{1,3}))?$")
_SHORT = {"n": "north", "s": "south", "e": "east", "w": "west"}


class BeaconDroneEnv:
    """Scan, fly and land on the beacon."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 14, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._state: dict[str, Any] = {}
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Place the drone and a beacon six or more steps away."""
        rng = random.Random(seed)
        start = (rng.randint(1, _N), rng.randint(1, _N))
        far = [(r, c) for r in range(1, _N + 1) for c in range(1, _N + 1)
               if abs(r - start[0]) + abs(c - start[1]) >= 6]
        self._state = {"position": start, "scans": 0, "beacon": rng.choice(far), "landings": 0}
        self._turn, self._terminated, self._truncated = 0, False, False
        intro = (
            "Beacon Drone. Your drone hovers over a 9x9 field; rows 1-9 run north to south, columns 1-9 "
            f"west to east. It is at row {start[0]}, column {start[1]}. A rescue beacon lies on one hidden square.\n"
            "Commands (one per turn): \\boxed{scan} gives the number of steps (rows + columns) to the beacon; "
            "\\boxed{fly east 3} flies 1-4 squares north, south, east or west; \\boxed{land} lands on the "
            "current square; \\boxed{status} reports position and scans so far; \\boxed{help} repeats the commands.\n"
            f"Land on the beacon within {self.max_turns} turns to win."
        )
        return intro, self._info()

    def _info(self) -> dict:
        return {"turn": self._turn, "max_turns": self.max_turns, "position": self._state["position"]}

    def _status(self) -> str:
        return "Status: " + ", ".join(f"{key}={value}" for key, value in self._state.items())

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        """Run one command; landing on the beacon wins, running out of turns truncates."""
        if self._terminated or self._truncated:
            return "The mission is over; call reset() to fly again.", 0.0, self._terminated, self._truncated, self._info()
        self._turn += 1
        boxes = [b for b in _BOX.findall(action) if b.strip()] if isinstance(action, str) else []
        text = " ".join(boxes[-1].lower().split()) if boxes else ""
        fly = _FLY.match(text)
        r, c = self._state["position"]
        if text == "scan":
            self._state["scans"] += 1
            br, bc = self._state["beacon"]
            obs = f"Scan: the beacon is {abs(br - r) + abs(bc - c)} steps away."
        elif fly:
            direction = _SHORT.get(fly.group(1), fly.group(1))
            distance = int(fly.group(2) or 1)
            if not 1 <= distance <= 4:
                obs = "The drone flies 1 to 4 squares per turn."
            else:
                dr, dc = _DIRS[direction]
                nr, nc = min(_N, max(1, r + dr * distance)), min(_N, max(1, c + dc * distance))
                self._state["position"] = (nr, nc)
                obs = f"You fly {direction} to row {nr}, column {nc}."
                if (nr, nc) != (r + dr * distance, c + dc * distance):
                    obs += " (The drone stopped at the edge of the field.)"
        elif text == "land":
            self._state["landings"] += 1
            if self._state["position"] == self._state["beacon"]:
                self._terminated = True
                return "You land right next to the beacon. Rescue complete!", 1.0, True, False, self._info()
            obs = "You land, find nothing, and take off again."
        elif text == "status":
            obs = self._status()
        elif text == "help":
            obs = "Commands: scan, fly DIRECTION N (N = 1-4), land, status, help."
        else:
            obs = "Invalid move. Use \\boxed{scan}, \\boxed{fly north 2}, \\boxed{land}, \\boxed{status} or \\boxed{help}."
        if self._turn >= self.max_turns:
            self._truncated = True
            obs += " The battery is flat: out of turns."
        else:
            obs += f" Turns left: {self.max_turns - self._turn}."
        return obs, 0.0, False, self._truncated, self._info()

    def solution(self) -> list[str]:
        """Fly straight to the beacon in hops of up to four squares, then land."""
        (r, c), (br, bc) = self._state["position"], self._state["beacon"]
        moves = []
        for delta, pos, neg in ((br - r, "south", "north"), (bc - c, "east", "west")):
            while delta:
                step = min(4, abs(delta))
                moves.append(f"\\boxed{{fly {pos if delta > 0 else neg} {step}}}")
                delta -= step if delta > 0 else -step
        return moves + ["\\boxed{land}"]

    def close(self) -> None:
        """Nothing to release."""
