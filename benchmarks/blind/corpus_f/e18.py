"""DeadlineOrderEnv: order five errands by deadline; partial credit per errand in its right place.

Deadlines are written the way people write them, mixing 24-hour ("14:30") and 12-hour ("2:30 pm")
clocks, so the agent has to normalise them before sorting. The answer is the five letters from the
earliest deadline to the latest. Each letter in its correct position earns 0.2; only the fully right
order earns 1.0. One ordering is judged; boxing two different orderings scores 0.
"""

from __future__ import annotations

import random
import re
from typing import Any

_ERRANDS = ["post the parcel", "pick up dry cleaning", "return library books", "buy a birthday card",
            "renew the parking permit", "collect the prescription", "drop off the keys", "pay the gas bill",
            "book the vet", "print the boarding pass", "water the neighbour's plants", "call the plumber"]
_LABELS = "ABCDE"
_BOX = re.compile(r"\\boxed\{([^{}]*)\}")


def _twelve_hour(minutes: int) -> str:
    hour, minute = divmod(minutes, 60)
    suffix = "am" if hour < 12 else "pm"
    return f"{(hour - 1) % 12 + 1}:{minute:02d} {suffix}"


class DeadlineOrderEnv:
    """Sort five deadlines; reward = share of letters in the right position."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._order = _LABELS
        self._turn = 0
        self._status = (False, False)
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        rng = random.Random(seed)
        errands = rng.sample(_ERRANDS, 5)
        times = rng.sample(range(7 * 60, 22 * 60, 15), 5)
        lines = []
        for label, errand, minutes in zip(_LABELS, errands, times):
            shown = f"{minutes // 60:02d}:{minutes % 60:02d}" if rng.random() < 0.5 else _twelve_hour(minutes)
            lines.append(f"  {label}. {errand} - by {shown}")
        self._order = "".join(label for _, label in sorted(zip(times, _LABELS)))
        self._turn, self._status = 0, (False, False)
        text = (
            "Today's errands and their deadlines:\n" + "\n".join(lines) + "\n"
            "List the five letters from the earliest deadline to the latest, in one box, e.g. "
            "\\boxed{E, B, A, D, C}. Scoring: 0.2 for each letter in its correct position, so a fully "
            "correct order scores 1.0. You get one scored answer; boxing two different orders scores 0."
        )
        return text, {"errands": 5}

    @staticmethod
    def _parse(content: str) -> str | None:
        letters = re.sub(r"[\s,;>\-]+", "", content).upper()
        return letters if sorted(letters) == list(_LABELS) else None

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict[str, Any]]:
        if any(self._status):
            return "Scored already; call reset().", 0.0, *self._status, {}
        self._turn += 1
        orders = [o for o in (self._parse(c) for c in _BOX.findall(action if isinstance(action, str) else ""))
                  if o is not None]
        reward, terminated = 0.0, False
        if not orders:
            obs = "Give all five letters A-E once each, in one box, e.g. \\boxed{E, B, A, D, C}."
        elif len(set(orders)) > 1:
            obs, terminated = "Two different orders were boxed; this scores 0.", True
        else:
            hits = sum(a == b for a, b in zip(orders[0], self._order))
            reward, terminated = hits / 5, True
            obs = f"{hits} of 5 letters are in the right position (score {hits / 5:.1f})."
            if hits == 5:
                reward, obs = 1.0, "Perfect order!"
        truncated = not terminated and self._turn >= self.max_turns
        self._status = (terminated, truncated)
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> str:
        return ", ".join(self._order)

    def hint(self) -> str:
        return "Convert every time to the 24-hour clock first; 12:xx pm is just after noon."

    def close(self) -> None:
        """Nothing to release."""
