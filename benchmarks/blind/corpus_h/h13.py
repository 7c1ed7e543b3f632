"""Gallows Words: guess a hidden word letter by letter (skill: Vocabulary and Probability).

The hidden word (6-9 letters) comes from a fixed list of common English words. Each turn the player
names a letter, which is revealed wherever it occurs, or tries to solve the whole word; the first
letter is shown from the start. Six wrong letters or wrong solves lose the game; the turn budget is
14. Guessing frequent letters first and
then reasoning about the pattern wins; random letters usually do not.
"""

from __future__ import annotations

import random
import re
from typing import Any

_WORDS = (
    "GARDEN", "PLANET", "WINTER", "BRIDGE", "CASTLE", "FOREST", "HARBOR", "ISLAND", "JUNGLE", "KITTEN",
    "LADDER", "MARKET", "NEEDLE", "ORANGE", "PENCIL", "RABBIT", "SILVER", "TEMPLE", "VELVET", "WALNUT",
    "BLANKET", "CABINET", "DOLPHIN", "ELEPHANT", "FEATHER", "GLACIER", "HOLIDAY", "JOURNEY", "KINGDOM",
    "LANTERN", "MORNING", "NOTEBOOK", "OCTOPUS", "PAINTER", "RAINBOW", "SANDWICH", "THUNDER", "UNIFORM",
    "VOLCANO", "WEATHER", "CHIMNEY", "DIAMOND", "FISHERMAN", "GRAVITY", "HIGHWAY", "MUSHROOM", "PYRAMID",
    "SPARROW", "TRUMPET", "WHISTLE", "CARAVAN", "COMPASS", "MINERAL", "HAMMOCK", "BUTTONS", "STADIUM",
)
_BOX = re.compile(r"\\boxed\{([^{}]*)\}")
_LIVES = 6


class GallowsWordsEnv:
    """Reveal the hidden word one letter at a time before six misses."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 14, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._word = ""
        self._tried: list[str] = []
        self._misses = 0
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Draw the hidden word."""
        rng = random.Random(seed)
        self._word = rng.choice(_WORDS)
        self._tried, self._misses = [self._word[0]], 0
        self._turn, self._terminated, self._truncated = 0, False, False
        intro = (
            f"Gallows Words. Guess the hidden {len(self._word)}-letter English word; its first letter is "
            "shown (and counts as tried).\n"
            "Each turn name one letter, e.g. \\boxed{E}, or solve the word outright, e.g. \\boxed{solve GARDEN}.\n"
            f"A letter not in the word or a wrong solve costs a life; you have {_LIVES} lives and "
            f"{self.max_turns} turns.\n" + self._render()
        )
        return intro, self._info()

    def _mask(self) -> str:
        return " ".join(ch if ch in self._tried else "_" for ch in self._word)

    def _render(self) -> str:
        tried = " ".join(self._tried) or "none"
        return f"Word: {self._mask()}   Tried: {tried}   Lives: {_LIVES - self._misses}"

    def _info(self) -> dict:
        return {"turn": self._turn, "max_turns": self.max_turns, "lives": _LIVES - self._misses}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        """Try a letter or a solve; revealing the word wins, six misses lose."""
        if self._terminated or self._truncated:
            return "The game is over; call reset() to play again.", 0.0, self._terminated, self._truncated, self._info()
        self._turn += 1
        boxes = [b for b in _BOX.findall(action) if b.strip()] if isinstance(action, str) else []
        text = boxes[-1].strip().upper() if boxes else ""
        solve = re.fullmatch(r"SOLVE\s+([A-Z]+)", text)
        if solve:
            if solve.group(1) == self._word:
                self._terminated = True
                return f"Yes, the word is {self._word}!", 1.0, True, False, self._info()
            self._misses += 1
            obs = f"{solve.group(1)[:20]} is not the word."
        elif len(text) == 1 and "A" <= text <= "Z":
            letter = text
            if letter in self._tried:
                shown = " ".join(f"[{ch}]" if ch == letter else (ch if ch in self._tried else "_") for ch in self._word)
                obs = f"You already tried {letter}: {shown}"
            else:
                self._tried.append(letter)
                if letter in self._word:
                    obs = f"{letter} appears {self._word.count(letter)} time(s)."
                    if all(ch in self._tried for ch in self._word):
                        self._terminated = True
                        return obs + f" The word is {self._word}!", 1.0, True, False, self._info()
                else:
                    self._misses += 1
                    obs = f"No {letter} in the word."
        else:
            obs = "Invalid move. Name one letter, e.g. \\boxed{E}, or write \\boxed{solve WORD}."
        if self._misses >= _LIVES:
            self._terminated = True
            return obs + " No lives left: you lose.", 0.0, True, False, self._info()
        if self._turn >= self.max_turns:
            self._truncated = True
            obs += " Out of turns."
        else:
            obs += f" Turns left: {self.max_turns - self._turn}."
        return obs + "\n" + self._render(), 0.0, False, self._truncated, self._info()

    def solution(self) -> list[str]:
        """Solve the word outright."""
        return [f"\\boxed{{solve {self._word}}}"]

    def close(self) -> None:
        """Nothing to release."""
