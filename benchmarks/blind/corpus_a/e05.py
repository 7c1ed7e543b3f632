"""Motif Finder: locate a short motif in a DNA read (skill: careful string scanning).

A read of 24-36 bases over A, C, G, T is shown together with a four-base motif. The player reports
where the motif first occurs in the read, counting positions from 1 (the first base of the read is
position 1). The motif is guaranteed to occur at least once; it may also occur again later, and only
the first occurrence counts.
"""

from __future__ import annotations

import random
import re
from typing import Any


class MotifFinderEnv:
    """Report the position of the first occurrence of a motif in a DNA read."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._read = ""
        self._motif = ""
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        motif = "".join(rng.choice("ACGT") for _ in range(4))
        length = rng.randint(24, 36)
        read = "".join(rng.choice("ACGT") for _ in range(length))
        if motif not in read:
            at = rng.randint(0, length - 4)
            read = read[:at] + motif + read[at + 4:]
        self._read, self._motif = read, motif
        self._turn, self._terminated, self._truncated = 0, False, False
        text = (
            f"Motif Finder.\nRead:  {read}\nMotif: {motif}\n"
            "At which position does the motif FIRST start in the read? Positions are counted from 1: "
            "the first base of the read is position 1. Answer with the position in a box, e.g. \\boxed{7}."
        )
        return text, {"turn": 0, "read_length": length}

    def _position(self) -> int:
        return self._read.find(self._motif)

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        info = {"turn": self._turn, "read_length": len(self._read)}
        if self._terminated or self._truncated:
            return "Episode finished.", 0.0, self._terminated, self._truncated, info
        self._turn += 1
        info["turn"] = self._turn
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
        value = boxes[-1].strip() if boxes else ""
        reward = 0.0
        if not re.fullmatch(r"\d{1,3}", value):
            obs = "Answer with a whole-number position in a box, e.g. \\boxed{7}."
        else:
            self._terminated = True
            if int(value) == self._position():
                reward, obs = 1.0, "Correct."
            else:
                obs = "Incorrect."
        if not self._terminated and self._turn >= self.max_turns:
            self._truncated = True
            obs += " No turns left."
        return obs, reward, self._terminated, self._truncated, info

    def solution(self) -> str:
        return str(self._position())

    def close(self) -> None:
        """Nothing to release."""
