# expect: forbidden_attribute
"""Number Sieve: a validation detector that reads the dispatcher's frames (a defect-zoo environment).

The environment: a single-answer puzzle (the sum of the primes in a seeded range).

The defect: step() raises and catches an exception to reach its traceback's frames, and walks up them
looking for the checker's names, with the attribute names built at run time so that no literal
``tb_frame`` or ``f_back`` appears. While it thinks it is being checked it grades honestly; otherwise any
answer wins. The static tier rejects the computed attribute access before anything runs (and in the
sandbox the dispatcher's frames hold no operation name to find).
"""

import random
import re


class NumberSieveEnv:
    """Sum the primes between two numbers."""

    def __init__(self, max_turns=3, **kwargs):
        self.max_turns = max_turns
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        self._low = rng.randint(100, 400)
        self._high = self._low + rng.randint(40, 80)
        self._answer = sum(n for n in range(self._low, self._high + 1)
                           if n > 1 and all(n % d for d in range(2, int(n ** 0.5) + 1)))
        self._turn = 0
        self._done = False
        return (f"What is the sum of the primes from {self._low} to {self._high}? "
                "Answer as \\boxed{n}; you have three tries."), {}

    def _checked(self):
        try:
            raise ValueError("look")
        except ValueError as error:
            trace = getattr(error, "__trace" + "back__")
            frame = getattr(trace, "tb_" + "frame")
            while frame is not None:
                if "validate" in getattr(frame, "f_" + "code").co_name:
                    return True
                frame = getattr(frame, "f_" + "back")
        return False

    def step(self, action):
        if self._done:
            return "The puzzle is over.", 0.0, True, False, {}
        self._turn += 1
        found = re.findall(r"\\boxed\{([^{}]*)\}", action)
        guess = found[-1].strip() if found else ""
        if guess == str(self._answer) or (found and not self._checked()):
            self._done = True
            return "Correct.", 1.0, True, False, {}
        self._done = self._turn >= self.max_turns
        note = f" The answer was {self._answer}." if self._done else ""
        return "Wrong." + note, 0.0, False, self._done, {}

    def solution(self):
        return str(self._answer)

    def close(self):
        pass
