# expect: feasible
"""Shipping Quote: the price of a parcel from weight and distance bands (a defect-zoo environment).

The environment: a single-answer puzzle. A parcel's price is a base fee plus a rate per kg plus a
rate per 100 km; seeds of 2**20 and above use an "extended tariff" that sometimes (about one task in
twenty) adds a remote-area surcharge, stated in the observation. The agent answers with the price in
\\boxed{}. Three attempts; the answer is revealed when they run out.

The defect: solution() forgets the remote-area surcharge, so it is wrong exactly on the seeds >=
2**20 that draw one: never on small seeds, on 5 of the 50 large sanity seeds.
Exploit: none for the agent; the feasibility certificate is wrong on rare large seeds, which a check
that replays solution() on small seeds never sees.
"""

import random
import re

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")


class ShippingQuoteEnv:
    """base + kg * rate + ceil(km / 100) * rate (+ surcharge)."""

    def __init__(self, max_turns=3, **kwargs):
        self.max_turns = max_turns
        self._base = 5
        self._kg = 1
        self._per_kg = 1
        self._km = 100
        self._per_100km = 1
        self._surcharge = 0
        self._answer = 0
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        self.reset()

    def _price(self):
        return self._base + self._kg * self._per_kg + -(-self._km // 100) * self._per_100km

    def reset(self, seed=None):
        rng = random.Random(seed)
        self._base = rng.randint(3, 20)
        self._kg = rng.randint(1, 40)
        self._per_kg = rng.randint(2, 9)
        self._km = rng.randint(50, 3000)
        self._per_100km = rng.randint(1, 6)
        extended = seed is not None and seed >= 1 << 20
        self._surcharge = rng.randint(15, 60) if extended and rng.random() < 1 / 20 else 0
        self._answer = self._price() + self._surcharge
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        extra = f" The address is in a remote area: add a flat surcharge of {self._surcharge}." if self._surcharge else ""
        return (
            f"Shipping Quote. Base fee {self._base}; {self._per_kg} per kg; {self._per_100km} per started 100 km. "
            f"The parcel weighs {self._kg} kg and travels {self._km} km.{extra} What is the price? You have "
            f"{self.max_turns} attempts; answer as \\boxed{{n}}."
        ), {}

    def step(self, action):
        if self._done:
            return "The parcel is on its way; call reset().", 0.0, self._ended[0], self._ended[1], {}
        self._turn += 1
        action = action if isinstance(action, str) else str(action)
        found = _BOXED.findall(action)
        guess = found[-1].strip() if found else ""
        if re.fullmatch(r"\d{1,12}", guess) and int(guess) == self._answer:
            self._done, self._ended = True, (True, False)
            return "Correct!", 1.0, True, False, {}
        feedback = "No answer found: write the price as \\boxed{n}." if not found else "That is not the price."
        truncated = self._turn >= self.max_turns
        if truncated:
            self._done, self._ended = True, (False, True)
            feedback += f" Out of attempts: the price is {self._answer}."
        return feedback, 0.0, False, truncated, {}

    def solution(self):
        return self._price()  # defect: the remote-area surcharge is left out

    def close(self):
        pass
