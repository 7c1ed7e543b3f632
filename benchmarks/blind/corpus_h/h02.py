"""Orbit Hopper: hop clockwise around a ring of stations, dodging storms (skill: Planning).

Sixteen stations, numbered 0-15, form a ring. The shuttle starts at one station and must land on the
target station, 9-13 stations further clockwise. Each turn it hops 1, 2 or 3 stations clockwise;
four stations are wrapped in storms and cannot be landed on (a hop towards one is refused and wastes
the turn). The budget is six hops and the start is drawn so that at most five are needed, so the
player has to pick hop lengths that step around the storms (layouts where repeating one hop length
would arrive are redrawn).
"""

from __future__ import annotations

import random
import re
from collections import deque
from typing import Any

_SIZE = 16
_BOX = re.compile(r"\\boxed\{([^{}]*)\}")
_HOP = re.compile(r"^(?:hop|jump)?\s*(?:by\s+)?(-?[0-9]{1,6})$")


def _plan(start: int, target: int, storms: set[int]) -> list[int]:
    """Fewest hops (each 1-3 clockwise, never onto a storm) from start to target; [] if none."""
    back: dict[int, tuple[int, int] | None] = {start: None}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for hop in (3, 2, 1):
            nxt = (here + hop) % _SIZE
            if nxt not in storms and nxt not in back:
                back[nxt] = (here, hop)
                queue.append(nxt)
    if target not in back:
        return []
    hops = []
    while back[target] is not None:
        target, hop = back[target]
        hops.append(hop)
    return hops[::-1]


def _steady(start: int, target: int, storms: set[int], hop: int, turns: int) -> bool:
    """Whether repeating one hop length reaches the target within `turns` hops."""
    here = start
    for _ in range(turns):
        nxt = (here + hop) % _SIZE
        if nxt not in storms:
            here = nxt
        if here == target:
            return True
    return False


class OrbitHopperEnv:
    """Hop 1-3 stations clockwise per turn until the shuttle lands on the target."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 6, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._pos = self._target = 0
        self._storms: set[int] = set()
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Place start, target and four storms so that at most five hops suffice."""
        rng = random.Random(seed)
        while True:
            start = rng.randrange(_SIZE)
            target = (start + rng.randint(9, 13)) % _SIZE
            others = [s for s in range(_SIZE) if s not in (start, target)]
            storms = set(rng.sample(others, 4))
            plan = _plan(start, target, storms)
            if plan and len(plan) <= 5 and not any(_steady(start, target, storms, h, min(self.max_turns, 8)) for h in (1, 2, 3)):
                break
        self._pos, self._target, self._storms = start, target, storms
        self._turn, self._terminated, self._truncated = 0, False, False
        intro = (
            f"Orbit Hopper. {_SIZE} stations 0-{_SIZE - 1} form a ring (after {_SIZE - 1} comes 0). Your shuttle is at station "
            f"{start}; land on station {target}.\n"
            f"Storms cover stations {', '.join(map(str, sorted(storms)))}: you cannot land on them.\n"
            "Each turn hop 1, 2 or 3 stations clockwise (increasing numbers), e.g. \\boxed{hop 2}.\n"
            f"Land on station {target} within {self.max_turns} hops to win.\n" + self._render()
        )
        return intro, self._info()

    def _render(self) -> str:
        marks = []
        for s in range(_SIZE):
            mark = "@" if s == self._pos else "T" if s == self._target else "~" if s in self._storms else ""
            marks.append(f"{s}{mark}")
        return "Ring: " + " ".join(marks) + "   (@ you, T target, ~ storm)"

    def _info(self) -> dict:
        return {"turn": self._turn, "max_turns": self.max_turns, "station": self._pos}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        """Hop clockwise; landing on the target wins, running out of hops truncates."""
        if self._terminated or self._truncated:
            return "The flight is over; call reset() to fly again.", 0.0, self._terminated, self._truncated, self._info()
        self._turn += 1
        boxes = [b for b in _BOX.findall(action) if b.strip()] if isinstance(action, str) else []
        match = _HOP.match(boxes[-1].strip().lower()) if boxes else None
        if match is None:
            obs = "Invalid move. Write \\boxed{hop 1}, \\boxed{hop 2} or \\boxed{hop 3}."
        else:
            hop = int(match.group(1))
            if not 1 <= hop <= 3:
                obs = f"A hop covers 1, 2 or 3 stations, not {hop}."
            else:
                dest = (self._pos + hop) % _SIZE
                if dest in self._storms:
                    obs = f"Station {dest} is in a storm; you cannot land there and stay at {self._pos}."
                else:
                    self._pos = dest
                    obs = f"You hop to station {dest}."
                    if dest == self._target:
                        self._terminated = True
                        return obs + " Landed on the target!", 1.0, True, False, self._info()
        if self._turn >= self.max_turns:
            self._truncated = True
            obs += " Out of hops."
        else:
            obs += f" Hops left: {self.max_turns - self._turn}."
        return obs + "\n" + self._render(), 0.0, False, self._truncated, self._info()

    def solution(self) -> list[str]:
        """The fewest legal hops from the current station."""
        return [f"\\boxed{{hop {h}}}" for h in _plan(self._pos, self._target, self._storms)]

    def close(self) -> None:
        """Nothing to release."""
