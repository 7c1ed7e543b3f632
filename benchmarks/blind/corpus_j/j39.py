"""Five Doors: open a corridor of doors with the right tool from your bag (skill: Reading Comprehension).

Each door is described by one feature ("rusted hinges", "a hungry goose", ...) that calls for exactly
one of the six tools in the bag. The player uses a tool on the current door each turn; the right tool
opens it, a wrong one costs a strike, and three strikes bring the guards. Five doors must be opened.
"""

from __future__ import annotations

import random
import re
from typing import Any

_TOOLS = {
    "oil can": "Its hinges are rusted solid and squeal at the slightest push.",
    "crowbar": "A thick plank has been nailed across it.",
    "magnet": "Behind a glass slit an iron bolt holds it shut.",
    "rope": "It is a trapdoor set high in the ceiling, far out of reach.",
    "torch": "Beyond it the passage is pitch dark and full of pits.",
    "bread": "A hungry goose guards it and hisses at you.",
    "mirror": "A beam-lock waits for light bounced from the lamp behind you.",
    "fuse": "Its control panel is dead; one fuse socket is empty.",
    "scissors": "It is sealed with a thick silk ribbon.",
    "whistle": "A sheepdog sleeps across the threshold and will only move for a signal.",
    "chalk": "It is a door of slate marked 'WRITE YOUR NAME TO ENTER'.",
    "key": "It has an ordinary brass keyhole.",
}


class FiveDoorsEnv:
    """Use the right tool on each door in turn."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 10, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._bag: list[str] = []
        self._doors: list[str] = []
        self._at = 0
        self._last = ""
        self._strikes = 0
        self._turn = 0
        self._finished = False
        self._won = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Pack six tools; five of them open the five doors, in a shuffled order."""
        rng = random.Random(seed)
        self._bag = sorted(rng.sample(sorted(_TOOLS), 6))
        self._doors = rng.sample(self._bag, 5)
        self._at, self._last, self._strikes = 0, "", 0
        self._turn, self._finished, self._won = 0, False, False
        text = (
            f"Five Doors. Your bag holds: {', '.join(self._bag)}.\n"
            "Open five doors one after another by using the right tool on the door in front of you, e.g. "
            "\\boxed{use " + self._bag[0] + "}. A bare \\boxed{use} repeats your last tool.\n"
            f"A wrong tool is a strike; the third strike brings the guards. You have {self.max_turns} turns.\n"
            + self._door()
        )
        return text, self._info()

    def _door(self) -> str:
        return f"Door {self._at + 1} of 5: {_TOOLS[self._doors[self._at]]}"

    def _info(self) -> dict:
        return {"turn": self._turn, "door": self._at + 1, "strikes": self._strikes}

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict]:
        """Use one tool on the current door."""
        if self._finished:
            return "The corridor is behind you (or the guards are). Call reset().", 0.0, self._won, not self._won, self._info()
        self._turn += 1
        found = [b for b in re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "") if b.strip()]
        words = found[-1].strip().lower().split() if found else []
        if words[:1] != ["use"] or len(words) > 3:
            obs = "Use a tool, e.g. \\boxed{use " + self._bag[0] + "}."
        else:
            tool = " ".join(words[1:]) or self._last
            if not tool:
                obs = "Use what? Name a tool from your bag."
            elif tool not in self._bag:
                obs = f"There is no {tool} in your bag."
            else:
                self._last = tool
                if tool == self._doors[self._at]:
                    self._at += 1
                    obs = f"You use the {tool}. The door opens."
                    if self._at == 5:
                        self._finished, self._won = True, True
                        return obs + " You are through all five doors!", 1.0, True, False, self._info()
                    obs += "\n" + self._door()
                else:
                    self._strikes += 1
                    obs = f"You use the {tool}. Nothing happens, and somewhere a bell rings (strike {self._strikes} of 3)."
                    if self._strikes >= 3:
                        self._finished = True
                        return obs + " The guards arrive.", 0.0, True, False, self._info()
        if self._turn >= self.max_turns:
            self._finished = True
            return obs + " You have run out of time.", 0.0, False, True, self._info()
        return f"{obs} Turns left: {self.max_turns - self._turn}.", 0.0, False, False, self._info()

    def solution(self) -> list[str]:
        """The matching tool for each remaining door."""
        return [f"\\boxed{{use {t}}}" for t in self._doors[self._at:]]

    def close(self) -> None:
        """Nothing to release."""
