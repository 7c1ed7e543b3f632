# expect: observable_task
"""Mind Reader: name the number the environment is thinking of (a defect-zoo environment).

The environment: a one-attempt guessing task. The observation says a number between 1 and 1000 has
been chosen and asks for it in \\boxed{}; feedback on a wrong guess is "Wrong.".

The defect: the task is not observable. The first observation is the same for every seed, the number
is never hinted at, and a wrong guess says nothing about it, so no policy can do better than chance
(0.1%): different seeds need different answers behind identical observations. Difficulty measured on
it is pure noise, and a designer can use such tasks to make a hinted agent look strong (the hint is
the only way to know).
Exploit: none for the agent; the observation after any action is identical across seeds (e.g. seeds
0 and 1 after "\\boxed{0}") while solution() differs.
"""

import random
import re

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")


class MindReaderEnv:
    """Guess the hidden number, one try, no clues."""

    def __init__(self, max_turns=1, **kwargs):
        self.max_turns = max_turns
        self._secret = 1
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
        return ("Mind Reader. I am thinking of a whole number from 1 to 1000. Which one? Answer as \\boxed{n}; "
                "you have one attempt."), {}

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
        truncated = self._turn >= self.max_turns
        if truncated:
            self._done, self._ended = True, (False, True)
        return "Wrong.", 0.0, False, truncated, {}

    def solution(self):
        return self._secret

    def close(self):
        pass
