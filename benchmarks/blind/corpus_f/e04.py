"""AnagramChoiceEnv: which listed word uses exactly the letters of a scrambled string? (skill: wordplay)

Four candidate words of the same length are shown as options A-D; exactly one is an anagram of the
scrambled letters. The agent may answer with the letter or with the word itself; case and spaces do
not matter. Boxing two different options counts as a wrong answer.
"""

from __future__ import annotations

import random
import re
from typing import Any

_WORDS = (
    "planet", "silver", "garden", "bottle", "candle", "forest", "market", "pencil", "rocket", "window",
    "anchor", "basket", "castle", "dinner", "engine", "fabric", "goblin", "harbor", "island", "jungle",
    "kitten", "lizard", "meadow", "napkin", "orange", "parrot", "quiver", "rabbit", "saddle", "tunnel",
    "velvet", "walnut", "yellow", "zipper", "bridge", "camera", "desert", "falcon", "guitar", "helmet",
    "insect", "jacket", "ladder", "magnet", "needle", "oyster", "pepper", "ribbon", "shadow", "timber",
)
_LETTERS = "ABCD"
_BOX = re.compile(r"\\boxed\{([^{}]*)\}")


class AnagramChoiceEnv:
    """Four options; answer by letter or by word."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._options: list[str] = []
        self._answer = "A"
        self._turn = 0
        self._status = (False, False)
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        rng = random.Random(seed)
        target = rng.choice(_WORDS)
        others = [w for w in _WORDS if len(w) == len(target) and sorted(w) != sorted(target)]
        options = rng.sample(others, 3) + [target]
        rng.shuffle(options)
        letters = list(target)
        while "".join(letters) == target:
            rng.shuffle(letters)
        self._scrambled = "".join(letters).upper()
        self._options = options
        self._answer = _LETTERS[options.index(target)]
        self._turn, self._status = 0, (False, False)
        lines = [f"  {letter}) {word}" for letter, word in zip(_LETTERS, options)]
        text = (
            f"The letters {self._scrambled} can be rearranged into exactly one of these words:\n"
            + "\n".join(lines) + "\n"
            "Box the option letter or the word itself, e.g. \\boxed{letter} (case does not matter). "
            "One answer only: boxing two different options counts as wrong."
        )
        return text, {"letters": len(target)}

    def _read(self, content: str) -> str | None:
        cleaned = re.sub(r"\s+", " ", content).strip().strip(".").strip()
        bare = cleaned.strip("()").strip()
        if len(bare) == 1 and bare.upper() in _LETTERS:
            return bare.upper()
        lowered = cleaned.lower()
        if lowered in self._options:
            return _LETTERS[self._options.index(lowered)]
        return None

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict[str, Any]]:
        if any(self._status):
            return "Already answered; call reset() for a new puzzle.", 0.0, *self._status, {}
        self._turn += 1
        picks = [p for p in (self._read(c) for c in _BOX.findall(action if isinstance(action, str) else ""))
                 if p is not None]
        reward, terminated = 0.0, False
        if not picks:
            obs = "I could not find an option in a box. Reply like \\boxed{B} or \\boxed{word}."
        elif len(set(picks)) > 1:
            obs, terminated = "Two different options were boxed: counted as wrong.", True
        elif picks[0] == self._answer:
            obs, reward, terminated = "Correct!", 1.0, True
        else:
            obs, terminated = f"Not an anagram of {self._scrambled}. The answer was {self._answer}.", True
        truncated = not terminated and self._turn >= self.max_turns
        self._status = (terminated, truncated)
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> str:
        return self._answer

    def close(self) -> None:
        """Nothing to release."""
