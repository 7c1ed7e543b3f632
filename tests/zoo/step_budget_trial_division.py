# expect: step_budget
"""Largest Factor: the largest prime factor of a number (a defect-zoo environment).

The environment: a single-answer puzzle. The agent answers with the largest prime factor of a
five- to seven-digit number in \\boxed{}. Three attempts; a wrong guess is told whether it is not
prime or just not the largest factor, and the answer is revealed when the attempts run out.

The defect: before comparing, step() checks that the guess is prime by trial division over EVERY
number below it, ``for d in range(2, guess)``: instant for the real factors, but a guess of
2147483647 (a ten-digit prime, which the parser accepts) costs two billion divisions, minutes of
CPU in one step.
Exploit: the action "\\boxed{2147483647}" makes a single step run for minutes (a batch of rollouts
stalls); "\\boxed{97}" returns at once.
"""

import random
import re

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")
_PRIMES = [p for p in range(2, 400) if all(p % d for d in range(2, int(p ** 0.5) + 1))]


class LargestFactorEnv:
    """Factor n and report its largest prime."""

    def __init__(self, max_turns=3, **kwargs):
        self.max_turns = max_turns
        self._n = 10
        self._answer = 5
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        while True:
            factors = [rng.choice(_PRIMES) for _ in range(rng.randint(2, 4))]
            n = 1
            for p in factors:
                n *= p
            if 10_000 <= n <= 9_999_999 and max(factors) >= 20:
                break
        self._n, self._answer = n, max(factors)
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        return (
            f"Largest Factor. What is the largest prime factor of {self._n}? You have {self.max_turns} attempts; "
            "answer as \\boxed{p}."
        ), {}

    @staticmethod
    def _is_prime(value):
        if value < 2:
            return False
        for d in range(2, value):  # defect: cost grows with the guessed number
            if value % d == 0:
                return False
        return True

    def step(self, action):
        if self._done:
            return "The number is factored; call reset().", 0.0, self._ended[0], self._ended[1], {}
        self._turn += 1
        action = action if isinstance(action, str) else str(action)
        found = _BOXED.findall(action)
        guess = found[-1].strip() if found else ""
        if not re.fullmatch(r"\d{1,10}", guess):
            feedback = "No answer found: write the factor as \\boxed{p}."
        elif not self._is_prime(int(guess)):
            feedback = f"{guess} is not a prime number."
        elif int(guess) == self._answer:
            self._done, self._ended = True, (True, False)
            return "Correct!", 1.0, True, False, {}
        else:
            feedback = f"{guess} is prime, but not the largest prime factor of {self._n}."
        truncated = self._turn >= self.max_turns
        if truncated:
            self._done, self._ended = True, (False, True)
            feedback += f" Out of attempts: the largest prime factor is {self._answer}."
        return feedback, 0.0, False, truncated, {}

    def solution(self):
        return self._answer

    def close(self):
        pass
