# expect: valid
"""Letter Score: the score of a word in a letter-tile game (skill: Arithmetic).

Looks suspicious: the class holds tables as class attributes (a letter-value dict and a word tuple),
exactly where the shared-state defect lives ("state on the class that another instance changes").
Why it is correct: the class attributes are constants, read and never written; all episode state
(the word, the bonus squares, the turn count) is set on the instance in __init__/reset, so any number
of interleaved instances with different seeds keep their own tasks.
"""

import random
import re

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")


class LetterScoreEnv:
    """Sum of letter values with letter and word multipliers."""

    VALUES = {**dict.fromkeys("aeilnorstu", 1), **dict.fromkeys("dg", 2), **dict.fromkeys("bcmp", 3),
              **dict.fromkeys("fhvwy", 4), "k": 5, **dict.fromkeys("jx", 8), **dict.fromkeys("qz", 10)}
    WORDS = ("quartz", "jukebox", "oxygen", "whiskey", "zephyr", "jackpot", "fjord", "buzzword", "quiver", "sphinx",
             "kayak", "mystify", "blazing", "vortex", "puzzle", "jigsaw", "wavy", "frozen", "hijack", "banjo")

    def __init__(self, max_turns=3, **kwargs):
        self.max_turns = max_turns
        self._word = "quartz"
        self._double = set()
        self._word_factor = 1
        self._bonus = 0
        self._answer = 0
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        self._word = rng.choice(self.WORDS)
        self._double = set(rng.sample(range(len(self._word)), 2))
        self._word_factor = rng.choice([1, 2, 3])
        base = sum(self.VALUES[c] * (2 if i in self._double else 1) for i, c in enumerate(self._word))
        self._bonus = rng.randint(11, 60)
        self._answer = base * self._word_factor + self._bonus
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        values = ", ".join(f"{c}={v}" for c, v in sorted(self.VALUES.items()))
        doubled = " and ".join(str(i + 1) for i in sorted(self._double))
        return (f"Letter Score. Letter values: {values}. The word {self._word.upper()} is played with letters "
                f"{doubled} on double-letter squares and a word multiplier of {self._word_factor}; the player also "
                f"earns a bonus of {self._bonus} (added after the multiplier). What is the score? You have "
                f"{self.max_turns} attempts; answer as \\boxed{{n}}."), {}

    def step(self, action):
        if self._done:
            return "The game is over; call reset().", 0.0, self._ended[0], self._ended[1], {}
        self._turn += 1
        action = action if isinstance(action, str) else str(action)
        found = _BOXED.findall(action)
        guess = found[-1].strip() if found else ""
        if re.fullmatch(r"\d{1,12}", guess) and int(guess) == self._answer:
            self._done, self._ended = True, (True, False)
            return "Correct!", 1.0, True, False, {}
        feedback = "No answer found: write the score as \\boxed{n}." if not found else "That is not the score."
        truncated = self._turn >= self.max_turns
        if truncated:
            self._done, self._ended = True, (False, True)
            feedback += f" Out of attempts: the score is {self._answer}."
        return feedback, 0.0, False, truncated, {}

    def solution(self):
        return self._answer

    def close(self):
        pass
