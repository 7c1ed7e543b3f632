# expect: valid
"""Prime Gap: the next prime after a number (skill: Number Theory).

Looks suspicious: step() runs a primality test on the number in the agent's reply, the pattern
behind "a step whose cost grows with the number in the action" (trial division up to the guess).
Why it is correct: the cost is bounded whatever the agent sends: the parser accepts at most ten
digits, replies above 10**7 are refused before any arithmetic ("too large"), and the test divides
only up to the square root, about 3,200 divisions at worst, well under a millisecond.
"""

import random
import re

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")
LIMIT = 10 ** 7


def _is_prime(n):
    if n < 2:
        return False
    d = 2
    while d * d <= n:
        if n % d == 0:
            return False
        d += 1
    return True


class PrimeGapEnv:
    """Smallest prime greater than n."""

    def __init__(self, max_turns=3, **kwargs):
        self.max_turns = max_turns
        self._n = 100
        self._answer = 101
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        self._n = rng.randint(1000, 2_000_000)
        candidate = self._n + 1
        while not _is_prime(candidate):
            candidate += 1
        self._answer = candidate
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        return (f"Prime Gap. What is the smallest prime number greater than {self._n}? You have {self.max_turns} "
                "attempts; answer as \\boxed{p}."), {}

    def step(self, action):
        if self._done:
            return "The search is over; call reset().", 0.0, self._ended[0], self._ended[1], {}
        self._turn += 1
        action = action if isinstance(action, str) else str(action)
        found = _BOXED.findall(action)
        guess = found[-1].strip() if found else ""
        if not re.fullmatch(r"\d{1,10}", guess):
            feedback = "No answer found: write the prime as \\boxed{p}."
        elif int(guess) > LIMIT:
            feedback = f"{guess} is far too large: the answer is below {LIMIT}."
        elif int(guess) == self._answer:
            self._done, self._ended = True, (True, False)
            return "Correct!", 1.0, True, False, {}
        elif int(guess) <= self._n:
            feedback = f"{guess} is not greater than {self._n}."
        elif not _is_prime(int(guess)):
            feedback = f"{guess} is not prime."
        else:
            feedback = f"{guess} is prime, but there is a smaller prime above {self._n}."
        truncated = self._turn >= self.max_turns
        if truncated:
            self._done, self._ended = True, (False, True)
            feedback += f" Out of attempts: the next prime is {self._answer}."
        return feedback, 0.0, False, truncated, {}

    def solution(self):
        return self._answer

    def close(self):
        pass
