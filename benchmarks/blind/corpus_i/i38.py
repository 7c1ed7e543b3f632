"""Castaway Raft: build a raft and sail off an island (skill: Exploration, Planning).

The island has a beach, a forest, a cliff and a cave. A raft needs three or four logs (the
number is announced; chopped in the forest, one per turn) and a rope that lies hidden in the cliff or the cave (drawn per episode; a
search finds it only in the right place). Building happens anywhere, sailing only from the beach.
Fishing on the beach is a small comfort: each of the first three catches pays 0.05 (0.15 in all),
later casts pay nothing, and fishing never ends the game. The shortest plan takes 8 to 10 turns
(two more when the rope is searched for in the wrong place first); the budget is 16.
"""

from __future__ import annotations

import random
import re
from typing import Any

_PLACES = ["beach", "forest", "cliff", "cave"]
_LOGS = 3
_CATCHES = 3
_CATCH_REWARD = 0.05
_BOX = re.compile(r"\\boxed\{([^{}]*)\}")


def _move_text(action: Any) -> str:
    """The last non-empty \\boxed{...} of a reply, stripped; '' when there is none."""
    if not isinstance(action, str):
        return ""
    found = [box.strip() for box in _BOX.findall(action) if box.strip()]
    return found[-1] if found else ""


class CastawayRaftEnv:
    """Chop logs, find the rope, build the raft, sail."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 16, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._rope_at = "cliff"
        self._needed = _LOGS
        self._place = "beach"
        self._logs = 0
        self._rope = False
        self._raft = False
        self._catches = 0
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Hide the rope, pick the number of logs and where the castaway wakes up."""
        rng = random.Random(seed)
        self._rope_at = rng.choice(["cliff", "cave"])
        self._place = rng.choice(_PLACES)
        self._needed = rng.randint(3, 4)
        self._logs, self._rope, self._raft, self._catches = 0, False, False, 0
        self._turn, self._terminated, self._truncated = 0, False, False
        intro = (
            f"Castaway Raft. You wake up in the island's {self._place}. Places: {', '.join(_PLACES)}.\n"
            f"A raft needs {self._needed} logs and a rope. Commands, one per turn: \\boxed{{go forest}}, \\boxed{{chop}} (one log, "
            "in the forest), \\boxed{search} (look for the rope here; it is somewhere on the cliff or in the cave), "
            "\\boxed{build}, \\boxed{sail} (from the beach, once the raft is built), \\boxed{fish} (on the beach) and "
            "\\boxed{look}.\n"
            f"Each of your first {_CATCHES} catches pays {_CATCH_REWARD}; fishing never ends the game.\n"
            f"Sail away within {self.max_turns} turns to win."
        )
        return intro, self._info()

    def _state(self) -> str:
        raft = "built" if self._raft else f"{self._logs}/{self._needed} logs, {'a' if self._rope else 'no'} rope"
        return f"You are at the {self._place}. Raft: {raft}."

    def _info(self) -> dict:
        return {"turn": self._turn, "max_turns": self.max_turns, "place": self._place}

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict]:
        """Run one command; sailing on a finished raft wins."""
        if self._terminated or self._truncated:
            return "The game is over; call reset() to play again.", 0.0, self._terminated, self._truncated, self._info()
        self._turn += 1
        reward = 0.0
        words = " ".join(_move_text(action).lower().split())
        verb, _, arg = words.partition(" ")
        if verb == "go" and arg.removeprefix("to ").removeprefix("the ") in _PLACES:
            self._place = arg.removeprefix("to ").removeprefix("the ")
            obs = f"You walk to the {self._place}."
        elif words == "look":
            obs = "You look around."
        elif words == "chop":
            if self._place != "forest":
                obs = "There are no trees here."
            elif self._raft or self._logs >= self._needed:
                obs = "You have all the logs you need."
            else:
                self._logs += 1
                obs = f"You chop a log ({self._logs}/{self._needed})."
        elif words == "search":
            if self._rope or self._raft:
                obs = "You already have a rope."
            elif self._place == self._rope_at:
                self._rope = True
                obs = "Among the rocks you find a coil of rope."
            else:
                obs = f"You search the {self._place} but find no rope."
        elif words == "build":
            if self._raft:
                obs = "The raft is already built."
            elif self._logs < self._needed or not self._rope:
                obs = f"You need {self._needed} logs and a rope to build the raft."
            else:
                self._raft, self._logs, self._rope = True, 0, False
                obs = "You lash the logs together with the rope: a raft!"
        elif words == "sail":
            if not self._raft:
                obs = "You have no raft yet."
            elif self._place != "beach":
                obs = "The raft has to be launched from the beach."
            else:
                self._terminated = True
                return "You push the raft into the surf and sail for the horizon. You win!", 1.0, True, False, self._info()
        elif words == "fish":
            if self._place != "beach":
                obs = "You can only fish from the beach."
            elif self._catches < _CATCHES:
                self._catches += 1
                reward = _CATCH_REWARD
                obs = f"You catch a fish ({self._catches}/{_CATCHES} paying catches)."
            else:
                obs = "Nothing bites any more."
        else:
            obs = ("Unknown command. Use go <place>, chop, search, build, sail, fish or look.")
        if self._turn >= self.max_turns:
            self._truncated = True
            obs += " Out of turns."
        else:
            obs += f" Turns left: {self.max_turns - self._turn}."
        return obs + "\n" + self._state(), reward, False, self._truncated, self._info()

    def solution(self) -> list[str]:
        """Chop, fetch the rope from its hiding place, build and sail from the beach."""
        moves = [] if self._place == "forest" else ["go forest"]
        moves += ["chop"] * (self._needed - self._logs) + [f"go {self._rope_at}", "search", "build", "go beach", "sail"]
        return [f"\\boxed{{{m}}}" for m in moves]

    def close(self) -> None:
        """Nothing to release."""
