"""Night Crossing: get five travellers over a narrow bridge with one torch (skill: Optimisation).

Five travellers with different walking times must cross a bridge at night. At most two walk at once,
at the pace of the slower one, and every crossing needs the single torch, so someone has to bring it
back. The time limit is exactly the fastest possible schedule, which often needs the classic trick
(the two slowest cross together). `give up` ends the episode without a win and prints a fastest schedule.
"""

from __future__ import annotations

import heapq
import random
import re
from typing import Any

_NAMES = ("Ann", "Ben", "Cas", "Dot", "Eve", "Fox", "Gil", "Hal", "Ivy", "Jo")


class NightCrossingEnv:
    """Move travellers across with the torch; finish within the time limit."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 12, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._times: dict[str, int] = {}
        self._near: set[str] = set()
        self._torch_near = True
        self._clock = 0
        self._limit = 0
        self._plan: list[tuple[str, ...]] = []
        self._turn = 0
        self._over = False
        self._won = False
        self.reset()

    def _fastest(self, near: frozenset[str], torch_near: bool) -> tuple[int, list[tuple[str, ...]]]:
        """Dijkstra over (who is on the near side, where the torch is)."""
        start = (near, torch_near)
        best = {start: 0}
        back: dict[Any, Any] = {}
        heap = [(0, 0, start)]
        count = 0
        goal = None
        while heap:
            cost, _, state = heapq.heappop(heap)
            if cost > best[state]:
                continue
            here, torch = state
            if not here:
                goal = state
                break
            side = sorted(here) if torch else sorted(set(self._times) - here)
            groups = [(a,) for a in side] + [(a, b) for i, a in enumerate(side) for b in side[i + 1:]]
            for group in groups:
                nxt_here = here - set(group) if torch else here | set(group)
                nxt = (frozenset(nxt_here), not torch)
                c = cost + max(self._times[p] for p in group)
                if c < best.get(nxt, 10 ** 9):
                    best[nxt] = c
                    back[nxt] = (state, group)
                    count += 1
                    heapq.heappush(heap, (c, count, nxt))
        plan = []
        state = goal
        while state != start:
            state, group = back[state]
            plan.append(group)
        return best[goal], plan[::-1]

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Draw five walking times and compute the fastest schedule."""
        rng = random.Random(seed)
        names = rng.sample(_NAMES, 5)
        times = sorted(rng.sample(range(1, 16), 5))
        self._times = dict(zip(names, times))
        self._near, self._torch_near, self._clock = set(names), True, 0
        self._limit, self._plan = self._fastest(frozenset(names), True)
        self._turn, self._over, self._won = 0, False, False
        walkers = ", ".join(f"{n} ({t} min)" for n, t in self._times.items())
        text = (
            f"Night Crossing. Travellers: {walkers}. All five and the torch are on the near side.\n"
            "At most two cross at once, at the slower one's pace, and they must carry the torch. "
            "Move one or two people from the torch's side with \\boxed{cross " + names[0] + " " + names[1] + "} "
            "(or \\boxed{cross " + names[0] + "}).\n"
            f"Everyone must be across within {self._limit} minutes. \\boxed{{status}} shows who is where; "
            f"\\boxed{{give up}} ends the night. You have {self.max_turns} turns."
        )
        return text, self._info()

    def _status(self) -> str:
        far = sorted(set(self._times) - self._near)
        torch = "near" if self._torch_near else "far"
        return (f"Near side: {', '.join(sorted(self._near)) or 'nobody'}. Far side: {', '.join(far) or 'nobody'}. "
                f"Torch: {torch} side. Clock: {self._clock}/{self._limit} min.")

    def _info(self) -> dict:
        return {"turn": self._turn, "clock": self._clock, "limit": self._limit}

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict]:
        """Cross, check status or give up."""
        if self._over:
            return "The night is over. reset() for another.", 0.0, self._won, not self._won, self._info()
        self._turn += 1
        found = [b for b in re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "") if b.strip()]
        text = re.sub(r"\s+", " ", found[-1].strip().lower()) if found else ""
        words = [w.capitalize() for w in re.split(r"[\s,]+|\band\b", text) if w]
        if text == "give up":
            self._over = True
            plan = "; ".join(" + ".join(g) for g in self._plan)
            return f"You give up. A fastest schedule was: {plan} ({self._limit} min).", 0.0, True, False, self._info()
        if text == "status":
            obs = self._status()
        elif words[:1] == ["Cross"] and 1 <= len(words) - 1 <= 2 and len(set(words[1:])) == len(words) - 1 \
                and all(w in self._times for w in words[1:]):
            group = words[1:]
            side = self._near if self._torch_near else set(self._times) - self._near
            if any(p not in side for p in group):
                obs = "Only people on the torch's side can cross. " + self._status()
            else:
                if self._torch_near:
                    self._near -= set(group)
                else:
                    self._near |= set(group)
                self._torch_near = not self._torch_near
                self._clock += max(self._times[p] for p in group)
                obs = f"{' and '.join(group)} cross. " + self._status()
                if self._clock > self._limit:
                    self._over = True
                    return obs + " Too slow: dawn breaks.", 0.0, True, False, self._info()
                if not self._near:
                    self._over, self._won = True, True
                    return obs + " Everyone made it in time!", 1.0, True, False, self._info()
        else:
            obs = "Write \\boxed{cross Name} or \\boxed{cross Name Name}, \\boxed{status} or \\boxed{give up}."
        if self._turn >= self.max_turns:
            self._over = True
            return obs + " The night runs out of turns.", 0.0, False, True, self._info()
        return obs, 0.0, False, False, self._info()

    def solution(self) -> list[str]:
        """A fastest schedule from the current position."""
        _, plan = self._fastest(frozenset(self._near), self._torch_near)
        return [f"\\boxed{{cross {' '.join(g)}}}" for g in plan]

    def close(self) -> None:
        """Nothing to release."""
