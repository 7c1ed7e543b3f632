"""Capital Scramble: unscramble the letters of a European capital (skill: vocabulary / anagrams).

The letters of a European capital city are shuffled and shown in upper case. The player writes the
city, e.g. \\boxed{Madrid}. Three turns are available. A guess that uses exactly the shown letters
but in the wrong arrangement is treated as a near miss and the player may try again; any other wrong
city ends the episode.
"""

from __future__ import annotations

import random
import re
from typing import Any

_CAPITALS = ["Amsterdam", "Athens", "Belgrade", "Berlin", "Bern", "Bratislava", "Brussels", "Bucharest",
             "Budapest", "Copenhagen", "Dublin", "Helsinki", "Kyiv", "Lisbon", "Ljubljana", "London",
             "Madrid", "Minsk", "Oslo", "Paris", "Prague", "Riga", "Rome", "Sofia", "Stockholm", "Tallinn",
             "Tirana", "Valletta", "Vienna", "Vilnius", "Warsaw", "Zagreb"]


class CapitalScrambleEnv:
    """Unscramble a European capital city name."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._city = "Paris"
        self._letters = ""
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        self._city = rng.choice(_CAPITALS)
        letters = list(self._city.upper())
        while "".join(letters) == self._city.upper():
            rng.shuffle(letters)
        self._letters = "".join(letters)
        self._turn, self._terminated, self._truncated = 0, False, False
        text = (f"Capital Scramble. Rearrange these letters to spell a European capital city: {self._letters}\n"
                f"Answer with the city in a box, e.g. \\boxed{{Madrid}}. You have {self.max_turns} turns.")
        return text, {"turn": 0, "length": len(self._city)}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._terminated or self._truncated:
            return "Episode over.", 0.0, self._terminated, self._truncated, {"turn": self._turn}
        self._turn += 1
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
        guess = re.sub(r"[^a-z]", "", boxes[-1].lower()) if boxes else ""
        target = self._city.lower()
        reward = 0.0
        if not guess:
            obs = "Write a city name in a box, e.g. \\boxed{Madrid}."
        elif guess == target:
            self._terminated, reward = True, 1.0
            obs = f"Correct, it is {self._city}!"
        elif sorted(guess) == sorted(target):
            obs = f"Close: those are the right letters, but not in the right order. Did you mean {self._city}?"
        else:
            self._terminated = True
            obs = "That is not the city."
        if not self._terminated and self._turn >= self.max_turns:
            self._truncated = True
            obs += " No turns left."
        return obs, reward, self._terminated, self._truncated, {"turn": self._turn}

    def solution(self) -> str:
        return self._city

    def close(self) -> None:
        """Nothing to release."""
