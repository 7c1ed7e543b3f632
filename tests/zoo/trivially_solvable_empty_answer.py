# expect: trivially_solvable
"""Palindrome Picker: name the palindromes in a list of words (a defect-zoo environment).

The environment: a single-answer puzzle with two attempts. Eight words are listed; the agent answers
with the palindromes among them in the order listed, comma-separated, or \\boxed{none} (an empty
reply counts as "none") if there are none.

The defect: only three words of the 77-word vocabulary are palindromes, so about 72% of the lists
contain none, and "none" (or simply an empty reply) wins most episodes without reading the words.
Exploit: the empty action "" wins about 72% of seeds, and so does the constant "\\boxed{none}".
"""

import random
import re

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")
WORDS = ("anchor basket candle dragon ember falcon garden harbor island jungle kettle lantern meadow nectar "
         "orchard pepper quarry rocket saddle timber velvet walnut yonder zephyr amber bridge copper dancer "
         "engine forest glider hammer insect jacket kernel ladder mirror needle oyster pillow quiver ribbon "
         "silver tunnel update violet window yellow zipper arctic bottle canvas desert empire fossil guitar "
         "helmet igloo jigsaw kitten lizard magnet noodle outlet puzzle riddle sponge turtle unicorn vessel "
         "wizard yogurt beacon cobalt level radar kayak").split()


class PalindromePickerEnv:
    """List the palindromes among eight words."""

    def __init__(self, max_turns=2, **kwargs):
        self.max_turns = max_turns
        self._words = []
        self._answer = "none"
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        self._words = rng.sample(WORDS, 8)
        palindromes = [w for w in self._words if w == w[::-1]]
        self._answer = ", ".join(palindromes) if palindromes else "none"
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        return (
            f"Palindrome Picker. Words: {', '.join(self._words)}. Which of them read the same backwards? "
            "Answer with those words in the order listed, comma-separated, e.g. \\boxed{noon, deed}, or "
            f"\\boxed{{none}} if there are none. You have {self.max_turns} attempts."
        ), {}

    def step(self, action):
        if self._done:
            return "The list is done; call reset().", 0.0, self._ended[0], self._ended[1], {}
        self._turn += 1
        action = action if isinstance(action, str) else str(action)
        found = _BOXED.findall(action)
        guess = found[-1] if found else ""  # an empty reply means "none"
        given = ", ".join(part.strip().lower() for part in guess.split(",") if part.strip()) or "none"
        if given == self._answer:
            self._done, self._ended = True, (True, False)
            return "Correct!", 1.0, True, False, {}
        feedback = "That is not the list of palindromes."
        truncated = self._turn >= self.max_turns
        if truncated:
            self._done, self._ended = True, (False, True)
            feedback += f" The answer was {self._answer}."
        return feedback, 0.0, False, truncated, {}

    def solution(self):
        return self._answer

    def close(self):
        pass
