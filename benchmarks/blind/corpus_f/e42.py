"""ArithmeticChoiceEnv: work out a short expression and pick its value among four lettered options.

The options are listed in increasing order, so the letter of the right one is uniform over A-D.
The agent answers with the letter (or the option's number). One answer is judged; a reply that boxes
two different options is ambiguous and counts as wrong.
"""

from __future__ import annotations

import random
import re
from typing import Any

_LETTERS = "ABCD"
_BOX = re.compile(r"\\boxed\{([^{}]*)\}")
_LETTER = re.compile(r"^\(?\s*([A-Da-d])\s*\)?[.:]?$")
_NUMBER = re.compile(r"^-?\d{1,7}$")


class ArithmeticChoiceEnv:
    """Four-option multiple choice over the value of a x b +/- c."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._options: list[int] = []
        self._answer = "A"
        self._expr = ""
        self._turn = 0
        self._over = False
        self._end = (False, False)
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        rng = random.Random(seed)
        a, b, c = rng.randint(12, 79), rng.randint(3, 9), rng.randint(11, 99)
        op = rng.choice("+-")
        value = a * b + c if op == "+" else a * b - c
        self._expr = f"{a} x {b} {op} {c}"
        rank = rng.randrange(4)  # options below the right one
        below: set[int] = set()
        above: set[int] = set()
        while len(below) < rank:
            below.add(value - rng.randint(1, 30))
        while len(above) < 3 - rank:
            above.add(value + rng.randint(1, 30))
        self._options = sorted(below) + [value] + sorted(above)
        self._answer = _LETTERS[rank]
        self._turn, self._over, self._end = 0, False, (False, False)
        lines = [f"  {letter}) {option}" for letter, option in zip(_LETTERS, self._options)]
        text = (
            f"Multiple choice. What is the value of {self._expr}?\n" + "\n".join(lines) + "\n"
            "Answer with the option letter in a box, e.g. \\boxed{letter} with letter one of A, B, C, D "
            "(the option's number is accepted too). You get one answer; boxing two different options "
            "counts as a wrong answer."
        )
        return text, {"turn": 0, "options": len(self._options)}

    def _choices(self, action: str) -> list[str]:
        found = []
        for raw in _BOX.findall(action):
            content = raw.strip()
            match = _LETTER.match(content)
            if match:
                found.append(match.group(1).upper())
            elif _NUMBER.match(content) and int(content) in self._options:
                found.append(_LETTERS[self._options.index(int(content))])
        return found

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict[str, Any]]:
        if self._over:
            return "The question is closed. Call reset() for a new one.", 0.0, *self._end, {"turn": self._turn}
        self._turn += 1
        text = action if isinstance(action, str) else ""
        choices = self._choices(text)
        reward, terminated = 0.0, False
        if not choices:
            obs = "No option found. Reply with one letter A-D in a box, e.g. \\boxed{letter}."
        elif len(set(choices)) > 1:
            obs = f"Two different options were boxed ({', '.join(sorted(set(choices)))}); that counts as wrong."
            terminated = True
        elif choices[0] == self._answer:
            obs, reward, terminated = f"Correct: {self._expr} = {self._options[_LETTERS.index(self._answer)]}.", 1.0, True
        else:
            obs, terminated = f"Wrong. The right option was {self._answer}.", True
        truncated = not terminated and self._turn >= self.max_turns
        if truncated:
            obs += " No turns left."
        self._over, self._end = terminated or truncated, (terminated, truncated)
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> str:
        return self._answer

    def hint(self) -> str:
        return "Multiply first, then add or subtract; checking the last digit is a quick way to rule options out."

    def close(self) -> None:
        """Nothing to release."""
