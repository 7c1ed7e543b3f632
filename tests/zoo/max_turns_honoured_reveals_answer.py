# expect: max_turns_honoured
"""Cipher Sum: add up the letter values of a code word (a defect-zoo environment).

The environment: a single-answer puzzle. Each letter is worth its position in the alphabet times its
position in the word; the agent answers with the total in \\boxed{}. Wrong attempts get feedback,
the answer is revealed when they run out.

The defect: the observation depends on ``max_turns`` in a way that changes the task: with a budget
of 20 turns or more the environment assumes a "practice session" and prints a worked answer line
("practice mode: the total is 412"), so the difficulty a validator measures at the default budget
(3) is not the one a long-budget run trains on.
Exploit: construct with ``max_turns=20`` and copy the number after "the total is" into \\boxed{};
this wins every seed.
"""

import random
import re
import string

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")


class CipherSumEnv:
    """sum(position_in_word * alphabet_index)."""

    def __init__(self, max_turns=3, **kwargs):
        self.max_turns = max_turns
        self._word = "abc"
        self._answer = 14
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        self._word = "".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(6, 10)))
        self._answer = sum((i + 1) * (ord(c) - 96) for i, c in enumerate(self._word))
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        text = (
            f"Cipher Sum. Each letter of the code word {self._word.upper()} is worth its alphabet position "
            "(a=1, ..., z=26) multiplied by its position in the word (first letter x1, second x2, ...). "
            f"What is the total? You have {self.max_turns} attempts; answer as \\boxed{{n}}."
        )
        if self.max_turns >= 20:  # defect: a long budget switches on a "practice" answer line
            text += f"\n(practice mode: the total is {self._answer})"
        return text, {}

    def step(self, action):
        if self._done:
            return "The cipher is closed; call reset().", 0.0, self._ended[0], self._ended[1], {}
        self._turn += 1
        action = action if isinstance(action, str) else str(action)
        found = _BOXED.findall(action)
        guess = found[-1].strip() if found else ""
        if re.fullmatch(r"\d{1,12}", guess) and int(guess) == self._answer:
            self._done, self._ended = True, (True, False)
            return "Correct!", 1.0, True, False, {}
        if not found or not re.fullmatch(r"\d{1,12}", guess):
            feedback = "No number found: write the total as \\boxed{n}."
        else:
            feedback = f"{guess} is too {'high' if int(guess) > self._answer else 'low'}."
        truncated = self._turn >= self.max_turns
        if truncated:
            self._done, self._ended = True, (False, True)
            feedback += f" Out of attempts: the total is {self._answer}."
        return feedback, 0.0, False, truncated, {}

    def solution(self):
        return self._answer

    def close(self):
        pass
