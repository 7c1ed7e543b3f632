"""Gallows Words: guess a hidden word letter by letter (skill: Vocabulary, Deduction).

The word is drawn from a list of common English words of six to nine letters. Each turn the player
guesses one letter or the whole word. A wrong letter or a wrong word costs one of six lives; guessing
a letter again costs nothing but the turn. The first letter is shown from the start. The word must be found within 16 turns and before the
lives run out.
"""

from __future__ import annotations

import random
import re
from typing import Any

_WORDS = (
    "garden planet window silver bridge rocket castle forest harbor island jacket kitten lantern marble "
    "needle orange pepper quartz rabbit saddle tunnel valley walnut yellow zipper anchor basket candle "
    "dragon engine falcon guitar hammer insect jungle kettle ladder magnet napkin oyster parrot puzzle "
    "ribbon spider tomato violin wizard blanket cabinet dolphin feather gallery holiday journey kingdom "
    "library monster octopus penguin pyramid rainbow sandals teacher unicorn village weather whistle "
    "backpack calendar dinosaur elephant fountain hospital kangaroo mountain notebook painting sunshine "
    "treasure umbrella vacation waterfall chocolate adventure butterfly carpenter lighthouse"
).split()
_LIVES = 6
_BOX = re.compile(r"\\boxed\{([^{}]*)\}")


def _move_text(action: Any) -> str:
    """The last non-empty \\boxed{...} of a reply, stripped; '' when there is none."""
    if not isinstance(action, str):
        return ""
    found = [box.strip() for box in _BOX.findall(action) if box.strip()]
    return found[-1] if found else ""


class GallowsWordsEnv:
    """Guess letters (or the whole word) before six misses."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 16, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._word = ""
        self._guessed: set[str] = set()
        self._misses: list[str] = []
        self._lives = _LIVES
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Draw the hidden word."""
        rng = random.Random(seed)
        self._word = rng.choice([w for w in _WORDS if 6 <= len(w) <= 9])
        self._guessed, self._misses, self._lives = {self._word[0]}, [], _LIVES
        self._turn, self._terminated, self._truncated = 0, False, False
        intro = (
            f"Gallows Words. A hidden English word of {len(self._word)} letters; its first letter is shown (and counts "
            "as guessed). Guess one letter per turn, e.g. "
            "\\boxed{e}, or the whole word, e.g. \\boxed{garden}.\n"
            f"A wrong letter or word costs a life; you have {_LIVES}. Guessing a letter again only costs the turn.\n"
            f"Find the word within {self.max_turns} turns to win.\n"
            f"Word: {self._masked(self._guessed)}"
        )
        return intro, self._info()

    def _masked(self, shown: Any) -> str:
        return " ".join(ch.upper() if ch in shown else "_" for ch in self._word)

    def _info(self) -> dict:
        return {"turn": self._turn, "max_turns": self.max_turns, "lives": self._lives}

    def _win(self, obs: str) -> tuple[str, float, bool, bool, dict]:
        self._terminated = True
        return obs + f" The word is {self._word.upper()}. You win!", 1.0, True, False, self._info()

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict]:
        """Score one guess; revealing the whole word wins, losing every life ends the game."""
        if self._terminated or self._truncated:
            return "The game is over; call reset() to play again.", 0.0, self._terminated, self._truncated, self._info()
        self._turn += 1
        guess = _move_text(action).lower()
        if not re.fullmatch(r"[a-z]+", guess) or 1 < len(guess) != len(self._word):
            obs = f"Invalid guess. Write one letter, e.g. \\boxed{{e}}, or a {len(self._word)}-letter word."
        elif len(guess) > 1:
            if guess == self._word:
                return self._win("Correct!")
            self._lives -= 1
            obs = f"'{guess.upper()}' is not the word. Lives: {self._lives}."
        elif guess in self._guessed:
            obs = f"You already tried '{guess.upper()}'. Word: {self._masked(self._guessed)}."
        else:
            self._guessed.add(guess)
            if guess in self._word:
                obs = f"Yes, '{guess.upper()}' is in the word."
                if set(self._word) <= self._guessed:
                    return self._win(obs)
            else:
                self._lives -= 1
                self._misses.append(guess.upper())
                obs = f"No '{guess.upper()}'. Lives: {self._lives}."
        if self._lives <= 0:
            self._terminated = True
            return obs + f" You are out of lives; the word was {self._word.upper()}.", 0.0, True, False, self._info()
        if self._turn >= self.max_turns:
            self._truncated = True
            obs += f" Out of turns; the word was {self._word.upper()}."
            return obs, 0.0, False, True, self._info()
        misses = ", ".join(self._misses) or "none"
        obs += f"\nWord: {self._masked(self._guessed)}   Misses: {misses}   Turns left: {self.max_turns - self._turn}."
        return obs, 0.0, False, False, self._info()

    def solution(self) -> list[str]:
        """Every letter of the word not yet guessed, in order of first appearance."""
        return [f"\\boxed{{{ch}}}" for ch in dict.fromkeys(self._word) if ch not in self._guessed]

    def close(self) -> None:
        """Nothing to release."""
