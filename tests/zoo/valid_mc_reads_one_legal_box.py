# expect: valid
"""Odd One Out: which of five lettered words does not belong (skill: Categorisation).

Looks suspicious: the checker does not read the last \\boxed{} blindly. It reads the last box whose
content is one of the five option letters and skips boxes it cannot read, so the reply
``\\boxed{D} or maybe \\boxed{Dx}`` is paid when D is right, in either order.

Why it is correct: ``Dx`` is not an answer of this task at all; a reply that holds one legal answer
beside a malformed box is read as that answer, as a person grading it would. A reply with two legal
answers (``\\boxed{A} ... \\boxed{D}``) is read as the last one, so listing options never helps, and
there is one attempt: no policy beats the 1 in 5 of a blind guess without knowing the categories.
"""

import random
import re

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")
LETTERS = "ABCDE"
_GROUPS = {
    "fruit": ["apple", "pear", "plum", "mango", "cherry", "grape", "lemon", "peach"],
    "metal": ["iron", "copper", "zinc", "nickel", "cobalt", "silver", "tin", "lead"],
    "bird": ["robin", "heron", "finch", "eagle", "swift", "crane", "raven", "owl"],
    "tool": ["hammer", "saw", "chisel", "drill", "wrench", "pliers", "file", "plane"],
}


class OddOneOutEnv:
    """Four words share a category; the fifth does not."""

    def __init__(self, max_turns=1, **kwargs):
        self.max_turns = max_turns
        self._words = []
        self._letter = "A"
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        group, odd_group = rng.sample(sorted(_GROUPS), 2)
        words = rng.sample(_GROUPS[group], 4)
        odd = rng.choice(_GROUPS[odd_group])
        position = rng.randrange(5)
        words.insert(position, odd)
        self._words = words
        self._letter = LETTERS[position]
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        listed = "\n".join(f"{LETTERS[i]}) {word}" for i, word in enumerate(words))
        return (f"Odd one out: four of these words share a category, one does not.\n{listed}\n"
                "Reply with the letter of the odd one in \\boxed{}, e.g. \\boxed{B}. One attempt."), {}

    def step(self, action):
        if self._done:
            return "The question is closed; call reset().", 0.0, self._ended[0], self._ended[1], {}
        self._turn += 1
        action = action if isinstance(action, str) else str(action)
        legal = [box.strip().strip("()").upper() for box in _BOXED.findall(action)]
        legal = [box for box in legal if len(box) == 1 and box in LETTERS]
        guess = legal[-1] if legal else ""
        if guess == self._letter:
            self._done, self._ended = True, (True, False)
            return "Correct!", 1.0, True, False, {}
        feedback = "Wrong." if guess else "Answer with one letter, A to E, in \\boxed{}."
        truncated = self._turn >= self.max_turns
        if truncated:
            self._done, self._ended = True, (False, True)
            feedback += f" The odd one was {self._letter}) {self._words[LETTERS.index(self._letter)]}."
        return feedback, 0.0, False, truncated, {}

    def solution(self):
        return self._letter

    def close(self):
        pass
