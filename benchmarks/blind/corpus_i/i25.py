"""River Ferry: carry three passengers across a river without losses (skill: Planning).

A ferryman must take a predator, its prey and the prey's food across a river in a boat that holds
him and at most one passenger. Left alone together on a bank without him, the predator eats the prey
or the prey eats the food, which ends the game. The cast changes from episode to episode; the shortest
crossing plan takes 7 trips against a budget of 12. A mistyped passenger name gets a 'did you mean'
suggestion built from what was typed.
"""

from __future__ import annotations

import difflib
import random
import re
from typing import Any

_CASTS = [
    ("wolf", "goat", "cabbage"), ("fox", "hen", "grain"), ("cat", "mouse", "cheese"),
    ("hawk", "sparrow", "seeds"), ("pike", "trout", "worms"), ("lion", "zebra", "hay"),
]
_BOX = re.compile(r"\\boxed\{([^{}]*)\}")


def _move_text(action: Any) -> str:
    """The last non-empty \\boxed{...} of a reply, stripped; '' when there is none."""
    if not isinstance(action, str):
        return ""
    found = [box.strip() for box in _BOX.findall(action) if box.strip()]
    return found[-1] if found else ""


class RiverFerryEnv:
    """Ferry three passengers across, one at a time, with no one eaten."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 12, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._cast: tuple[str, str, str] = ("", "", "")
        self._banks = ["", ""]
        self._side: dict[str, int] = {}
        self._ferry = 0
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Draw the cast and which bank is the starting one."""
        rng = random.Random(seed)
        self._cast = rng.choice(_CASTS)
        self._banks = rng.choice([["west", "east"], ["east", "west"], ["north", "south"], ["south", "north"]])
        self._side = {who: 0 for who in self._cast}
        self._ferry = 0
        self._turn, self._terminated, self._truncated = 0, False, False
        predator, prey, food = self._cast
        intro = (
            f"River Ferry. You are the ferryman on the {self._banks[0]} bank with a {predator}, a {prey} and some {food}; "
            f"all must reach the {self._banks[1]} bank.\n"
            "The boat holds you and at most one passenger. Cross with \\boxed{cross " + prey + "} or alone with "
            "\\boxed{cross alone}.\n"
            f"Never leave the {predator} alone with the {prey}, or the {prey} alone with the {food}: one would eat the "
            "other and the game ends.\n"
            f"Bring everyone across within {self.max_turns} crossings to win.\n" + self._render()
        )
        return intro, self._info()

    def _render(self) -> str:
        here = [w for w in self._cast if self._side[w] == 0] + (["ferryman"] if self._ferry == 0 else [])
        there = [w for w in self._cast if self._side[w] == 1] + (["ferryman"] if self._ferry == 1 else [])
        return (f"{self._banks[0].capitalize()} bank: {', '.join(here) or 'nobody'}. "
                f"{self._banks[1].capitalize()} bank: {', '.join(there) or 'nobody'}.")

    def _info(self) -> dict:
        return {"turn": self._turn, "max_turns": self.max_turns, "ferry": self._banks[self._ferry]}

    def _suggest(self, text: str) -> str:
        words = text.lower().split()
        name = words[-1] if words else ""
        close = difflib.get_close_matches(name, list(self._cast) + ["alone"], n=1, cutoff=0.5)
        return f" Did you mean \\boxed{{cross {close[0]}}}?" if close else ""

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict]:
        """Make one crossing; everyone across wins, anyone eaten loses."""
        if self._terminated or self._truncated:
            return "The game is over; call reset() to play again.", 0.0, self._terminated, self._truncated, self._info()
        self._turn += 1
        text = " ".join(_move_text(action).lower().split())
        move = re.fullmatch(r"cross(?: with)?(?: the)? ([a-z]+)", text)
        who = move.group(1) if move else ""
        if who not in self._cast and who != "alone":
            obs = "Invalid move. Write \\boxed{cross <passenger>} or \\boxed{cross alone}." + self._suggest(text)
        elif who != "alone" and self._side[who] != self._ferry:
            obs = f"The {who} is on the other bank."
        else:
            self._ferry = 1 - self._ferry
            if who != "alone":
                self._side[who] = self._ferry
            obs = f"You cross to the {self._banks[self._ferry]} bank" + (f" with the {who}." if who != "alone" else " alone.")
            predator, prey, food = self._cast
            left = 1 - self._ferry
            for eater, eaten in ((predator, prey), (prey, food)):
                if self._side[eater] == left and self._side[eaten] == left:
                    self._terminated = True
                    return (obs + f" Behind you the {eater} eats the {eaten}. Game over.\n" + self._render(),
                            0.0, True, False, self._info())
            if all(side == 1 for side in self._side.values()):
                self._terminated = True
                return obs + " Everyone is across. You win!", 1.0, True, False, self._info()
        if self._turn >= self.max_turns:
            self._truncated = True
            obs += " Out of crossings."
        else:
            obs += f" Crossings left: {self.max_turns - self._turn}."
        return obs + "\n" + self._render(), 0.0, False, self._truncated, self._info()

    def solution(self) -> list[str]:
        """Breadth-first search over the safe states from the current one."""
        predator, prey, food = self._cast
        start = (self._ferry, tuple(self._side[w] for w in self._cast))
        paths = {start: []}
        queue = [start]
        while queue:
            ferry, sides = queue.pop(0)
            if ferry == 1 and all(s == 1 for s in sides):
                return [f"\\boxed{{cross {m}}}" for m in paths[(ferry, sides)]]
            for i, who in enumerate(["alone", *self._cast]):
                if i and sides[i - 1] != ferry:
                    continue
                new = list(sides)
                if i:
                    new[i - 1] = 1 - ferry
                left = ferry
                if (new[0] == left and new[1] == left) or (new[1] == left and new[2] == left):
                    continue
                state = (1 - ferry, tuple(new))
                if state not in paths:
                    paths[state] = paths[(ferry, sides)] + [who]
                    queue.append(state)
        return []

    def close(self) -> None:
        """Nothing to release."""
