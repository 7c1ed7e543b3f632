"""Number Hunt: pin down a hidden integer with remainder queries (skill: Mathematical Reasoning).

A secret integer x lies in [1, N] with N between 1000 and 2500. Each turn the player either asks for
the remainder of x modulo one of five moduli offered this episode (``mod 11``) or guesses x outright
(``guess 1234``; a wrong guess answers "higher" or "lower"). The budget is far too small for plain
bisection (seven halvings cover at most 127 numbers), so the player has to choose moduli whose least
common multiple covers the whole range, which shared factors can spoil, and then combine the
remainders with the Chinese remainder theorem into the one number consistent with all of them.
"""

from __future__ import annotations

import itertools
import math
import random
import re
from typing import Any


def _lcm(values: tuple[int, ...]) -> int:
    """Least common multiple of a tuple of positive integers."""
    result = 1
    for value in values:
        result = result * value // math.gcd(result, value)
    return result


class NumberHuntEnv:
    """Find the secret number using remainder queries and higher/lower guesses."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 7, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._upper = 1
        self._moduli: list[int] = []
        self._secret = 1
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Draw a range, a set of moduli in which only some triples cover the range, and a secret."""
        rng = random.Random(seed)
        while True:
            upper = rng.randint(1000, 2500)
            moduli = sorted(rng.sample(range(3, 20), 5))
            covering = [t for t in itertools.combinations(moduli, 3) if _lcm(t) >= upper]
            if 1 <= len(covering) <= 6:  # the choice of moduli must matter
                break
        self._upper, self._moduli = upper, moduli
        self._secret = rng.randint(1, upper)
        self._turn, self._terminated, self._truncated = 0, False, False
        rules = (
            f"Number Hunt. A secret integer x was chosen uniformly from 1 to {upper}.\n"
            f"Each turn, do ONE of:\n"
            f"  \\boxed{{mod K}}   -> learn x mod K, where K must be one of {', '.join(map(str, moduli))}\n"
            f"  \\boxed{{guess X}} -> win if X == x, otherwise you are told 'higher' or 'lower'\n"
            f"You have {self.max_turns} turns; bisection alone cannot cover the range in time, so pick "
            f"moduli whose least common multiple is at least {upper} and combine the remainders."
        )
        return rules, self._info()

    def _info(self) -> dict:
        return {"turn": self._turn, "max_turns": self.max_turns, "upper": self._upper,
                "moduli": list(self._moduli)}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        """Answer one query or guess; a correct guess wins, running out of turns truncates."""
        if self._terminated or self._truncated:
            return "The game is over; call reset() to play again.", 0.0, self._terminated, self._truncated, self._info()
        self._turn += 1
        # The last box that holds something: an empty box after the move is no move.
        found = [box for box in re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
                 if box.strip()]
        match = re.fullmatch(r"(mod|guess)?\s*([0-9]{1,9})", found[-1].strip().lower()) if found else None
        reward = 0.0
        if match is None:
            obs = "Invalid action. Use \\boxed{mod K} or \\boxed{guess X} with whole numbers."
        elif match.group(1) == "mod":
            k = int(match.group(2))
            if k in self._moduli:
                obs = f"x mod {k} = {self._secret % k}."
            else:
                obs = f"Modulus {k} is not offered. Choose one of {', '.join(map(str, self._moduli))}."
        else:
            guess = int(match.group(2))
            if guess == self._secret:
                self._terminated, reward = True, 1.0
                obs = f"Correct! The secret number was {self._secret}."
            else:
                obs = f"{guess} is wrong: x is {'higher' if self._secret > guess else 'lower'}."
        if not self._terminated and self._turn >= self.max_turns:
            self._truncated = True
            obs += f" Out of turns: the secret number was {self._secret}."
        elif not self._terminated:
            obs += f" Turns left: {self.max_turns - self._turn}."
        return obs, reward, self._terminated, self._truncated, self._info()

    def solution(self) -> list[str]:
        """Query the first covering triple of moduli, then guess the unique consistent number."""
        triple = next(t for t in itertools.combinations(self._moduli, 3) if _lcm(t) >= self._upper)
        residues = {k: self._secret % k for k in triple}
        answer = next(x for x in range(1, self._upper + 1) if all(x % k == r for k, r in residues.items()))
        return [f"\\boxed{{mod {k}}}" for k in triple] + [f"\\boxed{{guess {answer}}}"]

    def close(self) -> None:
        """Nothing to release."""
