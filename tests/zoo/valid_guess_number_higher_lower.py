# expect: valid
"""Number Hunt: find a secret number from higher/lower clues (skill: Search).

Looks suspicious: the first observation is the same for every seed (it cannot show the secret), so
a check that wants the task visible in the first observation, or that compares first observations
across seeds, may call it unobservable or seed-independent.

Why it is correct: the secret is revealed through the interaction: every wrong guess is answered
"higher" or "lower", so binary search finds any secret in 1..1000 within 10 guesses, and the budget
is 12; different seeds give different observations as soon as the agent guesses. Guessing blindly
wins 0.1% per guess, and the answer is only revealed on the final, truncating step.
"""

import random
import re

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")


class NumberHuntEnv:
    """Binary search with feedback."""

    def __init__(self, max_turns=12, **kwargs):
        self.max_turns = max_turns
        self._secret = 500
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        self._secret = rng.randint(1, 1000)
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        return ("Number Hunt. I have picked a secret whole number from 1 to 1000. Guess it with \\boxed{n}; "
                "after each wrong guess I say whether the secret is higher or lower. "
                f"You have {self.max_turns} guesses."), {}

    def step(self, action):
        if self._done:
            return "The hunt is over; call reset().", 0.0, self._ended[0], self._ended[1], {}
        self._turn += 1
        action = action if isinstance(action, str) else str(action)
        found = _BOXED.findall(action)
        guess = found[-1].strip() if found else ""
        if not re.fullmatch(r"-?\d{1,12}", guess):
            feedback = "Guess a whole number as \\boxed{n}."
        elif int(guess) == self._secret:
            self._done, self._ended = True, (True, False)
            return f"Yes, {self._secret}! You win.", 1.0, True, False, {}
        else:
            feedback = f"The secret is {'higher' if self._secret > int(guess) else 'lower'} than {int(guess)}."
        truncated = self._turn >= self.max_turns
        if truncated:
            self._done, self._ended = True, (False, True)
            feedback += f" Out of guesses: the secret was {self._secret}."
        return feedback, 0.0, False, truncated, {}

    def solution(self):
        return [f"\\boxed{{{self._secret}}}"]

    def close(self):
        pass
