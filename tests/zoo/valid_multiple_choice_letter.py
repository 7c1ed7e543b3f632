# expect: valid
"""Product Pick: choose the right product among four lettered options (skill: Mathematical Reasoning).

Looks suspicious: the answer is one of four letters, so a constant reply such as \\boxed{B} wins about
a quarter of the episodes, far above a 5% "trivially solvable" threshold, and the correct value is
printed in the observation.

Why it is correct: it is an honest multiple-choice question. The 25% is chance for four options, not
a shortcut: the correct letter is uniformly shuffled by the seed, the distractors are close to the
true product (same last digit, off by a multiple of ten), and there is exactly one attempt, so no
policy beats chance without multiplying. Printing the options is what multiple choice means.
"""

import random
import re

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")
LETTERS = "ABCD"


class ProductPickEnv:
    """Which option is a x b?"""

    def __init__(self, max_turns=1, **kwargs):
        self.max_turns = max_turns
        self._a = 12
        self._b = 34
        self._options = []
        self._letter = "A"
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        self._a, self._b = rng.randint(23, 99), rng.randint(23, 99)
        product = self._a * self._b
        wrong = set()
        while len(wrong) < 3:
            candidate = product + 10 * rng.choice([-3, -2, -1, 1, 2, 3]) * rng.randint(1, 4)
            if candidate > 0 and candidate != product:
                wrong.add(candidate)
        self._options = [product] + sorted(wrong)
        rng.shuffle(self._options)
        self._letter = LETTERS[self._options.index(product)]
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        listed = "  ".join(f"({LETTERS[i]}) {value}" for i, value in enumerate(self._options))
        return (f"Product Pick. What is {self._a} x {self._b}?\n{listed}\n"
                "Answer with the letter of the right option, e.g. \\boxed{C}; you have one attempt."), {}

    def step(self, action):
        if self._done:
            return "The question is closed; call reset().", 0.0, self._ended[0], self._ended[1], {}
        self._turn += 1
        action = action if isinstance(action, str) else str(action)
        found = _BOXED.findall(action)
        guess = found[-1].strip().strip("()").upper() if found else ""
        if guess == self._letter:
            self._done, self._ended = True, (True, False)
            return "Correct!", 1.0, True, False, {}
        feedback = "Wrong." if guess in LETTERS and guess else "Answer with one letter, A to D, in \\boxed{}."
        truncated = self._turn >= self.max_turns
        if truncated:
            self._done, self._ended = True, (False, True)
            feedback += f" The answer was ({self._letter}) {self._a * self._b}."
        return feedback, 0.0, False, truncated, {}

    def solution(self):
        return self._letter

    def close(self):
        pass
