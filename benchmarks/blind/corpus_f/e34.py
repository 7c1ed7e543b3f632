"""MedianChoiceEnv: pick the median of a short list among four lettered options (skill: statistics).

Seven numbers are listed; options A-D hold the median and three near misses (the mean, the middle
element of the unsorted list, and a neighbour of the median). The agent boxes the letter.
"""

from __future__ import annotations

import random
import re
import statistics
from typing import Any

_BOX = re.compile(r"\\boxed\{([^{}]*)\}")
_LETTERS = "ABCD"


class MedianChoiceEnv:
    """Four-option multiple choice."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._answer = "A"
        self._turn = 0
        self._status = (False, False)
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        rng = random.Random(seed)
        while True:
            values = rng.sample(range(1, 99), 7)
            median = int(statistics.median(values))
            mean = round(sum(values) / 7)
            middle = values[3]
            ordered = sorted(values)
            neighbour = ordered[rng.choice([2, 4])]
            options = [median, mean, middle, neighbour]
            if len(set(options)) == 4:
                break
        rng.shuffle(options)
        self._answer = _LETTERS[options.index(median)]
        self._turn, self._status = 0, (False, False)
        lines = "\n".join(f"  {letter}) {value}" for letter, value in zip(_LETTERS, options))
        text = (f"What is the median of {', '.join(map(str, values))}?\n{lines}\n"
                "Box the letter of your choice, e.g. \\boxed{B}. One answer is judged.")
        return text, {"count": 7}

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict[str, Any]]:
        if any(self._status):
            return "Already judged; call reset().", 0.0, *self._status, {}
        self._turn += 1
        letters = [c.strip().strip("().").upper() for c in _BOX.findall(action if isinstance(action, str) else "")]
        letters = [c for c in letters if len(c) == 1 and c in _LETTERS]
        reward, terminated = 0.0, False
        if not letters:
            obs = "Box one of the letters A, B, C or D."
        elif self._answer in letters:
            obs, reward, terminated = "Correct!", 1.0, True
        else:
            obs, terminated = f"Wrong; the median is option {self._answer}.", True
        truncated = not terminated and self._turn >= self.max_turns
        self._status = (terminated, truncated)
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> str:
        return self._answer

    def close(self) -> None:
        """Nothing to release."""
