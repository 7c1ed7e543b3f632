# expect: valid
"""Word Pick: find the secret word among twenty listed, with letter feedback (skill: Deduction).

Looks suspicious: the answer is printed in the task (it is one of the twenty listed words), and a player
that picks listed words at random wins now and then within its six guesses: about 6 in 20.

Why it is correct: the list is the game's board, like a multiple-choice question's options. Picking at
random wins what the list implies and no more; winning reliably needs the feedback (how many letters of
the guess sit in the right place).
"""

import random
import re

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")
WORDS = ["bark", "cave", "dune", "fern", "gale", "hive", "iris", "jade", "kelp", "lime", "mist", "nest",
         "opal", "pine", "reef", "sage", "tide", "vale", "wren", "yarn", "moss", "cove", "fawn", "glen"]


class WordPickEnv:
    """The secret is one of twenty listed words."""

    def __init__(self, max_turns=6, **kwargs):
        self.max_turns = max_turns
        self._board = []
        self._secret = "bark"
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        self._board = rng.sample(WORDS, 20)
        self._secret = rng.choice(self._board)
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        return ("The secret word is one of these: " + " ".join(self._board) + ". After each guess you learn how "
                f"many letters are in the right place. Guess a word in \\boxed{{}}; {self.max_turns} guesses."), {}

    def step(self, action):
        if self._done:
            return "The game is over; call reset().", 0.0, self._ended[0], self._ended[1], {}
        self._turn += 1
        action = action if isinstance(action, str) else str(action)
        found = _BOXED.findall(action)
        guess = "".join(found[-1].split()).lower() if found else ""
        if guess == self._secret:
            self._done, self._ended = True, (True, False)
            return "Found it!", 1.0, True, False, {}
        if guess in self._board:
            right = sum(a == b for a, b in zip(guess, self._secret))
            feedback = f"{guess}: {right} letter(s) in the right place."
        else:
            feedback = "Guess one of the listed words."
        truncated = self._turn >= self.max_turns
        if truncated:
            self._done, self._ended = True, (False, True)
            feedback += f" Out of guesses; the word was {self._secret}."
        return feedback, 0.0, False, truncated, {}

    def solution(self):
        candidates = list(self._board)
        moves = []
        for _ in range(self.max_turns):
            guess = min(candidates, key=lambda w: max(
                sum(1 for c in candidates if sum(a == b for a, b in zip(w, c)) == k) for k in range(5)))
            moves.append(f"\\boxed{{{guess}}}")
            if guess == self._secret:
                return moves
            right = sum(a == b for a, b in zip(guess, self._secret))
            candidates = [c for c in candidates if c != guess and sum(a == b for a, b in zip(guess, c)) == right]
        return moves

    def close(self):
        pass
