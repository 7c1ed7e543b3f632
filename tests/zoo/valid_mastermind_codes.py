# expect: valid
"""Code Breaker: a Mastermind game with four pegs and six colours (skill: Deduction).

Looks suspicious: the first observation is identical for every seed and says nothing about the code,
so a check that compares first observations across seeds, or wants the answer derivable from the
first observation, may call it unobservable.

Why it is correct: the code is revealed by the feedback: every guess is scored with black pegs (right
colour, right place) and white pegs (right colour, wrong place), and a careful player always
succeeds within 6 guesses; the budget is 10. There are 1296 codes, so a blind guess wins under 0.1%.
"""

import random
import re
from collections import Counter

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")
COLOURS = "RGBYOP"


class CodeBreakerEnv:
    """Black/white peg feedback."""

    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns
        self._code = "RGBY"
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        self._code = "".join(rng.choice(COLOURS) for _ in range(4))
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        return ("Code Breaker. I have chosen a secret code of 4 colours from R, G, B, Y, O, P (repeats allowed). "
                "Guess it as \\boxed{RGBY}. After each guess you get black pegs (right colour, right place) and "
                f"white pegs (right colour, wrong place). You have {self.max_turns} guesses."), {}

    def step(self, action):
        if self._done:
            return "The game is over; call reset().", 0.0, self._ended[0], self._ended[1], {}
        self._turn += 1
        action = action if isinstance(action, str) else str(action)
        found = _BOXED.findall(action)
        guess = re.sub(r"[\s,]", "", found[-1]).upper() if found else ""
        if not re.fullmatch(f"[{COLOURS}]{{4}}", guess):
            feedback = "A guess is 4 letters from R, G, B, Y, O, P, e.g. \\boxed{RRGB}."
        elif guess == self._code:
            self._done, self._ended = True, (True, False)
            return "Four black pegs: you cracked the code!", 1.0, True, False, {}
        else:
            black = sum(a == b for a, b in zip(guess, self._code))
            common = sum((Counter(guess) & Counter(self._code)).values())
            feedback = f"{guess}: {black} black, {common - black} white."
        truncated = self._turn >= self.max_turns
        if truncated:
            self._done, self._ended = True, (False, True)
            feedback += f" Out of guesses: the code was {self._code}."
        return feedback, 0.0, False, truncated, {}

    def solution(self):
        return [f"\\boxed{{{self._code}}}"]

    def close(self):
        pass
