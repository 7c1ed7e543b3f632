# expect: observable_task
"""High Low: find a secret number with higher/lower clues -- that never come (a defect-zoo environment).

The environment: a guess-the-number game, 1 to 500, ten attempts. The rules promise "after each wrong
guess you will be told whether the secret is higher or lower", which would make binary search win
every time.

The defect: the feedback branch was never written: every wrong guess is answered "Not it.", so the
promised information never appears and the observations are the same for every seed whatever the
agent does, while the secret differs.
Exploit: none for the agent; binary search following the promised rules wins only by luck (about 2%),
and the observations after any action sequence are identical on seeds 0 and 1.
"""

import random
import re

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")


class HighLowEnv:
    """A guessing game whose clues are missing."""

    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns
        self._secret = 1
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        self._secret = rng.randint(1, 500)
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        return ("High Low. I picked a secret whole number from 1 to 500. After each wrong guess you will be "
                f"told whether the secret is higher or lower. You have {self.max_turns} guesses; answer as "
                "\\boxed{n}."), {}

    def step(self, action):
        if self._done:
            return "The game is over; call reset().", 0.0, self._ended[0], self._ended[1], {}
        self._turn += 1
        action = action if isinstance(action, str) else str(action)
        found = _BOXED.findall(action)
        guess = found[-1].strip() if found else ""
        if re.fullmatch(r"\d{1,12}", guess) and int(guess) == self._secret:
            self._done, self._ended = True, (True, False)
            return "Correct!", 1.0, True, False, {}
        feedback = "Not it."  # defect: the promised higher/lower clue is missing
        truncated = self._turn >= self.max_turns
        if truncated:
            self._done, self._ended = True, (False, True)
            feedback += " No guesses left."
        return feedback, 0.0, False, truncated, {}

    def solution(self):
        return self._secret

    def close(self):
        pass
