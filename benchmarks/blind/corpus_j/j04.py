"""Lunar Lander: set the throttle each second to touch down gently (skill: Control).

The lander starts 60-120 m above the surface, falling at 0 m/s. Each turn the player sets the
throttle from 0 to 9: speed changes by 3 - throttle (gravity adds 3 m/s, each throttle step brakes
1 m/s), then the lander moves down by its speed. Touching down at 2 m/s or less is a landing, faster is
a crash. Throttle settings above 9 are capped at 9, and the lander must land within 14 turns.
"""

from __future__ import annotations

import random
import re
from typing import Any

_G = 3
_SOFT = 2
_MAX_H, _MAX_V = 160, 45


def _table() -> list[list[int]]:
    """Fewest turns to land softly from (height, downward speed), never climbing."""
    inf = 99
    best = [[inf] * (_MAX_V + 1) for _ in range(_MAX_H + 1)]
    for h in range(1, _MAX_H + 1):
        for v in range(_MAX_V + 1):
            for t in range(10):
                v2 = v + _G - t
                if v2 < 1:
                    continue
                if h - v2 <= 0:
                    if v2 <= _SOFT:
                        best[h][v] = 1
                elif v2 <= _MAX_V:
                    best[h][v] = min(best[h][v], best[h - v2][v2] + 1)
    return best


_TURNS = _table()


class LunarLanderEnv:
    """Choose a throttle setting each turn; land at 2 m/s or slower."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 14, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._h = 100
        self._v = 0
        self._turn = 0
        self._down = False
        self._won = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Start at a random height, at rest."""
        rng = random.Random(seed)
        self._h, self._v = rng.randint(60, 120), 0
        self._turn, self._down, self._won = 0, False, False
        text = (
            f"Lunar Lander. Altitude {self._h} m, falling at {self._v} m/s.\n"
            "Each turn set the throttle from 0 to 9 with \\boxed{burn 4} (or \\boxed{4}). Then your speed changes by "
            "3 - throttle m/s and you drop by your speed.\n"
            f"Touch down at {_SOFT} m/s or less to land; faster is a crash. Settings above 9 are capped at 9. "
            f"You have {self.max_turns} turns."
        )
        return text, self._info()

    def _info(self) -> dict:
        return {"turn": self._turn, "altitude": self._h, "speed": self._v}

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict]:
        """Burn for one second."""
        if self._down:
            return "The flight is over. reset() for another descent.", 0.0, self._won, not self._won, self._info()
        self._turn += 1
        found = [b for b in re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "") if b.strip()]
        m = re.fullmatch(r"(?:burn|throttle)?\s*(-?\d{1,6})", found[-1].strip().lower()) if found else None
        if not m or int(m.group(1)) < 0:
            obs = "Set the throttle with a whole number from 0 to 9, e.g. \\boxed{burn 5}. The engine idles this turn."
            throttle = 0
        else:
            throttle = int(m.group(1))
            obs = ""
            if throttle > 9:
                obs = f"The throttle tops out at 9 (you asked for {throttle}). "
                throttle = 9
        self._v += _G - throttle
        self._h -= self._v
        if self._h <= 0:
            self._down = True
            if self._v <= _SOFT:
                self._won = True
                return obs + f"Touchdown at {self._v} m/s. The Eagle has landed!", 1.0, True, False, self._info()
            return obs + f"You hit the surface at {self._v} m/s. Crash.", 0.0, True, False, self._info()
        obs += f"Throttle {throttle}: altitude {self._h} m, speed {self._v} m/s {'down' if self._v >= 0 else '(climbing)'}."
        if self._turn >= self.max_turns:
            self._down = True
            return obs + " Out of time: mission control aborts.", 0.0, False, True, self._info()
        return f"{obs} Turns left: {self.max_turns - self._turn}.", 0.0, False, False, self._info()

    def solution(self) -> list[str]:
        """Follow the fewest-turns table from the current state."""
        h, v, moves = self._h, max(0, self._v), []
        while h > 0 and len(moves) < 40:
            options = []
            for t in range(10):
                v2 = v + _G - t
                if v2 < 1:
                    continue
                if h - v2 <= 0:
                    if v2 <= _SOFT:
                        options.append((0, t))
                elif v2 <= _MAX_V and h - v2 <= _MAX_H:
                    options.append((_TURNS[h - v2][v2], t))
            if not options:
                break
            t = min(options)[1]
            moves.append(f"\\boxed{{burn {t}}}")
            v += _G - t
            h -= v
        return moves

    def close(self) -> None:
        """Nothing to release."""
