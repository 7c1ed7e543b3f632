# expect: valid
"""Server Hunt: explore a building room by room to find and reboot the server (corpus-grounded, release style).

Written the way the SPADE release's corpus prompt asks (document kwarg with a default, one
\\boxed{<command>} per turn, hidden state revealed by acting, partial reward for progress, total
partial reward below 1). The document describes breadth-first search; the game is exploring an
unknown graph.

Looks suspicious: progress rewards (+0.05 for every room entered for the first time) come before the
win, and the layout is hidden at reset (only the lobby's doors are shown).
Why it is correct: a room pays only the first time, and there are seven rooms besides the lobby, so
rewards without a win add up to at most 0.35; going back and forth earns nothing; the server is found
only by exploring, and solution() walks the shortest path to it (breadth-first) and reboots it.
"""

import random
import re
from collections import deque
from typing import Tuple

DEFAULT_DOCUMENT = (
    "Breadth-first search explores a graph level by level: starting from a source node it visits all "
    "neighbours, then their unvisited neighbours, and so on, using a queue. It finds shortest paths in "
    "unweighted graphs and visits every reachable node exactly once."
)
ROOMS = ["archive", "atrium", "canteen", "cellar", "gallery", "library", "loft", "mailroom", "studio", "vault"]


class ServerHuntEnv:
    def __init__(self, max_turns=20, document=DEFAULT_DOCUMENT, **kwargs):
        self.max_turns = max_turns
        self.document = document
        self.turn_count = 0
        self.doors = {}
        self.here = "lobby"
        self.server = "vault"
        self.visited = set()
        self.done = False
        self.ended = (False, False)
        self.reset()

    def reset(self, seed=None) -> Tuple[str, dict]:
        rng = random.Random(seed)
        self.turn_count = 0
        rooms = ["lobby"] + rng.sample(ROOMS, 7)
        self.doors = {r: set() for r in rooms}
        for index in range(1, len(rooms)):  # a random tree keeps every room reachable
            other = rooms[rng.randrange(index)]
            self.doors[rooms[index]].add(other)
            self.doors[other].add(rooms[index])
        for _ in range(2):  # and a couple of extra doors make loops
            a, b = rng.sample(rooms, 2)
            self.doors[a].add(b)
            self.doors[b].add(a)
        self.server = rng.choice([r for r in rooms[1:] if r not in self.doors["lobby"]] or rooms[1:])
        self.here = "lobby"
        self.visited = {"lobby"}
        self.done = False
        self.ended = (False, False)
        return ("A building's server has crashed, and nobody remembers which room it is in. You are in the lobby. "
                "Commands: \\boxed{go <room>} through a door of the current room, \\boxed{reboot} when you are "
                "in the server room. Entering a room for the first time earns a small reward. "
                + self._look() + " Reply with \\boxed{<action>}."), {}

    def _look(self):
        extra = " The server rack is here!" if self.here == self.server else ""
        return f"You are in the {self.here}.{extra} Doors lead to: {', '.join(sorted(self.doors[self.here]))}."

    def step(self, action: str) -> Tuple[str, float, bool, bool, dict]:
        if self.done:
            return "The server is back (or you gave up); call reset().", 0.0, self.ended[0], self.ended[1], {}
        self.turn_count += 1
        m = re.search(r"\\boxed\{(.+?)\}", action)
        cmd = (m.group(1) if m else action).strip().lower()
        reward, terminated = 0.0, False
        go = re.fullmatch(r"go\s+(?:to\s+)?(?:the\s+)?([a-z]+)", cmd)
        if go:
            room = go.group(1)
            if room not in self.doors[self.here]:
                obs = f"There is no door to {room} here. " + self._look()
            else:
                self.here = room
                if room not in self.visited:
                    self.visited.add(room)
                    reward = 0.05
                obs = self._look()
        elif cmd == "reboot":
            if self.here == self.server:
                obs, reward, terminated = "The server boots up. Everything is back online!", 1.0, True
            else:
                obs = "There is no server here to reboot. " + self._look()
        else:
            obs = "Unknown command. Use \\boxed{go <room>} or \\boxed{reboot}. " + self._look()
        truncated = not terminated and self.turn_count >= self.max_turns
        if terminated or truncated:
            self.done, self.ended = True, (terminated, truncated)
        return obs + " Reply with \\boxed{<action>}.", reward, terminated, truncated, {}

    def solution(self) -> list:
        previous = {"lobby": None}
        queue = deque(["lobby"])
        while queue:
            room = queue.popleft()
            for nxt in sorted(self.doors[room]):
                if nxt not in previous:
                    previous[nxt] = room
                    queue.append(nxt)
        path, room = [], self.server
        while previous[room] is not None:
            path.append(room)
            room = previous[room]
        return [f"\\boxed{{go {r}}}" for r in reversed(path)] + ["\\boxed{reboot}"]

    def close(self):
        pass
