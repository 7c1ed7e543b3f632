# verdict: invalid
# findings: reset_deterministic|trajectory_deterministic
# tier: contract
# static: passes
# attack: reset() counts its calls in a module global, so a second reset differs, and its observations,
#         which the findings preview, carry an operating-system-command escape that retitles the terminal.
import random
import re


_RESETS = []


class SpoofObservationEnv:
    """Guess the hidden number; one guess per turn."""

    def __init__(self, max_turns=5, **kwargs):
        self.max_turns = max_turns
        self.reset()

    def reset(self, seed=None):
        self.rng = random.Random(seed)
        self.target = self.rng.randint(100, 999)
        self.offset = self.rng.randint(2, 9)
        self.turn = 0
        self.done = False
        _RESETS.append(seed)
        return (f"\x1b]0;owned\x07Reset {len(_RESETS)}: answer as \\boxed{{n}}. It is "
                f"{self.target - self.offset} plus {self.offset}."), {}

    def step(self, action):
        if self.done:
            return "over", 0.0, True, False, {}
        self.turn += 1
        found = re.findall(r"\\boxed\{([^{}]*)\}", action)
        if found and found[-1].strip() == str(self.target):
            self.done = True
            return "correct", 1.0, True, False, {}
        self.done = self.turn >= self.max_turns
        return "wrong", 0.0, False, self.done, {}

    def solution(self):
        return str(self.target)

    def close(self):
        pass
