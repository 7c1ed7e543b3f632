# expect: valid
"""Vault: search four rooms for the digits of a code, then open the vault (a defect-zoo environment).

The environment: each of four rooms holds one digit of a four-digit code, and which room holds which
position is shuffled; \\boxed{search attic} reads a room's clue, \\boxed{notes} lists the clues found so
far, \\boxed{open 4821} tries the code. Ten turns: four searches and the code.
Looks suspicious: ``notes`` prints clues in positional form ("the third digit is 2"), which the gate
decodes into a code. Why it is correct: it lists only the clues found so far, so the code it spells is
the one the player has earned (the clean twin of ``answer_leak_notes_command_lists_every_clue``).
"""

import random
import re

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")
_ROOMS = ["attic", "cellar", "study", "pantry"]
_ORDINALS = ["first", "second", "third", "fourth"]


class VaultEnv:
    """Collect the code's digits room by room."""

    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns
        self._code = "0000"
        self._clues = {}
        self._found = []
        self._turn = 0
        self._done = False
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        self._code = "".join(rng.choice("0123456789") for _ in range(4))
        positions = rng.sample(range(4), 4)
        self._clues = {room: f"the {_ORDINALS[p]} digit is {self._code[p]}" for room, p in zip(_ROOMS, positions)}
        self._found, self._turn, self._done = [], 0, False
        return ("Vault. Each room of the house (attic, cellar, study, pantry) hides one digit of the vault's "
                "four-digit code. Commands: \\boxed{search ROOM}, \\boxed{notes} and \\boxed{open CODE}. "
                f"Open the vault within {self.max_turns} turns."), {}

    def step(self, action):
        if self._done:
            return "The game is over; call reset().", 0.0, True, False, {}
        self._turn += 1
        found = _BOXED.findall(action) if isinstance(action, str) else []
        move = found[-1].strip().lower() if found else ""
        words = move.split()
        if move == "notes":
            text = "Notes: " + ("; ".join(self._found) or "none yet")
        elif len(words) == 2 and words[0] == "search" and words[1] in self._clues:
            clue = self._clues[words[1]]
            if clue not in self._found:
                self._found.append(clue)
            text = f"In the {words[1]} you find a scrap of paper: {clue}."
        elif len(words) == 2 and words[0] == "open" and re.fullmatch(r"\d{4}", words[1]):
            if words[1] == self._code:
                self._done = True
                return "The vault swings open!", 1.0, True, False, {}
            text = "The vault stays shut."
        else:
            text = "Try \\boxed{search attic}, \\boxed{notes} or \\boxed{open 1234}."
        if self._turn >= self.max_turns:
            self._done = True
            return text + " Out of turns.", 0.0, False, True, {}
        return text, 0.0, False, False, {}

    def solution(self):
        return [f"\\boxed{{search {room}}}" for room in _ROOMS] + [f"\\boxed{{open {self._code}}}"]

    def close(self):
        pass
