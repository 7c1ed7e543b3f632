"""WordHuntEnv: find a hidden four-letter word from a published list using letter feedback.

Thirty candidate words are listed each episode; the secret is one of them. Each guess (a listed word)
is marked letter by letter: '+' right letter in the right place, '?' in the word but elsewhere, '-' not
(there are no more copies) in the word. Six guesses; reading the marks narrows thirty words to one in
three or four. Guesses are case-insensitive and may carry stray spaces.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from typing import Any

_POOL = (
    "bark bell bird boat bold bone book cake calm card cart coal coin cold cord corn crow dart dawn deer "
    "desk dish dock door dove drum dusk fern film fish flag foam fork frog gate gift glow goat gold harp "
    "hawk heap herb hill hive horn iron jade kite knot lake lamp lane leaf lime lion loaf lock mint mist "
    "moon moss nest note oath park pear pine plum pond rain reed ring road rock rope rose sail salt sand "
    "seed ship silk snow sock star stem tide toad tree vine wave wolf yarn"
).split()
_BOX = re.compile(r"\\boxed\{([^{}]*)\}")


def _marks(guess: str, secret: str) -> str:
    """Per-letter marks with repeated letters counted once each, as in Wordle."""
    marks = ["-"] * 4
    spare = Counter(s for g, s in zip(guess, secret) if g != s)
    for i, (g, s) in enumerate(zip(guess, secret)):
        if g == s:
            marks[i] = "+"
        elif spare[g] > 0:
            marks[i] = "?"
            spare[g] -= 1
    return "".join(marks)


class WordHuntEnv:
    """Feedback word game over a listed vocabulary."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 6, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._words: list[str] = []
        self._secret = ""
        self._turn = 0
        self._log: list[str] = []
        self._status = (False, False)
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        rng = random.Random(seed)
        self._words = sorted(rng.sample(_POOL, 30))
        self._secret = rng.choice(self._words)
        self._turn, self._log, self._status = 0, [], (False, False)
        text = (
            "Find my secret word. It is one of these thirty:\n  " + " ".join(self._words) + "\n"
            f"Guess one listed word per reply in a box, e.g. \\boxed{{{self._words[0]}}}. Each letter is marked "
            "'+' (right place), '?' (in the word, elsewhere) or '-' (not in the word). You have "
            f"{self.max_turns} replies; a reply that is not one listed word still uses a turn."
        )
        return text, {"candidates": 30, "turns_left": self.max_turns}

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict[str, Any]]:
        if any(self._status):
            return "The game is over; call reset().", 0.0, *self._status, {"turns_left": 0}
        self._turn += 1
        words = {re.sub(r"\s+", "", c).lower() for c in _BOX.findall(action if isinstance(action, str) else "")}
        words = {w for w in words if w in self._words}
        reward, terminated = 0.0, False
        if len(words) != 1:
            obs = "Box exactly one listed word (e.g. \\boxed{" + self._words[0] + "})."
        else:
            guess = words.pop()
            if guess == self._secret:
                obs, reward, terminated = f"{guess.upper()} is right!", 1.0, True
            else:
                self._log.append(f"{guess.upper()} {_marks(guess, self._secret)}")
                obs = "Your guesses:\n  " + "\n  ".join(self._log)
        truncated = not terminated and self._turn >= self.max_turns
        if truncated:
            obs += f"\nNo turns left: the word was {self._secret.upper()}."
        self._status = (terminated, truncated)
        return obs, reward, terminated, truncated, {"turns_left": self.max_turns - self._turn}

    def solution(self) -> list[str]:
        """Always guess the candidate that leaves the fewest words in the worst case."""
        candidates, moves = list(self._words), []
        while True:
            def worst(word: str) -> int:
                return max(Counter(_marks(word, c) for c in candidates).values())
            guess = min(candidates, key=lambda w: (worst(w), w))
            moves.append(guess)
            if guess == self._secret:
                return moves
            seen = _marks(guess, self._secret)
            candidates = [c for c in candidates if c != guess and _marks(guess, c) == seen]

    def close(self) -> None:
        """Nothing to release."""
