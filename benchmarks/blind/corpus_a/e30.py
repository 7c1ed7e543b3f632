"""Word Unscramble: find the everyday word hidden in a jumble of letters (skill: vocabulary).

The letters of a common English word (for example 'window' or 'yellow') are shuffled. The player
writes the word, e.g. \\boxed{garden}. The words were picked to have no other common English
anagram, so there is exactly one right answer. One answer per episode.
"""

from __future__ import annotations

import random
import re
from typing import Any

_WORDS = ["water", "house", "yellow", "window", "pencil", "bridge", "jungle", "rabbit", "monkey", "guitar",
          "summer", "autumn", "family", "school", "doctor", "basket", "bottle", "button", "camera", "coffee",
          "dinner", "island", "letter", "mother", "pepper", "purple", "spring", "ticket", "blanket", "valley",
          "wallet", "jacket", "zipper", "almond", "beetle", "breeze", "carrot", "cheese", "cousin", "dragon",
          "engine", "garlic", "hammer", "helmet", "kitten", "ladder", "lizard", "magnet", "muffin", "needle",
          "pocket", "pickle", "pillow", "puzzle", "rocket", "saddle", "shovel", "sponge", "tomato", "turtle"]


class WordUnscrambleEnv:
    """Unscramble a common word."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._word = "water"
        self._jumble = ""
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        self._word = rng.choice(_WORDS)
        letters = list(self._word)
        while "".join(letters) == self._word:
            rng.shuffle(letters)
        self._jumble = "".join(letters).upper()
        self._turn, self._terminated, self._truncated = 0, False, False
        text = (f"Word Unscramble. Rearrange these letters into a common English word: {self._jumble}\n"
                "Answer with the word in a box, e.g. \\boxed{garden}.")
        return text, {"turn": 0, "letters": len(self._word)}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._terminated or self._truncated:
            return "Episode over.", 0.0, self._terminated, self._truncated, {"turn": self._turn}
        self._turn += 1
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
        guess = boxes[-1].strip().lower() if boxes else ""
        reward = 0.0
        if not re.fullmatch(r"[a-z]{1,20}", guess):
            obs = "Write one word in a box, e.g. \\boxed{garden}."
        else:
            self._terminated = True
            if guess == self._word:
                reward, obs = 1.0, "Correct!"
            else:
                obs = "That is not the word."
        if not self._terminated and self._turn >= self.max_turns:
            self._truncated = True
            obs += " No turns left."
        return obs, reward, self._terminated, self._truncated, {"turn": self._turn}

    def solution(self) -> str:
        return self._word

    def close(self) -> None:
        """Nothing to release."""
