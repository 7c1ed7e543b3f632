"""Gallery Theft: deduce which visitor took the painting (skill: constraint reasoning).

Five visitors were in the gallery. Each is described by three traits: coat colour, the room they were
last seen in, and whether they carried a bag. A list of facts about the thief follows; exactly one
visitor satisfies every fact, and every fact rules out at least one visitor. The player names the
thief, e.g. \\boxed{Ines}. One accusation per episode; with five suspects a blind accusation is right
one time in five.
"""

from __future__ import annotations

import random
import re
from typing import Any

_NAMES = ["Ines", "Marek", "Tobias", "Yara", "Colm", "Priya", "Anders", "Lucia", "Hamid", "Greta"]
_COATS = ["red", "grey", "green", "navy"]
_ROOMS = ["sculpture hall", "east wing", "cafe", "print room"]


class GalleryTheftEnv:
    """Pick the unique suspect consistent with all clues."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._suspects: dict[str, tuple[str, str, bool]] = {}
        self._thief = ""
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        while True:
            names = rng.sample(_NAMES, 5)
            suspects = {n: (rng.choice(_COATS), rng.choice(_ROOMS), rng.random() < 0.5) for n in names}
            thief = rng.choice(names)
            coat, room, bag = suspects[thief]
            pool = [("coat", c) for c in _COATS if c != coat] + [("room", r) for r in _ROOMS if r != room]
            facts = [("bag", bag)] + rng.sample(pool, 3)
            rng.shuffle(facts)

            def fits(traits: tuple[str, str, bool]) -> bool:
                return all(self._holds(traits, f) for f in facts)

            if [n for n in names if fits(suspects[n])] == [thief] and all(
                    any(not self._holds(suspects[n], f) for n in names) for f in facts):
                break
        self._suspects, self._thief = suspects, thief
        self._turn, self._terminated, self._truncated = 0, False, False
        rows = [f"  {n}: {c} coat, last seen in the {r}, {'with' if b else 'without'} a bag"
                for n, (c, r, b) in suspects.items()]
        clues = [self._describe(f) for f in facts]
        text = ("Gallery Theft. The visitors:\n" + "\n".join(rows) + "\nWhat we know about the thief:\n"
                + "\n".join(f"  - {c}" for c in clues) + "\nWho took the painting? Answer with a name in a box, "
                "e.g. \\boxed{" + names[0] + "}.")
        return text, {"turn": 0, "suspects": list(names)}

    @staticmethod
    def _holds(traits: tuple[str, str, bool], fact: tuple[str, Any]) -> bool:
        coat, room, bag = traits
        kind, value = fact
        if kind == "bag":
            return bag == value
        if kind == "coat":
            return coat != value
        return room != value

    @staticmethod
    def _describe(fact: tuple[str, Any]) -> str:
        kind, value = fact
        if kind == "bag":
            return "The thief carried a bag." if value else "The thief did not carry a bag."
        if kind == "coat":
            return f"The thief was not wearing a {value} coat."
        return f"The thief was not last seen in the {value}."

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        info = {"turn": self._turn, "suspects": list(self._suspects)}
        if self._terminated or self._truncated:
            return "The case is closed.", 0.0, self._terminated, self._truncated, info
        self._turn += 1
        info["turn"] = self._turn
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
        pick = boxes[-1].strip().title() if boxes else ""
        reward = 0.0
        if pick not in self._suspects:
            obs = "Name one of the five visitors in a box."
        else:
            self._terminated = True
            if pick == self._thief:
                reward, obs = 1.0, f"Case solved: it was {pick}."
            else:
                obs = f"{pick} is innocent."
        if not self._terminated and self._turn >= self.max_turns:
            self._truncated = True
            obs += " No turns left."
        return obs, reward, self._terminated, self._truncated, info

    def solution(self) -> str:
        return self._thief

    def close(self) -> None:
        """Nothing to release."""
