# expect: instance_isolation
"""Token Line: slide tokens along a line into their slots (a defect-zoo environment).

The environment: a multi-turn text game. Three tokens on a line of ten cells must be moved to three
marked slots; each turn moves one token one cell left or right (\\boxed{A right}); the game is won
when every token sits on a slot.

The defect: the line is a CLASS-level list (``cells = []``) that reset() clears and refills in place,
so every instance shares one board: after ``a.reset(s1); b.reset(s2)`` instance a's moves are applied
to b's tokens and a's observations show b's line.
Exploit: with two interleaved instances, replaying a's own solution (computed right after a's reset)
loses on almost every pair of seeds; a single instance is unaffected.
"""

import random
import re

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")
SIZE = 10


class TokenLineEnv:
    """Move A, B, C onto the slots."""

    cells = []  # defect: one board for every instance
    slots = []

    def __init__(self, max_turns=30, **kwargs):
        self.max_turns = max_turns
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        while True:
            tokens = rng.sample(range(SIZE), 3)
            slots = sorted(rng.sample(range(SIZE), 3))
            if sorted(tokens) != slots:
                break
        self.cells.clear()
        self.cells.extend(["."] * SIZE)
        for name, position in zip("ABC", sorted(tokens)):
            self.cells[position] = name
        self.slots.clear()
        self.slots.extend(slots)
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        return ("Token Line. Move the tokens A, B and C onto the slots (marked ^), one cell per turn, e.g. "
                "\\boxed{A right} or \\boxed{C left}; tokens cannot share a cell or jump over each other. "
                f"You have {self.max_turns} moves.\n" + self._show()), {}

    def _show(self):
        marks = "".join("^" if i in self.slots else " " for i in range(SIZE))
        return "".join(self.cells) + "\n" + marks

    def step(self, action):
        if self._done:
            return "The line is settled; call reset().", 0.0, self._ended[0], self._ended[1], {}
        self._turn += 1
        action = action if isinstance(action, str) else str(action)
        found = _BOXED.findall(action)
        move = re.fullmatch(r"([abc])\s+(left|right)", found[-1].strip().lower()) if found else None
        reward, terminated = 0.0, False
        if move is None:
            message = "Write a move as \\boxed{A right}."
        else:
            name, direction = move.group(1).upper(), move.group(2)
            here = self.cells.index(name)
            there = here + (1 if direction == "right" else -1)
            if not 0 <= there < SIZE or self.cells[there] != ".":
                message = "That cell is blocked."
            else:
                self.cells[here], self.cells[there] = ".", name
                message = f"{name} moves {direction}."
                if all(self.cells[s] != "." for s in self.slots):
                    reward, terminated = 1.0, True
                    message += " Every token is home!"
        truncated = not terminated and self._turn >= self.max_turns
        if terminated or truncated:
            self._done, self._ended = True, (terminated, truncated)
        return message + "\n" + self._show(), reward, terminated, truncated, {}

    def solution(self):
        positions = {n: self.cells.index(n) for n in "ABC"}
        moves = []
        targets = dict(zip("ABC", self.slots))
        # move tokens that go left first (from the left), then tokens that go right (from the right)
        for name in "ABC":
            while positions[name] > targets[name]:
                positions[name] -= 1
                moves.append(f"\\boxed{{{name} left}}")
        for name in "CBA":
            while positions[name] < targets[name]:
                positions[name] += 1
                moves.append(f"\\boxed{{{name} right}}")
        return moves

    def close(self):
        pass
