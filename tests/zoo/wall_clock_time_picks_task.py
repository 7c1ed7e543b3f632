# expect: wall_clock
"""Daily Sequence: continue a "sequence of the day" (a defect-zoo environment).

The environment: a single-answer puzzle. An arithmetic-geometric sequence is shown; the agent answers
with the next term in \\boxed{}. Three attempts; the answer is revealed when they run out.

The defect: the task depends on the clock: the generator is seeded with the seed AND the current day
(``int(time.time() // 86400)``), so the same seed gives a different sequence, and a different
answer, every day. Within one validation run everything looks deterministic; a replay buffer,
evaluation set or regret estimate recorded yesterday no longer matches today's environment.
Exploit: with ``time.time`` patched to two different days, reset(seed) gives different observations
and different solutions for the same seed (every seed).
"""

import random
import re
import time

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")


class DailySequenceEnv:
    """x(n+1) = r x(n) + d."""

    def __init__(self, max_turns=3, **kwargs):
        self.max_turns = max_turns
        self._terms = []
        self._answer = 0
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        self.reset()

    def reset(self, seed=None):
        day = int(time.time() // 86400)  # defect: the task changes with the date
        rng = random.Random(f"{seed}-{day}")
        ratio, offset = rng.randint(2, 4), rng.randint(-9, 9)
        terms = [rng.randint(1, 9)]
        for _ in range(5):
            terms.append(terms[-1] * ratio + offset)
        self._terms, self._answer = terms[:5], terms[5]
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        return (
            f"Daily Sequence. Each term is the previous one times a fixed whole number, plus a fixed whole "
            f"number: {', '.join(map(str, self._terms))}. What comes next? You have {self.max_turns} attempts; "
            "answer as \\boxed{n}."
        ), {}

    def step(self, action):
        if self._done:
            return "Come back tomorrow; call reset().", 0.0, self._ended[0], self._ended[1], {}
        self._turn += 1
        action = action if isinstance(action, str) else str(action)
        found = _BOXED.findall(action)
        guess = found[-1].strip() if found else ""
        if re.fullmatch(r"-?\d{1,15}", guess) and int(guess) == self._answer:
            self._done, self._ended = True, (True, False)
            return "Correct!", 1.0, True, False, {}
        feedback = "No answer found: write the term as \\boxed{n}." if not found else "That is not the next term."
        truncated = self._turn >= self.max_turns
        if truncated:
            self._done, self._ended = True, (False, True)
            feedback += f" Out of attempts: the next term is {self._answer}."
        return feedback, 0.0, False, truncated, {}

    def solution(self):
        return self._answer

    def close(self):
        pass
