# expect: valid
"""Crystal Cave: collect three crystals, then leave by the exit (skill: Spatial Planning).

Looks suspicious: it pays rewards before the win (+0.1 per crystal), which a partial-credit check
may take for reward farming.

Why it is correct: each crystal pays once (it is removed when picked up) and there are three, so the
rewards that come without winning add up to at most 0.3; moving back and forth earns nothing and
walls earn nothing, and only the exit with all crystals pays 1.0. Under sum_clipped returns no policy
gets 1.0 without winning.
"""

import random
import re

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")
MOVES = {"north": (-1, 0), "south": (1, 0), "east": (0, 1), "west": (0, -1)}
SIZE = 6


class CrystalCaveEnv:
    """Visit three crystal cells, then the exit."""

    def __init__(self, max_turns=40, **kwargs):
        self.max_turns = max_turns
        self._pos = (0, 0)
        self._crystals = set()
        self._exit = (5, 5)
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        cells = [(r, c) for r in range(SIZE) for c in range(SIZE)]
        picked = rng.sample(cells, 5)
        self._pos, self._exit, self._crystals = picked[0], picked[1], set(picked[2:])
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        return ("Crystal Cave. Rows 0-5 run north to south, columns 0-5 west to east. Pick up every crystal "
                "(step on it; +0.1 each), then step on the exit (1.0). Moves: \\boxed{north}, \\boxed{south}, "
                "\\boxed{east}, \\boxed{west}.\n" + self._status()), {}

    def _status(self):
        crystals = ", ".join(map(str, sorted(self._crystals))) or "none left"
        return f"You are at {self._pos}. Crystals: {crystals}. Exit: {self._exit}. Turn {self._turn}/{self.max_turns}."

    def step(self, action):
        if self._done:
            return "You have left the cave; call reset().", 0.0, self._ended[0], self._ended[1], {}
        self._turn += 1
        action = action if isinstance(action, str) else str(action)
        found = _BOXED.findall(action)
        move = found[-1].strip().lower() if found else ""
        reward, terminated = 0.0, False
        if move not in MOVES:
            message = "Unknown move."
        else:
            row, col = self._pos[0] + MOVES[move][0], self._pos[1] + MOVES[move][1]
            if not (0 <= row < SIZE and 0 <= col < SIZE):
                message = "Solid rock."
            else:
                self._pos = (row, col)
                message = f"You move {move}."
                if self._pos in self._crystals:
                    self._crystals.discard(self._pos)
                    reward = 0.1
                    message += " You pick up a crystal."
                if self._pos == self._exit and not self._crystals:
                    reward, terminated = 1.0, True
                    message += " You leave the cave with every crystal!"
        truncated = not terminated and self._turn >= self.max_turns
        if terminated or truncated:
            self._done, self._ended = True, (terminated, truncated)
        return message + "\n" + self._status(), reward, terminated, truncated, {}

    @staticmethod
    def _walk(start, goal):
        moves, (row, col) = [], start
        while row != goal[0]:
            moves.append("south" if goal[0] > row else "north")
            row += 1 if goal[0] > row else -1
        while col != goal[1]:
            moves.append("east" if goal[1] > col else "west")
            col += 1 if goal[1] > col else -1
        return moves

    def solution(self):
        moves, here, left = [], self._pos, sorted(self._crystals)
        while left:
            nearest = min(left, key=lambda c: (abs(c[0] - here[0]) + abs(c[1] - here[1]), c))
            moves += self._walk(here, nearest)
            here = nearest
            left.remove(nearest)
        moves += self._walk(here, self._exit)
        return [f"\\boxed{{{m}}}" for m in moves]

    def close(self):
        pass
