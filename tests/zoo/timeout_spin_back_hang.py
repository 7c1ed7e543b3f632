# expect: timeout
"""Safe Cracker: open a four-dial safe from arithmetic clues (a defect-zoo environment).

The defect: a number that belongs to another dial spins the dials one step at a time toward that
dial, counting down; for a dial further ahead the countdown never reaches it and step() loops
forever. The contract probes and the solution enter the dials in order; the fuzzer's solution-move
draws jump ahead. Apart from that, this is a complete, deterministic, winnable game.

The exploit probes (a constant answer repeated) reach the hanging branch. (It was a fuzz-only case before the probes existed.)
"""

import random
import re


class SafeCrackerEnv:
    """Enter the four dial numbers in order, one per turn; a wrong number spins the dials back."""

    def __init__(self, max_turns=8, **kwargs):
        self.max_turns = max_turns
        self._code = [0, 0, 0, 0]
        self._progress = 0
        self._turn = 0
        self._done = False
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        p, q, d = rng.randint(11, 31), rng.randint(11, 31), rng.randint(5, 40)
        self._code = [p * q + i * d for i in range(4)]
        self._progress = 0
        self._turn = 0
        self._done = False
        text = (
            f"A safe has four dials. The first dial is set to {p} times {q}; each following dial is "
            f"{d} more than the one before. Enter the dial numbers in order, one per turn, as "
            f"\\boxed{{N}}. A wrong number spins all dials back to the start. You have {self.max_turns} turns."
        )
        return text, {}

    def step(self, action):
        if self._done:
            return "The game is over; call reset() to play again.", 0.0, True, False, {}
        self._turn += 1
        found = re.findall(r"\\boxed\{\s*(-?\d{1,6})\s*\}", action)
        reward, terminated = 0.0, False
        if not found:
            observation = "Invalid action: answer with \\boxed{N} for a whole number N."
        else:
            guess = int(found[-1])
            if guess == self._code[self._progress]:
                self._progress += 1
                if self._progress == len(self._code):
                    observation, reward, terminated = "Click! The safe opens. You win!", 1.0, True
                else:
                    observation = f"Click! Dial {self._progress} is set; {len(self._code) - self._progress} to go."
            elif guess in self._code:
                target = self._code.index(guess)
                while self._progress != target:  # defect: never ends when target > progress
                    self._progress -= 1
                observation = f"That number belongs to dial {target + 1}; the dials spin back to it."
            else:
                self._progress = 0
                observation = f"{guess} is wrong for this dial. The dials spin back to the start."
        truncated = not terminated and self._turn >= self.max_turns
        if truncated:
            observation += " Out of turns; the safe stays shut."
        self._done = terminated or truncated
        return observation, reward, terminated, truncated, {"dials_set": self._progress}

    def solution(self):
        """The four dial numbers, in order."""
        return [f"\\boxed{{{n}}}" for n in self._code]

    def close(self):
        pass
