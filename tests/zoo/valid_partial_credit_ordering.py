# expect: valid
"""Shelf Order: put five books in order of publication year (skill: Sorting), with honest partial credit.

Looks suspicious: a wrong order is paid. Each book in its right place earns 0.15 (at most 0.6 for a
near miss that places four), and the episode ends with the first well-formed order, so an ordering of
the five titles that is not right still earns something, including another seed's order of the same
letters.

Why it is correct: the payment is for the part of the answer that is right: different wrong orders earn
different amounts, an empty or malformed reply earns nothing, and a blind order earns 0.15 on average
(one place in five), well under a win. The rule is stated in the task.
"""

import random
import re

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")
LETTERS = "ABCDE"


class ShelfOrderEnv:
    """Order five books, labelled A to E, from oldest to newest."""

    def __init__(self, max_turns=1, **kwargs):
        self.max_turns = max_turns
        self._years = {}
        self._order = "ABCDE"
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        years = rng.sample(range(1800, 2020), 5)
        self._years = dict(zip(LETTERS, years))
        self._order = "".join(sorted(LETTERS, key=lambda letter: self._years[letter]))
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        listed = "\n".join(f"{letter}: first published in {year}" for letter, year in self._years.items())
        return (f"Five books:\n{listed}\nWrite their letters from oldest to newest as one word in \\boxed{{}}, e.g. "
                "\\boxed{EDCBA}. A fully right order scores 1; otherwise each book in its right place scores 0.15."), {}

    def step(self, action):
        if self._done:
            return "The shelf is done; call reset().", 0.0, self._ended[0], self._ended[1], {}
        self._turn += 1
        action = action if isinstance(action, str) else str(action)
        found = _BOXED.findall(action)
        guess = "".join(found[-1].split()).upper().replace(",", "") if found else ""
        if sorted(guess) != sorted(LETTERS):
            truncated = self._turn >= self.max_turns
            if truncated:
                self._done, self._ended = True, (False, True)
            return "Write the five letters A to E once each, e.g. \\boxed{EDCBA}.", 0.0, False, truncated, {}
        self._done, self._ended = True, (True, False)
        if guess == self._order:
            return "Right order!", 1.0, True, False, {}
        placed = sum(a == b for a, b in zip(guess, self._order))
        return f"{placed} of 5 books are in their right place.", round(0.15 * placed, 2), True, False, {}

    def solution(self):
        return self._order

    def close(self):
        pass
