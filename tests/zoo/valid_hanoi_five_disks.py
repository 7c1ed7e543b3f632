# expect: valid
"""Tower Shuffle: gather five disks from a scattered start onto one peg (skill: Recursive Planning).

Looks suspicious: solution() is long (15 to 31 moves) and repetitive, so a length cap or a
"most common move" constant policy may misjudge it.

Why it is correct: the start is a random legal position (every disk on a random peg, smaller disks
above larger ones) and the target peg is random, so there are hundreds of distinct tasks; solution()
is the optimal recursive plan from that position (move the largest disk not yet in place, after
parking the smaller ones on the spare peg), at most 31 moves, within the 45-move budget. Illegal moves
are refused without changing the position.
"""

import random
import re

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")
PEGS = "ABC"
DISKS = 5


class TowerShuffleEnv:
    """Towers of Hanoi from an arbitrary legal position."""

    def __init__(self, max_turns=45, **kwargs):
        self.max_turns = max_turns
        self._where = [0] * (DISKS + 1)
        self._target = 2
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        self.reset()

    def _plan(self):
        where, moves = list(self._where), []

        def gather(k, target):
            if k == 0:
                return
            if where[k] == target:
                gather(k - 1, target)
                return
            spare = 3 - where[k] - target
            gather(k - 1, spare)
            moves.append((where[k], target))
            where[k] = target
            gather(k - 1, target)

        gather(DISKS, self._target)
        return moves

    def reset(self, seed=None):
        rng = random.Random(seed)
        while True:
            self._where = [0] + [rng.randrange(3) for _ in range(DISKS)]
            self._target = rng.randrange(3)
            if 15 <= len(self._plan()) <= 31:
                break
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        return ("Tower Shuffle. Disks 1 (smallest) to 5 (largest) sit on pegs A, B and C, smaller disks always "
                f"above larger ones. Move them all onto peg {PEGS[self._target]}. One move takes the top disk of "
                "one peg onto another peg, never onto a smaller disk: write it as \\boxed{A C} (from A to C). "
                f"You have {self.max_turns} moves.\n" + self._show()), {}

    def _stack(self, peg):
        return [d for d in range(DISKS, 0, -1) if self._where[d] == peg]

    def _show(self):
        return "\n".join(f"{PEGS[p]}: {' '.join(map(str, self._stack(p))) or '-'}" for p in range(3))

    def step(self, action):
        if self._done:
            return "The towers are settled; call reset().", 0.0, self._ended[0], self._ended[1], {}
        self._turn += 1
        action = action if isinstance(action, str) else str(action)
        found = _BOXED.findall(action)
        move = re.fullmatch(r"([ABC])\s*(?:to|->)?\s*([ABC])", found[-1].strip().upper()) if found else None
        reward, terminated = 0.0, False
        if move is None or move.group(1) == move.group(2):
            message = "Write a move as \\boxed{A C}: the top disk of peg A onto peg C."
        else:
            source, target = PEGS.index(move.group(1)), PEGS.index(move.group(2))
            top, dest = self._stack(source), self._stack(target)
            if not top:
                message = f"Peg {PEGS[source]} is empty."
            elif dest and dest[-1] < top[-1]:
                message = "A disk cannot go onto a smaller one."
            else:
                self._where[top[-1]] = target
                message = f"Disk {top[-1]} moved from {PEGS[source]} to {PEGS[target]}."
                if all(w == self._target for w in self._where[1:]):
                    reward, terminated = 1.0, True
                    message += " All disks are home!"
        truncated = not terminated and self._turn >= self.max_turns
        if terminated or truncated:
            self._done, self._ended = True, (terminated, truncated)
        return f"{message}\n{self._show()}", reward, terminated, truncated, {}

    def solution(self):
        return [f"\\boxed{{{PEGS[a]} {PEGS[b]}}}" for a, b in self._plan()]

    def close(self):
        pass
