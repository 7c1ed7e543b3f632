"""Locked Manor: explore four rooms, collect the digits of a vault code, open the vault (skill: Exploration).

The hall holds the vault door and leads to three other rooms. Each room has three things to examine;
in each room exactly one of them carries one digit of the four-digit code ("the second digit is 7").
Commands move between rooms, examine things, look around, list the clues found so far, and enter a
code at the vault. Exploring everything takes about 17 turns; the budget is 20.
"""

from __future__ import annotations

import random
import re
from typing import Any

_ROOMS = {
    "study": ["desk", "globe", "bookcase", "armchair"],
    "kitchen": ["stove", "pantry", "kettle", "cupboard"],
    "library": ["ladder", "atlas", "fireplace", "lectern"],
    "cellar": ["barrel", "crate", "wine rack", "lantern"],
    "conservatory": ["fern", "birdcage", "piano", "sundial"],
}
_HALL = ["coat stand", "grandfather clock", "portrait", "mirror"]
_ORDINALS = ["first", "second", "third", "fourth"]
_BOX = re.compile(r"\\boxed\{([^{}]*)\}")


def _move_text(action: Any) -> str:
    """The last non-empty \\boxed{...} of a reply, stripped; '' when there is none."""
    if not isinstance(action, str):
        return ""
    found = [box.strip() for box in _BOX.findall(action) if box.strip()]
    return found[-1] if found else ""


class LockedManorEnv:
    """Explore, gather the four code digits, and open the vault in the hall."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 20, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._objects: dict[str, list[str]] = {}
        self._clues: dict[str, str] = {}
        self._found: list[str] = []
        self._code = ""
        self._room = "hall"
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Choose three rooms, their furniture, the code and where each digit is written."""
        rng = random.Random(seed)
        rooms = rng.sample(sorted(_ROOMS), 3)
        self._objects = {"hall": rng.sample(_HALL, 3)}
        for room in rooms:
            self._objects[room] = rng.sample(_ROOMS[room], 3)
        self._code = "".join(str(rng.randrange(10)) for _ in range(4))
        order = list(range(4))
        rng.shuffle(order)
        self._clues = {}
        for room, position in zip(["hall"] + rooms, order):
            thing = rng.choice(self._objects[room])
            self._clues[thing] = f"the {_ORDINALS[position]} digit is {self._code[position]}"
        self._found, self._room = [], "hall"
        self._turn, self._terminated, self._truncated = 0, False, False
        intro = (
            "Locked Manor. You stand in the hall, before a vault door with a four-digit keypad. The hall leads to "
            f"the {rooms[0]}, the {rooms[1]} and the {rooms[2]}.\n"
            "Commands (one per turn): \\boxed{look}, \\boxed{go study}, \\boxed{examine desk}, \\boxed{notes} "
            "(the clues you have found so far), \\boxed{help}, and, in the hall, \\boxed{enter 1234}.\n"
            f"Open the vault within {self.max_turns} turns to win.\n" + self._look()
        )
        return intro, self._info()

    def _look(self) -> str:
        exits = "the hall" if self._room != "hall" else ", ".join(f"the {r}" for r in self._objects if r != "hall")
        things = ", ".join(self._objects[self._room])
        return f"You are in the {self._room}. You see: {things}. Exits: {exits}."

    def _info(self) -> dict:
        return {"turn": self._turn, "max_turns": self.max_turns, "room": self._room}

    def _command(self, text: str) -> str:
        words = " ".join(text.lower().split())
        verb, _, arg = words.partition(" ")
        if words == "look":
            return self._look()
        if words == "help":
            return ("Commands: look, go <room>, examine <thing>, notes, help, enter <4 digits> (in the hall). "
                    "Each command takes one turn.")
        if words == "notes":
            lines = [f"- {self._clues[thing]} (from the {thing})" for thing in self._found]
            return "Your notes:\n" + "\n".join(lines) if lines else "Your notes are empty: you have found no clues yet."
        if verb == "go":
            room = arg.removeprefix("to ").removeprefix("the ")
            if room not in self._objects:
                return f"There is no '{room}' here."
            if room == self._room:
                return f"You are already in the {room}."
            if "hall" not in (room, self._room):
                return "The rooms only connect through the hall."
            self._room = room
            return self._look()
        if verb == "examine":
            thing = arg.removeprefix("the ")
            if thing not in self._objects[self._room]:
                return f"You see no '{thing}' in the {self._room}."
            if thing in self._clues:
                if thing not in self._found:
                    self._found.append(thing)
                return f"Written on the {thing}: '{self._clues[thing]}'. You copy it into your notes."
            return f"You examine the {thing} closely. Nothing useful."
        if verb == "enter":
            if self._room != "hall":
                return "The keypad is on the vault door in the hall."
            if not re.fullmatch(r"\d{4}", arg):
                return "The keypad takes exactly four digits, e.g. \\boxed{enter 1234}."
            if arg == self._code:
                self._terminated = True
                return "The keypad beeps twice and the vault swings open. You win!"
            return "The keypad buzzes: wrong code."
        return "Unknown command. Try \\boxed{help}."

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict]:
        """Run one command; opening the vault wins."""
        if self._terminated or self._truncated:
            return "The game is over; call reset() to play again.", 0.0, self._terminated, self._truncated, self._info()
        self._turn += 1
        obs = self._command(_move_text(action))
        if self._terminated:
            return obs, 1.0, True, False, self._info()
        if self._turn >= self.max_turns:
            self._truncated = True
            obs += " Out of turns."
        else:
            obs += f" Turns left: {self.max_turns - self._turn}."
        return obs, 0.0, False, self._truncated, self._info()

    def solution(self) -> list[str]:
        """Visit each clue in turn, come back to the hall and enter the code."""
        moves: list[str] = []
        room = self._room
        for target, things in self._objects.items():
            clue = next(t for t in things if t in self._clues)
            if target != room:
                if room != "hall":
                    moves.append("go hall")
                if target != "hall":
                    moves.append(f"go {target}")
                room = target
            moves.append(f"examine {clue}")
        if room != "hall":
            moves.append("go hall")
        moves.append(f"enter {self._code}")
        return [f"\\boxed{{{m}}}" for m in moves]

    def close(self) -> None:
        """Nothing to release."""
