"""CardSumEnv: choose cards whose values add up to a target (skill: search / subset sum).

Six lettered cards carry distinct numbers; some set of them adds up to the target and the agent names
such a set by letters. Any correct set is accepted.
"""

from __future__ import annotations

import random
import re
from typing import Any

_BOX = re.compile(r"\\boxed\{([^{}]*)\}")
_LABELS = "ABCDEF"


class CardSumEnv:
    """Subset sum over six cards."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._cards: list[int] = []
        self._target = 0
        self._chosen: list[int] = []
        self._turn = 0
        self._status = (False, False)
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        rng = random.Random(seed)
        deck = rng.sample(range(10, 100), len(_LABELS) + 1)  # the last card stays face down as a spare
        chosen = sorted(rng.sample(range(len(deck)), 3))
        self._cards, self._chosen = deck[:len(_LABELS)], chosen
        self._target = sum(deck[i] for i in chosen)
        self._turn, self._status = 0, (False, False)
        listing = "  ".join(f"{label}={value}" for label, value in zip(_LABELS, self._cards))
        text = (f"Cards: {listing}\nPick cards whose values add up to exactly {self._target}. Box their letters, e.g. "
                "\\boxed{A, C, F}. Any correct set wins. One answer is judged.")
        return text, {"cards": len(self._cards)}

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict[str, Any]]:
        if any(self._status):
            return "Already judged; call reset().", 0.0, *self._status, {}
        self._turn += 1
        boxes = _BOX.findall(action if isinstance(action, str) else "")
        letters = re.sub(r"[\s,;+]+", "", boxes[-1]).upper() if boxes else ""
        reward, terminated = 0.0, False
        if not letters or set(letters) - set(_LABELS) or len(set(letters)) != len(letters):
            obs = "Box distinct card letters A-F, e.g. \\boxed{A, C, F}."
        elif sum(self._cards[_LABELS.index(c)] for c in letters) == self._target:
            obs, reward, terminated = "Correct!", 1.0, True
        else:
            obs, terminated = "Those cards do not add up to the target.", True
        truncated = not terminated and self._turn >= self.max_turns
        self._status = (terminated, truncated)
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> str:
        return ", ".join("ABCDEFG"[i] for i in self._chosen)

    def close(self) -> None:
        """Nothing to release."""
