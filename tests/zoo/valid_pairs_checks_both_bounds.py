# expect: valid
"""Pairs: turn over two cards at a time and clear the table (a defect-zoo environment).

The environment: eight face-down cards, four pairs, positions 1-8; \\boxed{3 7} turns over cards 3 and 7,
and a pair is cleared. Twelve turns; a player who remembers what each turn showed clears the table.
Looks suspicious: the card list is indexed by ``position - 1``, which reads from its end for 0 and below.
Why it is correct: positions outside 1-8 are refused before the list is read, so a wrapped position never
names a card (the clean twin of ``out_of_range_moves_pairs_wrapped_position``).
"""

import random
import re

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")
_MOVE = re.compile(r"\s*(-?\d{1,4})\s+(-?\d{1,4})\s*")
_ANIMALS = ["OWL", "FOX", "ELK", "YAK", "BAT", "EMU"]


class PairsEnv:
    """A memory game over eight cards."""

    def __init__(self, max_turns=12, **kwargs):
        self.max_turns = max_turns
        self._cards = []
        self._cleared = set()
        self._turn = 0
        self._done = False
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        faces = rng.sample(_ANIMALS, 4) * 2
        rng.shuffle(faces)
        self._cards, self._cleared, self._turn, self._done = faces, set(), 0, False
        return ("Pairs. Eight cards lie face down at positions 1-8, four pairs of animals. Each turn turn over two "
                f"cards, e.g. \\boxed{{3 7}}; a pair is cleared. Clear the table within {self.max_turns} turns."), {}

    def _card(self, position):
        if not 1 <= position <= 8:
            return None
        try:
            return self._cards[position - 1]
        except IndexError:
            return None

    def step(self, action):
        if self._done:
            return "The game is over; call reset().", 0.0, True, False, {}
        self._turn += 1
        found = _BOXED.findall(action) if isinstance(action, str) else []
        move = _MOVE.fullmatch(found[-1]) if found else None
        if move is None:
            text = "Name two positions, e.g. \\boxed{3 7}."
        else:
            a, b = int(move.group(1)), int(move.group(2))
            x, y = self._card(a), self._card(b)
            if x is None or y is None or a == b or {a, b} & self._cleared:
                text = "Name two different positions 1-8 that are still on the table."
            elif x == y:
                self._cleared |= {a, b}
                text = f"Cards {a} and {b} are both {x}: a pair!"
                if len(self._cleared) >= 8:
                    self._done = True
                    return text + " The table is clear.", 1.0, True, False, {}
            else:
                text = f"Card {a} is {x} and card {b} is {y}: no pair."
        if self._turn >= self.max_turns:
            self._done = True
            return text + " Out of turns.", 0.0, False, True, {}
        return text, 0.0, False, False, {}

    def solution(self):
        moves, placed = [], {}
        for position, face in enumerate(self._cards, start=1):
            if face in placed:
                moves.append(f"\\boxed{{{placed[face]} {position}}}")
            placed[face] = position
        return moves

    def close(self):
        pass
