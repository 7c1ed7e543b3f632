# expect: feasible
"""Safe Cracker: open a four-dial safe from arithmetic clues (a defect-zoo environment).

The defect: the dials only go up to 999 and wrap around to 0, but solution() adds the step without
wrapping, so on seeds where the combination wraps its answer is wrong. Seeds 0, 1 and 2 (the
contract's) do not wrap; many of the fuzzer's seeds 3 to 15 do. Apart from that, this is a complete,
deterministic, winnable game.

The feasibility tier replays solution() on 100 seeds (small and 32-bit ones), which finds it. (It was a fuzz-only case before the probes existed.)
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
        p, q, d = rng.randint(12, 32), rng.randint(12, 32), rng.randint(50, 200)
        self._step_size = d
        self._code = [(p * q + i * d) % 1000 for i in range(4)]
        self._progress = 0
        self._turn = 0
        self._done = False
        text = (
            f"A safe has four dials numbered 0 to 999. The first dial is set to {p} times {q}; each "
            f"following dial is {d} more than the one before, wrapping around from 999 to 0. Enter the "
            f"dial numbers in order, one per turn, as \\boxed{{N}}. A wrong number spins all dials back "
            f"to the start. You have {self.max_turns} turns."
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
        first = self._code[0]
        return [f"\\boxed{{{first + i * self._step_size}}}" for i in range(4)]  # defect: no % 1000

    def close(self):
        pass
