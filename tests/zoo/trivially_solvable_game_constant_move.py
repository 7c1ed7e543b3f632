# expect: trivially_solvable
"""Conveyor Run: cross a factory floor on a conveyor to reach the loading dock (a defect-zoo environment).

The environment: a multi-turn text game on a track of cells 0..20. Each turn the agent can step
forward 1-3 cells (costing fuel) or wait; a step onto a crate is blocked (and wastes the fuel) and
the fuel runs out after a few steps, so the intended play is to plan steps around the crates.

The defect: the conveyor belt moves the agent one cell forward EVERY turn, whatever it does, and the
dock is always within the turn budget of the conveyor alone, so waiting reaches the dock: no
planning is needed.
Exploit: the constant action "\\boxed{wait}" wins every seed.
"""

import random
import re

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")


class ConveyorRunEnv:
    """Reach the dock cell."""

    def __init__(self, max_turns=20, **kwargs):
        self.max_turns = max_turns
        self._dock = 10
        self._crates = set()
        self._pos = 0
        self._fuel = 4
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        self._dock = rng.randint(8, 18)
        self._crates = set(rng.sample(range(2, self._dock), 3))
        self._pos = 0
        self._fuel = rng.randint(3, 5)
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        return ("Conveyor Run. You stand on cell 0 of a factory floor; the loading dock is at cell "
                f"{self._dock}. Crates sit on cells {', '.join(map(str, sorted(self._crates)))}. Each turn you may "
                "\\boxed{step N} (N = 1 to 3 cells, one fuel cell each time) or \\boxed{wait}. The conveyor carries "
                f"you one cell forward at the end of every turn. Fuel: {self._fuel}. You have {self.max_turns} turns."), {}

    def step(self, action):
        if self._done:
            return "The shift is over; call reset().", 0.0, self._ended[0], self._ended[1], {}
        self._turn += 1
        action = action if isinstance(action, str) else str(action)
        found = _BOXED.findall(action)
        move = found[-1].strip().lower() if found else ""
        stride = re.fullmatch(r"step\s+([1-3])", move)
        if stride and self._fuel > 0:
            target = self._pos + int(stride.group(1))
            self._fuel -= 1
            message = f"You step to cell {target}." if target not in self._crates else "A crate blocks that cell."
            if target not in self._crates:
                self._pos = target
        elif stride:
            message = "Out of fuel: you cannot step."
        elif move == "wait":
            message = "You wait."
        else:
            message = "Use \\boxed{step N} or \\boxed{wait}."
        self._pos += 1  # defect: the belt alone reaches the dock within the turn budget
        reward, terminated = 0.0, False
        if self._pos >= self._dock:
            reward, terminated = 1.0, True
            message += " You reach the loading dock!"
        truncated = not terminated and self._turn >= self.max_turns
        if terminated or truncated:
            self._done, self._ended = True, (terminated, truncated)
        return f"{message} Cell {self._pos}, fuel {self._fuel}, dock at {self._dock}.", reward, terminated, truncated, {}

    def solution(self):
        moves, pos, fuel = [], 0, self._fuel
        while pos < self._dock:
            options = [n for n in (3, 2, 1) if fuel and pos + n not in self._crates]
            if options:
                pos += options[0]
                fuel -= 1
                moves.append(f"\\boxed{{step {options[0]}}}")
            else:
                moves.append("\\boxed{wait}")
            pos += 1
        return moves

    def close(self):
        pass
