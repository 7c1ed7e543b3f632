"""Anagram Desk: unscramble a seven- or eight-letter word (skill: Vocabulary).

A common English word is dealt with its letters shuffled. Each turn the player either guesses the
word or spends the turn on a command: `shuffle` deals the same letters in a new order and `hint`
shows the opening letters of the word (one more letter per hint, two hints at most). Five turns.
"""

from __future__ import annotations

import random
import re
from typing import Any

_WORDS = ("JOURNEY", "KITCHEN", "PYRAMID", "BLANKET", "CAPTAIN", "DOLPHIN", "FREEDOM", "GIRAFFE", "HARVEST",
          "MONSTER", "NETWORK", "OCTOPUS", "PENGUIN", "RAINBOW", "SCIENCE", "UNICORN", "VOLCANO", "WHISPER",
          "ZEPPELIN", "BISCUIT", "CHIMNEY", "DIAMOND", "ELEPHANT", "FOUNTAIN", "GOLDFISH", "HOSPITAL", "JUGGLER",
          "KANGAROO", "LIBRARY", "MUSHROOM", "NOTEBOOK", "ORCHARD", "ROOSTER", "SANDWICH", "TRUMPET", "UMBRELLA",
          "VAMPIRE", "WARDROBE", "YOGHURT", "BALLOON")


class AnagramDeskEnv:
    """Unscramble the word; `hint` and `shuffle` cost a turn each."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 5, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._rng = random.Random(0)
        self._word = ""
        self._tiles = ""
        self._hints = 0
        self._turn = 0
        self._over = False
        self._won = False
        self.reset()

    def _scramble(self) -> str:
        while True:
            tiles = "".join(self._rng.sample(self._word, len(self._word)))
            if tiles != self._word:
                return tiles

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Deal a word and scramble it."""
        self._rng = random.Random(seed)
        self._word = self._rng.choice(_WORDS)
        self._tiles = self._scramble()
        self._hints, self._turn, self._over, self._won = 0, 0, False, False
        text = (
            f"Anagram Desk. Unscramble: {' '.join(self._tiles)} ({len(self._word)} letters).\n"
            "Guess with \\boxed{WORD}. Commands (each costs a turn): \\boxed{shuffle} re-deals the letters, "
            "\\boxed{hint} shows how the word begins (two hints at most).\n"
            f"You have {self.max_turns} turns."
        )
        return text, self._info()

    def _info(self) -> dict:
        return {"turn": self._turn, "hints": self._hints, "length": len(self._word)}

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict]:
        """A guess or a command."""
        if self._over:
            return "This word is done. reset() deals a new one.", 0.0, self._won, not self._won, self._info()
        self._turn += 1
        found = [b for b in re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "") if b.strip()]
        word = found[-1].strip().upper() if found else ""
        if word == "SHUFFLE":
            self._tiles = self._scramble()
            obs = f"Re-dealt: {' '.join(self._tiles)}."
        elif word == "HINT":
            if self._hints >= 2:
                obs = "No hints left."
            else:
                self._hints += 1
                shown = self._word[: self._hints]
                obs = f"Hint {self._hints}/2: the word starts {shown}..."
        elif re.fullmatch(r"[A-Z]{2,12}", word):
            if word == self._word:
                self._over, self._won = True, True
                return f"{word} is right!", 1.0, True, False, self._info()
            if sorted(word) != sorted(self._word):
                obs = f"{word} does not use the letters {' '.join(self._tiles)}."
            else:
                obs = f"{word} uses the right letters, but it is not the word."
        else:
            obs = "Guess a word in capitals, e.g. \\boxed{" + self._tiles + "}, or use \\boxed{hint} / \\boxed{shuffle}."
        if self._turn >= self.max_turns:
            self._over = True
            return obs + f" Out of turns; the word was {self._word}.", 0.0, False, True, self._info()
        return f"{obs} Turns left: {self.max_turns - self._turn}.", 0.0, False, False, self._info()

    def solution(self) -> list[str]:
        """The word itself."""
        return [f"\\boxed{{{self._word}}}"]

    def close(self) -> None:
        """Nothing to release."""
