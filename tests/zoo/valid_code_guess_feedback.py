# expect: valid
"""Four Colours: find a hidden code of four colour letters, with feedback after each guess (skill: Deduction).

Looks suspicious: answers are four letters from R, G, B, Y, O, P; the checker reads the last box that
is a well-formed code (four letters of that alphabet, spaces and case ignored) and skips the rest, so
``\\boxed{RGBY} or maybe \\boxed{RGBYx}`` is read as RGBY.

Why it is correct: a malformed box is no guess. Each legal guess gets the number of exact and
colour-only matches, as in Mastermind, and eight guesses are needed by a good strategy now and then;
the 1,296 codes make a blind guess a 1 in 1,296 chance per turn.
"""

import itertools
import random
import re

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")
COLOURS = "RGBYOP"
CODES = ["".join(c) for c in itertools.product(COLOURS, repeat=4)]


def _score(guess, code):
    exact = sum(a == b for a, b in zip(guess, code))
    common = sum(min(guess.count(c), code.count(c)) for c in COLOURS)
    return exact, common - exact


class FourColoursEnv:
    """Mastermind with four pegs and six colours."""

    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns
        self._code = "RGBY"
        self._guesses = []
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        self._code = "".join(rng.choice(COLOURS) for _ in range(4))
        self._guesses = []
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        return ("Guess the hidden code: four pegs, each one of R, G, B, Y, O, P (repeats allowed). After each "
                "guess you learn how many pegs are right in colour and place, and how many are right in colour "
                f"only. Reply with a code in \\boxed{{}}, e.g. \\boxed{{RGBO}}. {self.max_turns} guesses."), {}

    def step(self, action):
        if self._done:
            return "The game is over; call reset().", 0.0, self._ended[0], self._ended[1], {}
        self._turn += 1
        action = action if isinstance(action, str) else str(action)
        codes = ["".join(box.split()).upper() for box in _BOXED.findall(action)]
        codes = [code for code in codes if len(code) == 4 and all(c in COLOURS for c in code)]
        truncated = self._turn >= self.max_turns
        if not codes:
            if truncated:
                self._done, self._ended = True, (False, True)
            return "Write a code of four letters from R, G, B, Y, O, P in \\boxed{}.", 0.0, False, truncated, {}
        guess = codes[-1]
        self._guesses.append(guess)
        if guess == self._code:
            self._done, self._ended = True, (True, False)
            return "Cracked it!", 1.0, True, False, {}
        exact, colour = _score(guess, self._code)
        feedback = f"{guess}: {exact} right in place, {colour} right colour in the wrong place."
        if truncated:
            self._done, self._ended = True, (False, True)
            feedback += f" Out of guesses; the code was {self._code}."
        return feedback, 0.0, False, truncated, {}

    def solution(self):
        candidates = list(CODES)
        moves = []
        for _ in range(self.max_turns):
            guess = candidates[0]
            moves.append(f"\\boxed{{{guess}}}")
            if guess == self._code:
                return moves
            result = _score(guess, self._code)
            candidates = [c for c in candidates if _score(guess, c) == result]
        return moves

    def close(self):
        pass
