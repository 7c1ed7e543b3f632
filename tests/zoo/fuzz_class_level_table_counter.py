# expect: fuzz_instance_isolation
"""Higher or lower: find a secret integer from 'higher' / 'lower' answers (a defect-zoo environment).

The defect: tables_opened is a class attribute, so every instance created in the same module bumps
one shared counter, and the second instance's observations name a different table than the first
one's for the same seed. Separate sessions load separate modules and agree, so the contract's
two-instance checks pass; the fuzzer's sibling instance in the same module does not. Apart from
that, this is a complete, deterministic, winnable game.
"""

import random
import re


class HigherLowerEnv:
    """Guess the secret integer; every wrong guess is answered with 'higher' or 'lower'."""

    tables_opened = 0  # defect: shared by every instance of the class

    def __init__(self, max_turns=12, **kwargs):
        self.max_turns = max_turns
        HigherLowerEnv.tables_opened += 1
        self._table = HigherLowerEnv.tables_opened
        self._low, self._high, self._secret = 1, 2, 1
        self._turn = 0
        self._terminated = self._truncated = False
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        self._low = rng.randint(1, 1_000_000)
        self._high = self._low + rng.randint(200, 1000)
        self._secret = rng.randint(self._low, self._high)
        self._turn = 0
        self._terminated = self._truncated = False
        text = (
            f"Table {self._table}. A secret integer lies between {self._low} and {self._high}. Find it in "
            f"at most {self.max_turns} guesses; answer with \\boxed{{N}}."
        )
        return text, {"low": self._low, "high": self._high}

    def step(self, action):
        if self._terminated or self._truncated:
            return "The game is over; call reset() to play again.", 0.0, self._terminated, self._truncated, {}
        self._turn += 1
        found = re.findall(r"\\boxed\{\s*(-?\d{1,9})\s*\}", action)
        reward, terminated = 0.0, False
        if not found:
            observation = "Invalid action: answer with \\boxed{N} for a whole number N."
        else:
            guess = int(found[-1])
            if guess == self._secret:
                observation, reward, terminated = f"Correct, the number was {guess}!", 1.0, True
            elif guess < self._secret:
                observation = f"{guess} is too low: higher."
            else:
                observation = f"{guess} is too high: lower."
        truncated = not terminated and self._turn >= self.max_turns
        if truncated:
            observation += f" Out of turns; the number was {self._secret}."
        self._terminated, self._truncated = terminated, truncated
        return observation, reward, terminated, truncated, {"turn": self._turn}

    def solution(self):
        """The winning action: guess the secret directly."""
        return [f"\\boxed{{{self._secret}}}"]

    def close(self):
        pass
