"""Secret Word: a five-letter word game with colour-coded feedback (skill: deduction with vocabulary).

The secret is one of the five-letter words in the game's dictionary. After each guess every letter is
marked G (right letter, right place), Y (in the word, elsewhere) or . (not in the word). Six guesses
are allowed. To help players get a feel for the dictionary, the start screen lists a few warm-up words
from it.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from typing import Any

_DICTIONARY = ["apple", "brave", "crane", "dwarf", "eagle", "flint", "grape", "haste", "ivory", "joker",
               "knelt", "lemon", "mango", "noble", "ocean", "pearl", "quilt", "raven", "stone", "tiger",
               "ultra", "vivid", "whale", "xenon", "yacht", "zebra", "amber", "blaze", "cider", "drift",
               "ember", "frost", "ghost", "honey", "input", "jelly", "kayak", "lunar", "maple", "nerve",
               "olive", "plume", "quart", "risky", "spice", "torch", "unity", "vault", "wheat", "young",
               "event", "ethic", "karma", "kiosk", "valid", "vigor", "xylem", "zesty"]


def _marks(guess: str, secret: str) -> str:
    result = ["."] * 5
    spare = Counter(s for g, s in zip(guess, secret) if g != s)
    for i, (g, s) in enumerate(zip(guess, secret)):
        if g == s:
            result[i] = "G"
        elif spare[g] > 0:
            result[i] = "Y"
            spare[g] -= 1
    return "".join(result)


class SecretWordEnv:
    """Wordle-style guessing over a fixed dictionary."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 6, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._secret = "apple"
        self._history: list[tuple[str, str]] = []
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        self._secret = rng.choice(_DICTIONARY)
        warmup = []
        for letter in self._secret:
            options = [w for w in _DICTIONARY if w[0] == letter and w != self._secret and w not in warmup]
            if options:
                warmup.append(rng.choice(options))
        self._history = []
        self._turn, self._terminated, self._truncated = 0, False, False
        text = ("Secret Word. Guess today's five-letter word; it is in the game's dictionary. After each guess "
                "every letter is marked G (right place), Y (elsewhere in the word) or . (absent). "
                f"You have {self.max_turns} guesses. Write a guess in a box, e.g. \\boxed{{crane}}.\n"
                "Warm-up words from the dictionary: " + ", ".join(w.capitalize() for w in warmup) + ".")
        return text, self._info()

    def _info(self) -> dict:
        return {"turn": self._turn, "history": [list(h) for h in self._history]}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._terminated or self._truncated:
            return "This game is over.", 0.0, self._terminated, self._truncated, self._info()
        self._turn += 1
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
        guess = boxes[-1].strip().lower() if boxes else ""
        reward = 0.0
        if guess not in _DICTIONARY:
            obs = "That is not a five-letter word from the dictionary. Try e.g. \\boxed{crane}."
        else:
            marks = _marks(guess, self._secret)
            self._history.append((guess, marks))
            if guess == self._secret:
                self._terminated, reward = True, 1.0
                obs = f"{guess.upper()} {marks} - you found the word!"
            else:
                obs = "\n".join(f"{g.upper()} {m}" for g, m in self._history)
        if not self._terminated and self._turn >= self.max_turns:
            self._truncated = True
            obs += f"\nOut of guesses. The word was {self._secret.upper()}."
        return obs, reward, self._terminated, self._truncated, self._info()

    def solution(self) -> list[str]:
        """Play the first dictionary word consistent with all feedback so far."""
        candidates = list(_DICTIONARY)
        moves = []
        while True:
            guess = candidates[0]
            moves.append(f"\\boxed{{{guess}}}")
            if guess == self._secret:
                return moves
            marks = _marks(guess, self._secret)
            candidates = [w for w in candidates if _marks(guess, w) == marks]

    def close(self) -> None:
        """Nothing to release."""
