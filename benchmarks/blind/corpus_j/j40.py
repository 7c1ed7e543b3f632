"""Matchstick Duel: a take-away game against a careful opponent (skill: Game Theory).

A row of 21-40 matches lies on the table. Players alternate; on each turn a player removes between
one and a per-game maximum (3, 4 or 5) matches. Whoever takes the last match wins. You move first
from a position that can be won, but the opponent plays perfectly once given the chance, so a single
careless move loses the game.
"""

from __future__ import annotations

import random
import re
from typing import Any


class MatchstickDuelEnv:
    """Take 1..cap matches per turn; taking the last match wins."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 16, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._rng = random.Random(0)
        self._pile = 0
        self._cap = 3
        self._turn = 0
        self._ended = False
        self._won = False
        self._log: list[str] = []
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Lay out a winnable pile and pick the per-turn maximum."""
        self._rng = random.Random(seed)
        self._cap = self._rng.choice((3, 4, 5))
        while True:
            self._pile = self._rng.randint(21, 40)
            if self._pile % (self._cap + 1):
                break
        self._turn, self._ended, self._won = 0, False, False
        self._log = []
        text = (
            f"Matchstick Duel. There are {self._pile} matches on the table.\n"
            f"On each turn a player takes 1 to {self._cap} matches; whoever takes the LAST match wins.\n"
            "You go first, then your opponent answers. Take matches with \\boxed{take 2} (or just \\boxed{2}).\n"
            f"The duel lasts at most {self.max_turns} of your turns."
        )
        return text, self._info()

    def _info(self) -> dict:
        return {"turn": self._turn, "pile": self._pile, "cap": self._cap}

    def _reply(self) -> int:
        """The opponent: leave a multiple of cap + 1 when it can, else take a random legal amount."""
        best = self._pile % (self._cap + 1)
        return best if best else self._rng.randint(1, min(self._cap, self._pile))

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict]:
        """Your take, then the opponent's."""
        if self._ended:
            return "The duel is over; reset() starts another.", 0.0, self._won, not self._won, self._info()
        self._turn += 1
        found = [b for b in re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "") if b.strip()]
        m = re.fullmatch(r"(?:take\s+)?(-?\d{1,4})(?:\s+match(?:es)?)?", found[-1].strip().lower()) if found else None
        if not m:
            obs = f"Say how many matches you take, e.g. \\boxed{{take {self._cap}}}."
        else:
            n = int(m.group(1))
            if not 1 <= n <= self._cap:
                obs = f"You may take between 1 and {self._cap} matches."
            elif n > self._pile:
                obs = f"Only {self._pile} matches are left."
            else:
                self._pile -= n
                if self._pile == 0:
                    self._ended, self._won = True, True
                    return f"You take {n} and clear the table. You win!", 1.0, True, False, self._info()
                k = self._reply()
                self._pile -= k
                if self._pile == 0:
                    self._ended = True
                    return f"You take {n}; your opponent takes the last {k}. You lose.", 0.0, True, False, self._info()
                obs = f"You take {n}, your opponent takes {k}. {self._pile} matches remain."
        if self._turn >= self.max_turns:
            self._ended = True
            return obs + " The duel is called off (turn limit).", 0.0, False, True, self._info()
        return obs, 0.0, False, False, self._info()

    def solution(self) -> list[str]:
        """Always leave a multiple of cap + 1; the opponent's replies follow the seeded generator."""
        rng_state = self._rng.getstate()
        pile, moves = self._pile, []
        while pile > 0:
            take = pile % (self._cap + 1)
            moves.append(f"\\boxed{{take {take}}}")
            pile -= take
            if pile:
                pile -= pile % (self._cap + 1) or self._rng.randint(1, min(self._cap, pile))
        self._rng.setstate(rng_state)
        return moves

    def close(self) -> None:
        """Nothing to release."""
