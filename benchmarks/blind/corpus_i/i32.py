"""Lighthouse Keeper: gather a key, oil and matches and light the lamp (skill: Exploration, Planning).

The keeper starts on the shore, which connects to a cottage, a boathouse and the lighthouse stairs;
the stairs lead up to the lamp room through a locked door. The key, the oil can and the matches lie
one each in the shore, the cottage and the boathouse (shuffled per episode), beside a few useless
things. The door opens for a keeper holding the key; the lamp must be filled with oil before it is
lit. A status command shows where you are, what you carry and how many turns are left: nothing the
player could not see already. The shortest plan takes 11 to 12 turns; the budget is 20.
"""

from __future__ import annotations

import random
import re
from typing import Any

_LINKS = {
    "shore": ["cottage", "boathouse", "stairs"],
    "cottage": ["shore"],
    "boathouse": ["shore"],
    "stairs": ["shore", "lamp room"],
    "lamp room": ["stairs"],
}
_JUNK = ["rope", "bucket", "fishing net", "old boot", "oar", "tin cup", "blanket"]
_TOOLS = ["key", "oil", "matches"]
_BOX = re.compile(r"\\boxed\{([^{}]*)\}")


def _move_text(action: Any) -> str:
    """The last non-empty \\boxed{...} of a reply, stripped; '' when there is none."""
    if not isinstance(action, str):
        return ""
    found = [box.strip() for box in _BOX.findall(action) if box.strip()]
    return found[-1] if found else ""


class LighthouseKeeperEnv:
    """Collect the key, the oil and the matches, then light the lamp."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 20, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._items: dict[str, list[str]] = {}
        self._place = "shore"
        self._carry: list[str] = []
        self._filled = False
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Shuffle the three tools over shore, cottage and boathouse and add some junk."""
        rng = random.Random(seed)
        places = ["shore", "cottage", "boathouse"]
        rng.shuffle(places)
        junk = rng.sample(_JUNK, 4)
        self._items = {place: [] for place in _LINKS}
        for tool, place in zip(_TOOLS, places):
            self._items[place].append(tool)
        for thing in junk:
            self._items[rng.choice(["shore", "cottage", "boathouse", "stairs"])].append(thing)
        for things in self._items.values():
            rng.shuffle(things)
        self._place, self._carry, self._filled = "shore", [], False
        self._turn, self._terminated, self._truncated = 0, False, False
        intro = (
            "Lighthouse Keeper. Night is falling and the lighthouse lamp is dark. Light it within "
            f"{self.max_turns} turns to win.\n"
            "Commands, one per turn: \\boxed{look}, \\boxed{go cottage}, \\boxed{take key}, \\boxed{use oil}, "
            "\\boxed{status} (where you are, what you carry, turns left) and \\boxed{help}.\n"
            "The lamp room door is locked; the lamp needs oil before it can be lit with matches.\n" + self._look()
        )
        return intro, self._info()

    def _look(self) -> str:
        things = ", ".join(self._items[self._place]) or "nothing of use"
        return f"You are at the {self._place}. You see: {things}. Paths lead to: {', '.join(_LINKS[self._place])}."

    def _info(self) -> dict:
        return {"turn": self._turn, "max_turns": self.max_turns, "place": self._place}

    def _command(self, text: str) -> str:
        words = " ".join(text.lower().split())
        verb, _, arg = words.partition(" ")
        arg = arg.removeprefix("to ").removeprefix("the ")
        if words == "look":
            return self._look()
        if words == "help":
            return "Commands: look, go <place>, take <thing>, use <thing>, status, help."
        if words == "status":
            carry = ", ".join(self._carry) or "nothing"
            return (f"Status: at the {self._place}, carrying {carry}; the lamp is "
                    f"{'filled' if self._filled else 'empty'}; {self.max_turns - self._turn} turns left after this one.")
        if verb == "go":
            if arg not in _LINKS[self._place]:
                return f"No path leads from the {self._place} to '{arg}'."
            if arg == "lamp room" and "key" not in self._carry:
                return "The lamp room door is locked."
            self._place = arg
            return self._look()
        if verb == "take":
            if arg not in self._items[self._place]:
                return f"There is no '{arg}' here."
            self._items[self._place].remove(arg)
            self._carry.append(arg)
            return f"You take the {arg}."
        if verb == "use":
            if arg not in self._carry:
                return f"You are not carrying '{arg}'."
            if self._place != "lamp room" or arg not in ("oil", "matches"):
                return f"Using the {arg} here does nothing."
            if arg == "oil":
                self._filled = True
                return "You fill the lamp with oil."
            if not self._filled:
                return "The wick is dry: the lamp needs oil first."
            self._terminated = True
            return "The lamp flares and its beam sweeps the sea. You win!"
        return "Unknown command. Try \\boxed{help}."

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict]:
        """Run one command; lighting the lamp wins."""
        if self._terminated or self._truncated:
            return "The game is over; call reset() to play again.", 0.0, self._terminated, self._truncated, self._info()
        self._turn += 1
        obs = self._command(_move_text(action))
        if self._terminated:
            return obs, 1.0, True, False, self._info()
        if self._turn >= self.max_turns:
            self._truncated = True
            obs += " Out of turns."
        return obs, 0.0, False, self._truncated, self._info()

    def solution(self) -> list[str]:
        """Fetch each tool not yet carried (shore first), then climb and light the lamp."""
        moves: list[str] = []
        here = self._place
        for place in ("shore", "cottage", "boathouse"):
            wanted = [t for t in _TOOLS if t in self._items[place]]
            if not wanted:
                continue
            if here != place:
                if here != "shore":
                    moves.append("go shore")
                if place != "shore":
                    moves.append(f"go {place}")
                here = place
            moves += [f"take {t}" for t in wanted]
        if here != "shore":
            moves.append("go shore")
        moves += ["go stairs", "go lamp room", "use oil", "use matches"]
        return [f"\\boxed{{{m}}}" for m in moves]

    def close(self) -> None:
        """Nothing to release."""
