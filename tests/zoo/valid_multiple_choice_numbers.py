# expect: valid
"""Median Pick: choose the median of a list among four listed numbers (skill: Data Analysis).

Looks suspicious: the answer is printed in the observation (it is one of the four options), so a
naive "answer appears in the observation" leak check fires.

Why it is correct: it is multiple choice by design. The options are the median and three plausible
distractors (the mean, the middle value of the UNSORTED list, and a neighbour of the median in the
sorted list), and their order is shuffled by the seed, so copying an option by position wins a
quarter of the time at best; one attempt.
"""

import random
import re
import statistics

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")


class MedianPickEnv:
    """Median of nine numbers, multiple choice."""

    def __init__(self, max_turns=1, **kwargs):
        self.max_turns = max_turns
        self._values = []
        self._options = []
        self._answer = 0
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        while True:
            self._values = rng.sample(range(10, 1000), 9)
            ordered = sorted(self._values)
            median = ordered[4]
            distractors = {round(statistics.mean(self._values)), self._values[4], ordered[3], ordered[5]}
            distractors.discard(median)
            if len(distractors) >= 3:
                break
        self._answer = median
        self._options = [median] + rng.sample(sorted(distractors), 3)
        rng.shuffle(self._options)
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        return (f"Median Pick. Numbers: {', '.join(map(str, self._values))}. Which of these is their median: "
                f"{', '.join(map(str, self._options))}? Answer with the chosen number in \\boxed{{}}; "
                "you have one attempt."), {}

    def step(self, action):
        if self._done:
            return "The question is closed; call reset().", 0.0, self._ended[0], self._ended[1], {}
        self._turn += 1
        action = action if isinstance(action, str) else str(action)
        found = _BOXED.findall(action)
        guess = found[-1].strip() if found else ""
        if re.fullmatch(r"\d{1,6}", guess) and int(guess) == self._answer:
            self._done, self._ended = True, (True, False)
            return "Correct!", 1.0, True, False, {}
        feedback = "Wrong." if found else "Answer with one of the options in \\boxed{}."
        truncated = self._turn >= self.max_turns
        if truncated:
            self._done, self._ended = True, (False, True)
            feedback += f" The median was {self._answer}."
        return feedback, 0.0, False, truncated, {}

    def solution(self):
        return self._answer

    def close(self):
        pass
