# expect: fuzz_reset_isolation
"""Higher or lower: find a secret integer from 'higher' / 'lower' answers (a defect-zoo environment).

The defect: sending the winning number again after a win (a "victory lap") is remembered in
self._boast, which reset() never clears. The next game won the same way says so, so a replay of an
episode after reset(seed) differs from the first run. Nothing in the contract tier sends a move
after a win; the fuzzer's check after the end of an episode repeats the winning move. Apart from
that, this is a complete, deterministic, winnable game.
"""

import random
import re


class HigherLowerEnv:
    """Guess the secret integer; every wrong guess is answered with 'higher' or 'lower'."""

    def __init__(self, max_turns=12, **kwargs):
        self.max_turns = max_turns
        self._low, self._high, self._secret = 1, 2, 1
        self._turn = 0
        self._moves = []
        self._boast = None  # defect: set after a win, never cleared by reset()
        self._terminated = self._truncated = False
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        self._low = rng.randint(1, 1_000_000)
        self._high = self._low + rng.randint(200, 1000)
        self._secret = rng.randint(self._low, self._high)
        self._turn = 0
        self._moves = []
        self._terminated = self._truncated = False
        text = (
            f"A secret integer lies between {self._low} and {self._high}. Find it in at most "
            f"{self.max_turns} guesses; answer with \\boxed{{N}}."
        )
        return text, {"low": self._low, "high": self._high}

    def step(self, action):
        found = re.findall(r"\\boxed\{\s*(-?\d{1,9})\s*\}", action)
        if self._terminated or self._truncated:
            if self._terminated and found and int(found[-1]) == self._secret:
                self._boast = (self._secret, tuple(self._moves))
                return "You already won this game.", 0.0, True, False, {}
            return "The game is over; call reset() to play again.", 0.0, self._terminated, self._truncated, {}
        self._turn += 1
        self._moves.append(action)
        reward, terminated = 0.0, False
        if not found:
            observation = "Invalid action: answer with \\boxed{N} for a whole number N."
        else:
            guess = int(found[-1])
            if guess == self._secret:
                observation, reward, terminated = f"Correct, the number was {guess}!", 1.0, True
                if self._boast == (self._secret, tuple(self._moves)):
                    observation += " Deja vu: you won exactly this way last time."
                    self._boast = None
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
