"""LetterCountEnv: how many times does a letter occur in a sentence? (skill: careful counting)

A bare reply must box just the count. Models that explain their work often put the whole tally in
the box ("2 + 1 + 1 = 4"); when a reply carries such an explanation, the count is looked for among the
numbers of the box.
"""

from __future__ import annotations

import random
import re
from typing import Any

_BOX = re.compile(r"\\boxed\{([^{}]*)\}")
_SENTENCES = [
    "the quick brown fox jumps over the lazy dog near the riverbank at dawn",
    "she sells sea shells by the sea shore while seagulls circle overhead",
    "peter piper picked a peck of pickled peppers from the pepper patch",
    "a big black bear sat on a big black rug beside a bubbling brook",
    "every morning the baker bakes bread before the bells begin to ring",
    "many mighty mountains stand silent under the pale winter moon",
    "the lighthouse keeper kept a kettle of tea warm through the stormy night",
    "four furry ferrets found fresh figs in the farmer's field",
]


class LetterCountEnv:
    """Count occurrences of one letter."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._count = 0
        self._turn = 0
        self._status = (False, False)
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        rng = random.Random(seed)
        words = rng.choice(_SENTENCES).split()
        rng.shuffle(words)
        sentence = " ".join(words)
        letter = rng.choice(sorted(set(sentence.replace(" ", "").replace("'", ""))))
        self._count = sentence.count(letter)
        self._turn, self._status = 0, (False, False)
        text = (f'How many times does the letter "{letter}" occur in: "{sentence}"? Box the count, e.g. \\boxed{{5}}. '
                "One answer is judged.")
        return text, {"letter": letter}

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict[str, Any]]:
        if any(self._status):
            return "Already judged; call reset().", 0.0, *self._status, {}
        self._turn += 1
        text = action if isinstance(action, str) else ""
        boxes = _BOX.findall(text)
        content = boxes[-1].strip() if boxes else ""
        explained = len(text.split("\\boxed")[0].strip()) >= 20
        reward, terminated = 0.0, False
        numbers = re.findall(r"\d{1,4}", content)
        if explained and numbers:
            correct = str(self._count) in numbers
        elif re.fullmatch(r"\d{1,4}", content):
            correct = int(content) == self._count
        else:
            correct = None
        if correct is None:
            obs = "Box the count as a whole number, e.g. \\boxed{5}."
        elif correct:
            obs, reward, terminated = "Correct!", 1.0, True
        else:
            obs, terminated = f"Wrong; the letter occurs {self._count} times.", True
        truncated = not terminated and self._turn >= self.max_turns
        self._status = (terminated, truncated)
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> int:
        return self._count

    def close(self) -> None:
        """Nothing to release."""
