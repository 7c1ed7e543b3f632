"""Five-letter word guessing with per-letter colour feedback (six guesses)."""

from __future__ import annotations

import random
import re
from typing import Any

_WORDS = ["CRANE", "SLATE", "PLUMB", "GHOST", "BRISK", "FLAME", "MOUNT", "QUILT", "SHARD", "TOWEL", "VIVID",
          "WALTZ", "YEAST", "ZEBRA", "ADOBE", "BLUNT", "CHIRP", "DWARF", "EPOCH", "FROST", "GLYPH", "HUMID",
          "IVORY", "JOUST", "KNELT", "LEMON", "MIRTH", "NYMPH", "OCEAN", "PRISM", "ROBIN", "SPOKE", "THUMB",
          "ULCER", "VAPOR", "WRECK", "XENON", "YACHT", "CLOVE", "DRAKE", "FEMUR", "GRAIL", "HASTE", "INLET"]


class LetterGridEnv:
    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 6, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._word = "CRANE"
        self._game = ""
        self._guesses = 0
        self._turn = 0
        self._done = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        self._word = rng.choice(_WORDS)
        self._game = "".join(f"{(ord(c) - 65 + 7) % 26:02d}" for c in self._word)
        self._guesses, self._turn, self._done = 0, 0, False
        obs = ("Guess the hidden five-letter English word. After each guess you get one mark per letter: "
               "G = right letter, right place; Y = in the word, elsewhere; . = not in the word.\n"
               f"You have {self.max_turns} guesses. Reply like \\boxed{{CRANE}}.\n(game #{self._game})")
        return obs, {"guesses_left": self.max_turns}

    def _marks(self, guess: str) -> str:
        marks = ["."] * 5
        left: dict[str, int] = {}
        for i, (g, w) in enumerate(zip(guess, self._word)):
            if g == w:
                marks[i] = "G"
            else:
                left[w] = left.get(w, 0) + 1
        for i, g in enumerate(guess):
            if marks[i] == "." and left.get(g, 0) > 0:
                marks[i] = "Y"
                left[g] -= 1
        return "".join(marks)

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._done:
            return "The game is over.", 0.0, True, False, {}
        self._turn += 1
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
        guess = boxes[-1].strip().upper() if boxes else ""
        reward, terminated = 0.0, False
        if not re.fullmatch(r"[A-Z]{5}", guess):
            obs = "A guess is exactly five letters, e.g. \\boxed{CRANE}."
        elif guess == self._word:
            reward, terminated, obs = 1.0, True, f"{guess} -> GGGGG. Solved!"
        else:
            obs = f"{guess} -> {self._marks(guess)}"
        truncated = not terminated and self._turn >= self.max_turns
        if truncated:
            obs += " Out of guesses."
        elif not terminated:
            obs += f" ({self.max_turns - self._turn} left, game #{self._game})"
        self._done = terminated or truncated
        return obs, reward, terminated, truncated, {"guesses_left": self.max_turns - self._turn}

    def solution(self) -> str:
        return self._word

    def close(self) -> None:
        pass
