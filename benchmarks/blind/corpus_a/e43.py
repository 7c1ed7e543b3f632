"""Bird Survey: which species was seen most often? (skill: reading a tally).

A volunteer walked a transect and logged every bird seen. The observation shows the survey tally for
four common species. The player names the species with the most sightings; if several species share
the highest count, the one that was spotted first on the walk is the answer. Example: \\boxed{wren}.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from typing import Any

_SPECIES = ["blackbird", "robin", "sparrow", "wren"]


class BirdSurveyEnv:
    """Name the most frequently sighted species in a survey."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._log: list[str] = []
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        self._log = [rng.choice(_SPECIES) for _ in range(rng.randint(8, 10))]
        tally = Counter(self._log)
        self._turn, self._terminated, self._truncated = 0, False, False
        rows = [f"  {name:<10} {'|' * tally[name]} ({tally[name]})" for name in _SPECIES]
        text = ("Bird Survey. Sightings logged on this morning's walk:\n" + "\n".join(rows)
                + "\nWhich species was seen most often? If several species share the highest count, answer "
                "with the one that was spotted first on the walk. Answer in a box, e.g. \\boxed{wren}.")
        return text, {"turn": 0, "sightings": len(self._log)}

    def _answer(self) -> str:
        return Counter(self._log).most_common(1)[0][0]

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        info = {"turn": self._turn, "sightings": len(self._log)}
        if self._terminated or self._truncated:
            return "Episode over.", 0.0, self._terminated, self._truncated, info
        self._turn += 1
        info["turn"] = self._turn
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
        pick = boxes[-1].strip().lower().rstrip("s") if boxes else ""
        reward = 0.0
        if pick not in _SPECIES:
            obs = "Answer with one of: " + ", ".join(_SPECIES) + ", in a box."
        else:
            self._terminated = True
            if pick == self._answer():
                reward, obs = 1.0, "Correct."
            else:
                obs = "Not the answer."
        if not self._terminated and self._turn >= self.max_turns:
            self._truncated = True
            obs += " No turns left."
        return obs, reward, self._terminated, self._truncated, info

    def solution(self) -> str:
        return self._answer()

    def close(self) -> None:
        """Nothing to release."""
