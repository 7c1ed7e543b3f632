"""PetOwnersEnv: a small logic grid puzzle: three friends, three pets, two clues (skill: deduction).

Each friend owns exactly one of the pets. The clues are facts about the hidden assignment; the agent
names the owner of the asked pet.
"""

from __future__ import annotations

import itertools
import random
import re
from typing import Any

_BOX = re.compile(r"\\boxed\{([^{}]*)\}")
_NAMES = ("Ann", "Ben", "Cai")
_PETS = ("cat", "dog", "fish")


class PetOwnersEnv:
    """Who owns the asked pet?"""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._owner: dict[str, str] = {}
        self._asked = "cat"
        self._turn = 0
        self._status = (False, False)
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        rng = random.Random(seed)
        pets = list(_PETS)
        rng.shuffle(pets)
        self._owner = dict(zip(pets, _NAMES))
        false_pairs = [(n, p) for n, p in itertools.product(_NAMES, _PETS) if self._owner[p] != n]
        clues = rng.sample(false_pairs, 2)
        self._asked = rng.choice(_PETS)
        self._turn, self._status = 0, (False, False)
        lines = "\n".join(f"  - {n} does not own the {p}." for n, p in clues)
        text = (f"{', '.join(_NAMES[:-1])} and {_NAMES[-1]} each own exactly one of: a cat, a dog, a fish.\n{lines}\n"
                f"Who owns the {self._asked}? Box the name, e.g. \\boxed{{name}}. One answer is judged.")
        return text, {"friends": list(_NAMES)}

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict[str, Any]]:
        if any(self._status):
            return "Already judged; call reset().", 0.0, *self._status, {}
        self._turn += 1
        boxes = _BOX.findall(action if isinstance(action, str) else "")
        name = boxes[-1].strip().title() if boxes else ""
        reward, terminated = 0.0, False
        if name not in _NAMES:
            obs = f"Box one of the names {', '.join(_NAMES)}."
        elif name == self._owner[self._asked]:
            obs, reward, terminated = "Correct!", 1.0, True
        else:
            obs, terminated = f"Wrong; {self._owner[self._asked]} owns the {self._asked}.", True
        truncated = not terminated and self._turn >= self.max_turns
        self._status = (terminated, truncated)
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> str:
        return self._owner[self._asked]

    def close(self) -> None:
        """Nothing to release."""
