# expect-warning: good_answer_refused
"""Remainder Riddle, strict about layout: the right answer is read only when the box ends the reply.

Looks suspicious: ``\\boxed{n} That is my final answer.`` is refused, although it says the right answer:
the grader requires the box to be the last thing written. Everything else is ``valid_single_answer``.

Why it is valid, with a warning: the task says where the answer goes and nothing is paid that should not
be; a capable agent loses some return to the strictness, which the known-answer probes report as
``good_answer_refused`` (a warning, never a rejection).
"""

import math
import random
import re


class RemainderRiddleEnv:
    """Name the smallest positive n with n mod a = r1, n mod b = r2 and n mod c = r3."""

    def __init__(self, max_turns=3, **kwargs):
        self.max_turns = max_turns
        self.moduli = []
        self.remainders = []
        self.answer = 0
        self.turn = 0
        self.done = False
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        while True:
            moduli = rng.sample(range(5, 30), 3)
            if all(math.gcd(x, y) == 1 for i, x in enumerate(moduli) for y in moduli[i + 1:]):
                break
        self.moduli = moduli
        self.answer = rng.randint(1, moduli[0] * moduli[1] * moduli[2])
        self.remainders = [self.answer % m for m in moduli]
        self.turn = 0
        self.done = False
        clues = "; ".join(f"n mod {m} = {r}" for m, r in zip(self.moduli, self.remainders))
        return (
            f"Find the smallest positive integer n such that {clues}. "
            f"You have {self.max_turns} attempts. Put your final answer in \\boxed{{}}."
        ), {}

    def step(self, action):
        if self.done:
            return "The puzzle is over.", 0.0, True, False, {}
        self.turn += 1
        found = re.findall(r"\\boxed\{\s*(-?\d{1,12})\s*\}\s*$", action)  # the box must end the reply
        if found and int(found[-1]) == self.answer:
            self.done = True
            return "Correct!", 1.0, True, False, {}
        if not found:
            feedback = "No answer found; write it as \\boxed{n}."
        else:
            wrong = [f"mod {m}" for m, r in zip(self.moduli, self.remainders) if int(found[-1]) % m != r]
            feedback = f"Wrong: {found[-1]} fails {', '.join(wrong) or 'minimality (it is not the smallest)'}."
        truncated = self.turn >= self.max_turns
        if truncated:
            self.done = True
            feedback += f" The answer was {self.answer}."
        return feedback, 0.0, False, truncated, {}

    def solution(self):
        return self.answer

    def close(self):
        pass
