# expect: valid
"""Letters: guess a hidden word one letter at a time (a defect-zoo environment).

The environment: a six-letter word from a short list, shown as blanks; \\boxed{e} guesses a letter, and
five wrong letters lose. Guessing letters in frequency order finds most words.
Looks suspicious: a repeated letter is answered with the board, letters spelled out one by one.
Why it is correct: the board shows only the letters guessed so far, which the player already knows (the
clean twin of ``answer_leak_letters_repeat_spells_word``).
"""

import random
import re

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")
_WORDS = ["candle", "pirate", "meadow", "bishop", "tunnel", "forest", "walnut", "harbor", "cobalt", "sphinx"]


class LettersEnv:
    """Hangman with five lives."""

    def __init__(self, max_turns=16, **kwargs):
        self.max_turns = max_turns
        self._word = "candle"
        self._guessed = set()
        self._lives = 5
        self._turn = 0
        self._done = False
        self.reset()

    def reset(self, seed=None):
        self._word = random.Random(seed).choice(_WORDS)
        self._guessed, self._lives, self._turn, self._done = set(), 5, 0, False
        return (f"Letters. Find a hidden six-letter word: {self._board(self._guessed)}. Guess one letter a turn, "
                f"e.g. \\boxed{{e}}; five wrong letters lose. {self.max_turns} turns."), {}

    def _board(self, letters):
        return "-".join(ch if ch in letters else "?" for ch in self._word)

    def step(self, action):
        if self._done:
            return "The game is over; call reset().", 0.0, True, False, {}
        self._turn += 1
        found = _BOXED.findall(action) if isinstance(action, str) else []
        letter = found[-1].strip().lower() if found else ""
        if not re.fullmatch(r"[a-z]", letter):
            text = "Guess one letter, e.g. \\boxed{e}."
        elif letter in self._guessed:
            text = f"You already guessed {letter}. Board: {self._board(self._guessed)}"
        else:
            self._guessed.add(letter)
            if letter in self._word:
                if set(self._word) <= self._guessed:
                    self._done = True
                    return f"You found {self._word}!", 1.0, True, False, {}
                text = f"Yes. Board: {self._board(self._guessed)}"
            else:
                self._lives -= 1
                text = f"No {letter}. Lives: {self._lives}. Board: {self._board(self._guessed)}"
                if self._lives <= 0:
                    self._done = True
                    return text + " You are out of lives.", 0.0, True, False, {}
        if self._turn >= self.max_turns:
            self._done = True
            return text + " Out of turns.", 0.0, False, True, {}
        return text, 0.0, False, False, {}

    def solution(self):
        return [f"\\boxed{{{ch}}}" for ch in dict.fromkeys(self._word) if ch not in self._guessed]

    def close(self):
        pass
