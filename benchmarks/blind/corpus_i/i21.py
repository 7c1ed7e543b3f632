"""Strongbox Dials: open a three-wheel combination lock by bisection (skill: Binary Search).

Each of three wheels shows a number 0-99 and must be turned to a hidden number. Every setting tells,
wheel by wheel, whether the hidden number is higher, lower or matched. Setting all three wheels at
once and halving each range needs at most seven settings; the budget is ten. Wheels written as '_'
(or left off the end) stay where they are.
"""

from __future__ import annotations

import random
import re
from typing import Any

_WHEELS = 3
_TOP = 99
_BOX = re.compile(r"\\boxed\{([^{}]*)\}")


def _move_text(action: Any) -> str:
    """The last non-empty \\boxed{...} of a reply, stripped; '' when there is none."""
    if not isinstance(action, str):
        return ""
    found = [box.strip() for box in _BOX.findall(action) if box.strip()]
    return found[-1] if found else ""


class StrongboxDialsEnv:
    """Turn the three wheels to the hidden combination."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 10, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._combo: list[int] = []
        self._wheels: list[int] = []
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Draw the combination and starting positions that differ from it on every wheel."""
        rng = random.Random(seed)
        self._combo = [rng.randint(0, _TOP) for _ in range(_WHEELS)]
        self._wheels = [rng.choice([v for v in range(_TOP + 1) if v != c]) for c in self._combo]
        self._turn, self._terminated, self._truncated = 0, False, False
        intro = (
            f"Strongbox Dials. The lock has {_WHEELS} wheels, each set to a number 0-{_TOP}; each must be turned to "
            "its hidden number.\n"
            "Each turn give the new setting, e.g. \\boxed{50 25 75}. Write '_' for a wheel you want to leave where "
            "it is; wheels left off the end also stay put (\\boxed{40} turns only wheel 1).\n"
            "After each setting every wheel reports 'higher', 'lower' or 'ok'.\n"
            f"Open the lock within {self.max_turns} turns to win.\n" + self._render()
        )
        return intro, self._info()

    def _render(self) -> str:
        return "Wheels now at " + " - ".join(str(v) for v in self._wheels) + "."

    def _info(self) -> dict:
        return {"turn": self._turn, "max_turns": self.max_turns, "wheels": list(self._wheels)}

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict]:
        """Apply one setting; all wheels matching wins."""
        if self._terminated or self._truncated:
            return "The game is over; call reset() to play again.", 0.0, self._terminated, self._truncated, self._info()
        self._turn += 1
        reward = 0.0
        tokens = _move_text(action).replace(",", " ").replace("-", " ").split()
        if not tokens or len(tokens) > _WHEELS or any(not (t == "_" or (t.isdigit() and len(t) <= 3)) for t in tokens):
            obs = f"Invalid setting. Write up to {_WHEELS} numbers 0-{_TOP} or '_', e.g. \\boxed{{50 25 75}}."
        elif any(t != "_" and int(t) > _TOP for t in tokens):
            obs = f"The wheels only go from 0 to {_TOP}."
        else:
            slots = tokens + ["_"] * (_WHEELS - len(tokens))
            self._wheels = [keep if t == "_" else int(t) for t, keep in zip(slots, self._wheels)]
            if self._wheels == self._combo:
                self._terminated, reward = True, 1.0
                return self._render() + " Every wheel is ok: the lock opens. You win!", reward, True, False, self._info()
            report = ", ".join(f"wheel {i + 1} {'ok' if v == c else 'higher' if c > v else 'lower'}"
                               for i, (v, c) in enumerate(zip(self._wheels, self._combo)))
            obs = self._render() + " " + report + "."
        if self._turn >= self.max_turns:
            self._truncated = True
            obs += " Out of turns."
        else:
            obs += f" Turns left: {self.max_turns - self._turn}."
        return obs, reward, False, self._truncated, self._info()

    def solution(self) -> list[str]:
        """Set every wheel to its number."""
        return [f"\\boxed{{{' '.join(map(str, self._combo))}}}"]

    def close(self) -> None:
        """Nothing to release."""
