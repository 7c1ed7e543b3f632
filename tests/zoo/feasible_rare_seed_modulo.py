# expect: feasible
"""Change Maker: the number of ways to pay an amount with given coins (a defect-zoo environment).

The environment: a single-answer puzzle. The agent counts the ways to pay an amount with unlimited
coins of the listed values (order does not matter) and answers in \\boxed{}. Three attempts; the
answer is revealed when they run out.

The defect: on "bonus round" seeds (seed % 64 == 7) the observation and the checker double the
amount, but solution() counts the ways for the undoubled amount, so solution() is wrong on those
seeds: seed 7 of 0..49 and about one seed in 64 elsewhere (3 of the 100 sanity seeds).
Exploit: none for the agent; the validator's feasibility certificate is wrong on rare seeds, so a
solution-replaying check on seeds 0..2 passes and the environment ships broken for 1.6% of rollouts.
"""

import random
import re

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")


def _ways(amount, coins):
    table = [1] + [0] * amount
    for coin in coins:
        for value in range(coin, amount + 1):
            table[value] += table[value - coin]
    return table[amount]


class ChangeMakerEnv:
    """Count coin combinations."""

    def __init__(self, max_turns=3, **kwargs):
        self.max_turns = max_turns
        self._coins = (1, 2)
        self._base_amount = 10
        self._amount = 10
        self._answer = 6
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        while True:
            self._coins = tuple(sorted(rng.sample([1, 2, 3, 5, 7, 10, 12, 20, 25], 4)))
            self._base_amount = rng.randint(30, 120)
            if _ways(self._base_amount, self._coins) >= 50:
                break
        bonus = seed is not None and seed % 64 == 7
        self._amount = self._base_amount * (2 if bonus else 1)
        self._answer = _ways(self._amount, self._coins)
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        intro = "BONUS ROUND: the amount is doubled! " if bonus else ""
        return (
            f"Change Maker. {intro}In how many ways can you pay exactly {self._amount} using any number of "
            f"coins worth {', '.join(map(str, self._coins))}? The order of coins does not matter. You have "
            f"{self.max_turns} attempts; answer as \\boxed{{n}}."
        ), {}

    def step(self, action):
        if self._done:
            return "The till is closed; call reset().", 0.0, self._ended[0], self._ended[1], {}
        self._turn += 1
        action = action if isinstance(action, str) else str(action)
        found = _BOXED.findall(action)
        guess = found[-1].strip() if found else ""
        if re.fullmatch(r"\d{1,15}", guess) and int(guess) == self._answer:
            self._done, self._ended = True, (True, False)
            return "Correct!", 1.0, True, False, {}
        feedback = "No answer found: write the count as \\boxed{n}." if not found else "That is not the number of ways."
        truncated = self._turn >= self.max_turns
        if truncated:
            self._done, self._ended = True, (False, True)
            feedback += f" Out of attempts: there are {self._answer} ways."
        return feedback, 0.0, False, truncated, {}

    def solution(self):
        return _ways(self._base_amount, self._coins)  # defect: ignores the bonus-round doubling

    def close(self):
        pass
