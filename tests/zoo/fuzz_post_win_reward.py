# expect: fuzz_post_episode
"""Higher or lower: find a secret integer from 'higher' / 'lower' answers (a defect-zoo environment).

The defect: step() checks for the right number before it checks whether the game is over, so after
a win, sending the winning number again pays reward 1.0 once more. The contract's probe after the
end sends \\boxed{0} after running out of turns and sees the game-over reply; only a repeat of the
winning move reaches the bug. Apart from that, this is a complete, deterministic, winnable game.
"""

import random
import re


class HigherLowerEnv:
    """Guess the secret integer; every wrong guess is answered with 'higher' or 'lower'."""

    def __init__(self, max_turns=12, **kwargs):
        self.max_turns = max_turns
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
            f"A secret integer lies between {self._low} and {self._high}. Find it in at most "
            f"{self.max_turns} guesses; answer with \\boxed{{N}}."
        )
        return text, {"low": self._low, "high": self._high}

    def step(self, action):
        found = re.findall(r"\\boxed\{\s*(-?\d{1,9})\s*\}", action)
        if found and int(found[-1]) == self._secret:  # defect: checked before the game-over test
            self._terminated = True
            return f"Correct, the number was {self._secret}!", 1.0, True, False, {"turn": self._turn}
        if self._terminated or self._truncated:
            return "The game is over; call reset() to play again.", 0.0, self._terminated, self._truncated, {}
        self._turn += 1
        if not found:
            observation = "Invalid action: answer with \\boxed{N} for a whole number N."
        elif int(found[-1]) < self._secret:
            observation = f"{found[-1]} is too low: higher."
        else:
            observation = f"{found[-1]} is too high: lower."
        truncated = self._turn >= self.max_turns
        if truncated:
            observation += f" Out of turns; the number was {self._secret}."
        self._truncated = truncated
        return observation, 0.0, False, truncated, {"turn": self._turn}

    def solution(self):
        """The winning action: guess the secret directly."""
        return [f"\\boxed{{{self._secret}}}"]

    def close(self):
        pass
