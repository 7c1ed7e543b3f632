# expect: answer_format
"""Prime Factors: list the prime factorisation of a number (a defect-zoo environment).

The environment: a single-answer puzzle. The agent writes the prime factors of a number in
non-decreasing order, with repetition, "comma-separated" in \\boxed{} (e.g. \\boxed{2, 2, 3, 7} for
84). Three attempts; the answer is revealed when they run out.

The defect: the checker compares the reply with the factors joined by SPACES ("2 2 3 7"), so the
comma-separated list the task asks for never matches; solution() returns the space-separated form.
Exploit: none for the agent; "\\boxed{2, 2, 3, 7}" (as instructed) loses on every seed while
"\\boxed{2 2 3 7}" wins.
"""

import random
import re

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")


class PrimeFactorsEnv:
    """Factorise n."""

    def __init__(self, max_turns=3, **kwargs):
        self.max_turns = max_turns
        self._n = 84
        self._factors = [2, 2, 3, 7]
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        primes = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37]
        self._factors = sorted(rng.choice(primes) for _ in range(rng.randint(4, 6)))
        self._n = 1
        for p in self._factors:
            self._n *= p
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        return (
            f"Prime Factors. Write {self._n} as a product of primes: list the prime factors in non-decreasing "
            "order, repeated as often as they divide it, comma-separated, e.g. \\boxed{2, 2, 3, 7} for 84. "
            f"You have {self.max_turns} attempts."
        ), {}

    def step(self, action):
        if self._done:
            return "The number is factored; call reset().", 0.0, self._ended[0], self._ended[1], {}
        self._turn += 1
        action = action if isinstance(action, str) else str(action)
        found = _BOXED.findall(action)
        guess = " ".join(found[-1].split()) if found else ""
        if guess == " ".join(map(str, self._factors)):  # defect: only the space-separated form matches
            self._done, self._ended = True, (True, False)
            return "Correct!", 1.0, True, False, {}
        feedback = "No answer found: write the factors in \\boxed{}." if not found else "That is not the factorisation."
        truncated = self._turn >= self.max_turns
        if truncated:
            self._done, self._ended = True, (False, True)
            feedback += f" Out of attempts: {self._n} = {' x '.join(map(str, self._factors))}."
        return feedback, 0.0, False, truncated, {}

    def solution(self):
        return " ".join(map(str, self._factors))

    def close(self):
        pass
