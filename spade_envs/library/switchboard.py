"""Switchboard: discover hidden wiring by experiment and set a target lamp pattern (skill: Causal Inference).

Eight switches are secretly wired to eight lamps: flipping a switch toggles each lamp it is wired to
(one to three lamps), so the lamp pattern is the starting pattern XOR the wiring of every switch
flipped an odd number of times. The wiring matrix has full rank over GF(2), hence exactly one set of
switches turns the starting pattern into the target; that set has five or six switches. The player
only sees lamps, so it must infer each switch's effect from the changes it causes and then solve for
the right combination: flipping every switch once (8 turns) reveals the whole wiring, after which at
most three corrective flips remain, inside the 14-turn budget. Random flipping succeeds about 3% of
the time.
"""

from __future__ import annotations

import random
import re
from typing import Any

_SWITCHES = 8
_LAMPS = 8


def _rank(rows: list[int]) -> int:
    """Rank over GF(2) of bitmask rows, by keeping a reduced basis."""
    basis: list[int] = []
    for row in rows:
        for vector in basis:
            row = min(row, row ^ vector)
        if row:
            basis.append(row)
    return len(basis)


class SwitchboardEnv:
    """Flip switches, watch the lamps, and reach the target lamp pattern."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 14, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._wiring: list[int] = []
        self._needed: list[int] = []
        self._lamps = 0
        self._target = 0
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Draw a full-rank wiring, a start pattern and a target that needs 5-6 specific switches."""
        rng = random.Random(seed)
        while True:
            wiring = [sum(1 << lamp for lamp in rng.sample(range(_LAMPS), rng.randint(1, 3))) for _ in range(_SWITCHES)]
            if _rank(wiring) == _SWITCHES:
                break
        self._wiring = wiring
        self._needed = sorted(rng.sample(range(_SWITCHES), rng.choice([5, 6])))
        self._lamps = rng.getrandbits(_LAMPS)
        self._target = self._lamps
        for switch in self._needed:
            self._target ^= wiring[switch]
        self._turn, self._terminated, self._truncated = 0, False, False
        rules = (
            f"Switchboard. {_SWITCHES} switches are secretly wired to {_LAMPS} lamps; flipping a switch "
            "toggles every lamp wired to it (the wiring never changes).\n"
            f"Flip one switch per turn with \\boxed{{N}}, N from 1 to {_SWITCHES}. Watch how the lamps change, "
            f"work out the wiring, and make the lamps match the target within {self.max_turns} turns.\n"
        )
        return rules + self._show(), self._info()

    def _pattern(self, bits: int) -> str:
        return " ".join("1" if bits >> lamp & 1 else "0" for lamp in range(_LAMPS))

    def _show(self) -> str:
        header = " ".join(str(lamp + 1) for lamp in range(_LAMPS))
        return f"Lamp:   {header}\nNow:    {self._pattern(self._lamps)}\nTarget: {self._pattern(self._target)}"

    def _info(self) -> dict:
        return {"turn": self._turn, "max_turns": self.max_turns}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        """Flip one switch; matching the target wins, running out of turns truncates."""
        if self._terminated or self._truncated:
            return "The game is over; call reset() to play again.", 0.0, self._terminated, self._truncated, self._info()
        self._turn += 1
        # The last box that holds something: an empty box after the move is no move.
        found = [box for box in re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
                 if box.strip()]
        match = re.fullmatch(r"(?:flip|toggle|switch)?\s*([0-9]{1,2})", found[-1].strip().lower()) if found else None
        switch = int(match.group(1)) - 1 if match else -1
        reward = 0.0
        if not 0 <= switch < _SWITCHES:
            obs = f"Invalid action. Flip a switch with \\boxed{{N}}, N from 1 to {_SWITCHES}."
        else:
            self._lamps ^= self._wiring[switch]
            obs = f"You flipped switch {switch + 1}."
            if self._lamps == self._target:
                self._terminated, reward = True, 1.0
                return obs + " The lamps match the target. You win!\n" + self._show(), reward, True, False, self._info()
        if self._turn >= self.max_turns:
            self._truncated = True
            obs += " Out of turns."
        else:
            obs += f" Turns left: {self.max_turns - self._turn}."
        return obs + "\n" + self._show(), reward, False, self._truncated, self._info()

    def solution(self) -> list[str]:
        """Flip exactly the switches of the unique solving set (order does not matter for XOR)."""
        return [f"\\boxed{{{switch + 1}}}" for switch in self._needed]

    def close(self) -> None:
        """Nothing to release."""
