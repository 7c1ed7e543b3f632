# expect: valid
"""Prime Pick: name the three primes among eight listed numbers, with partial credit (skill: Number Theory).

Looks suspicious: a reply that names the right three and, in another box, three other numbers is read as
one answer (every listed number named counts), and a wrong answer that names two primes earns a third.

Why it is correct: the rule is stated: the reward is (primes named - other numbers named) / 3, never below
0, so naming more numbers never pays more, and an answer with no prime in it earns nothing. Partial credit
is for the part of the answer that is right.
"""

import random
import re

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")


def _prime(n):
    return n > 1 and all(n % d for d in range(2, int(n ** 0.5) + 1))


class PrimePickEnv:
    """Three of eight numbers are prime."""

    def __init__(self, max_turns=2, **kwargs):
        self.max_turns = max_turns
        self._numbers = []
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        primes = rng.sample([n for n in range(11, 100) if _prime(n)], 3)
        others = rng.sample([n for n in range(10, 100) if not _prime(n)], 5)
        self._numbers = primes + others
        rng.shuffle(self._numbers)
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        return ("Exactly three of these numbers are prime: " + ", ".join(map(str, self._numbers)) + ".\nName them "
                "in \\boxed{}, separated by commas. Reward: (primes named - other numbers named) / 3, never below "
                "0; all three and nothing else wins."), {}

    def step(self, action):
        if self._done:
            return "The question is closed; call reset().", 0.0, self._ended[0], self._ended[1], {}
        self._turn += 1
        action = action if isinstance(action, str) else str(action)
        named = {int(n) for box in _BOXED.findall(action) for n in re.findall(r"\d+", box)} & set(self._numbers)
        truncated = self._turn >= self.max_turns
        if not named:
            if truncated:
                self._done, self._ended = True, (False, True)
            return "Name numbers from the list in \\boxed{a, b, c}.", 0.0, False, truncated, {}
        primes = sum(_prime(n) for n in named)
        self._done, self._ended = True, (True, False)
        if primes == 3 and len(named) == 3:
            return "All three primes!", 1.0, True, False, {}
        reward = max(0.0, (primes - (len(named) - primes)) / 3)
        return f"{primes} prime(s) and {len(named) - primes} other number(s) named.", round(reward, 4), True, False, {}

    def solution(self):
        return ", ".join(str(n) for n in sorted(n for n in self._numbers if _prime(n)))

    def close(self):
        pass
