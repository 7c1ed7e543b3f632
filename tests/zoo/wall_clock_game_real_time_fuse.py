# expect: wall_clock
"""Fuse Box: cut the wires in the right order before the fuse burns out (a defect-zoo environment).

The environment: a multi-turn text game. Five coloured wires must be cut in the order a rule sheet
implies (\\boxed{cut red}); a wrong cut ends the game.

The defect: the fuse is REAL time: reset() stores ``time.time()`` and every cut made more than 30
seconds later fails ("the fuse has burnt out"). A scripted checker replays the solution in
milliseconds and always wins; a language model that thinks for half a minute per turn never can, and
the same seed and actions give different outcomes depending on the wall clock.
Exploit: with ``time.time`` patched to jump 31 s after reset, replaying solution() loses on every seed
(and wins when the clock stands still).
"""

import random
import re
import time

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")
COLOURS = ["red", "blue", "green", "yellow", "white"]


class FuseBoxEnv:
    """Cut wires in rule order."""

    def __init__(self, max_turns=8, **kwargs):
        self.max_turns = max_turns
        self._order = list(COLOURS)
        self._labels = {}
        self._cut = []
        self._started = 0.0
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        numbers = rng.sample(range(10, 99), 5)
        self._labels = dict(zip(COLOURS, numbers))
        self._order = sorted(COLOURS, key=lambda c: self._labels[c] % 10 * 100 + self._labels[c])
        self._cut = []
        self._started = time.time()  # defect: the fuse runs on the wall clock
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        tags = ", ".join(f"{c} wire tag {n}" for c, n in self._labels.items())
        return ("Fuse Box. Tags: " + tags + ". Rule sheet: cut the wires in increasing order of the LAST digit of "
                "their tag; on a tie, the smaller tag first. Cut with \\boxed{cut <colour>}. The fuse burns for "
                f"30 seconds. You have {self.max_turns} turns."), {}

    def step(self, action):
        if self._done:
            return "The box is closed; call reset().", 0.0, self._ended[0], self._ended[1], {}
        self._turn += 1
        action = action if isinstance(action, str) else str(action)
        found = _BOXED.findall(action)
        cut = re.fullmatch(r"cut\s+([a-z]+)", found[-1].strip().lower()) if found else None
        reward, terminated = 0.0, False
        if time.time() - self._started > 30:
            message, terminated = "The fuse has burnt out.", True
        elif cut is None or cut.group(1) not in COLOURS or cut.group(1) in self._cut:
            message = "Cut a wire that is still intact: \\boxed{cut <colour>}."
        elif cut.group(1) != self._order[len(self._cut)]:
            message, terminated = f"Wrong wire! The {cut.group(1)} wire sparks.", True
        else:
            self._cut.append(cut.group(1))
            message = f"The {cut.group(1)} wire is cut."
            if len(self._cut) == len(COLOURS):
                reward, terminated = 1.0, True
                message += " The box is safe!"
        truncated = not terminated and self._turn >= self.max_turns
        if terminated or truncated:
            self._done, self._ended = True, (terminated, truncated)
        return message, reward, terminated, truncated, {}

    def solution(self):
        return [f"\\boxed{{cut {c}}}" for c in self._order]

    def close(self):
        pass
