# expect: valid
"""Lone Prime: pick the only prime among six listed numbers (skill: Number Theory).

Looks suspicious: the answer is printed in the observation (it is one of the options) and a
"random observation token" policy sometimes copies it.
Why it is correct: it is multiple choice by design: exactly one of the six numbers is prime, the
five others are composites with no small factor (products of two primes above 7, so they "look"
prime), and the position of the prime is shuffled by the seed; one attempt, so copying an option
wins one time in six at best.
"""

import random
import re

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")
_SMALL_PRIMES = [p for p in range(11, 100) if all(p % d for d in range(2, int(p ** 0.5) + 1))]


def _is_prime(n):
    return n > 1 and all(n % d for d in range(2, int(n ** 0.5) + 1))


class LonePrimeEnv:
    """Exactly one prime among six."""

    def __init__(self, max_turns=1, **kwargs):
        self.max_turns = max_turns
        self._options = []
        self._answer = 101
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        while True:
            self._answer = rng.randint(200, 9999)
            if _is_prime(self._answer):
                break
        composites = set()
        while len(composites) < 5:
            a, b = rng.sample(_SMALL_PRIMES, 2)
            if 200 <= a * b <= 9999:
                composites.add(a * b)
        self._options = [self._answer] + sorted(composites)
        rng.shuffle(self._options)
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        return (f"Lone Prime. Exactly one of these numbers is prime: {', '.join(map(str, self._options))}. Which one? "
                "Answer with the number in \\boxed{}; you have one attempt."), {}

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
        feedback = "Wrong." if found else "Answer with one of the numbers in \\boxed{}."
        truncated = self._turn >= self.max_turns
        if truncated:
            self._done, self._ended = True, (False, True)
            feedback += f" The prime was {self._answer}."
        return feedback, 0.0, False, truncated, {}

    def solution(self):
        return self._answer

    def close(self):
        pass
