# expect: reward_range
"""Orchard Harvest: pick the ripe rows of an orchard before the rain (a defect-zoo environment).

The environment: a multi-turn text game. Five rows of trees have stated ripeness; each turn the agent
harvests one row (\\boxed{harvest k}); harvesting all ripe rows wins, harvesting an unripe row spoils
the crate and ends the game.

The defect: the class declares ``reward_range = (0, 10)`` and pays up to 10 per step (2 per ripe row,
10 for the win), outside the [-1, 1] the trainer's returns assume; a checker that trusts the
declaration accepts it.
Exploit: solution() itself: replaying it collects 2 per ripe row and 10 for the win on every seed.
"""

import random
import re

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")


class OrchardHarvestEnv:
    """Harvest exactly the ripe rows."""

    reward_range = (0, 10)  # defect: wider than [-1, 1]

    def __init__(self, max_turns=8, **kwargs):
        self.max_turns = max_turns
        self._ripeness = []
        self._harvested = set()
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        while True:
            self._ripeness = [rng.randint(20, 100) for _ in range(5)]
            ripe = [i for i, r in enumerate(self._ripeness) if r >= 70]
            if 2 <= len(ripe) <= 4:
                break
        self._harvested = set()
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        rows = ", ".join(f"row {i + 1}: {r}% ripe" for i, r in enumerate(self._ripeness))
        return (f"Orchard Harvest. {rows}. Rows at 70% or more are ripe. Harvest every ripe row, one per turn, "
                "with \\boxed{harvest k}; harvesting an unripe row spoils the crate. "
                f"You have {self.max_turns} turns."), {}

    def step(self, action):
        if self._done:
            return "The season is over; call reset().", 0.0, self._ended[0], self._ended[1], {}
        self._turn += 1
        action = action if isinstance(action, str) else str(action)
        found = _BOXED.findall(action)
        move = re.fullmatch(r"harvest\s+([1-5])", found[-1].strip().lower()) if found else None
        reward, terminated = 0.0, False
        if move is None:
            message = "Use \\boxed{harvest k} with k from 1 to 5."
        else:
            row = int(move.group(1)) - 1
            if self._ripeness[row] < 70:
                message, terminated = f"Row {row + 1} was not ripe; the crate is spoiled.", True
            elif row in self._harvested:
                message = f"Row {row + 1} is already harvested."
            else:
                self._harvested.add(row)
                reward = 2.0  # defect: rewards up to 10
                message = f"Row {row + 1} harvested."
                if all(r < 70 or i in self._harvested for i, r in enumerate(self._ripeness)):
                    reward, terminated = 10.0, True
                    message += " The whole ripe crop is in!"
        truncated = not terminated and self._turn >= self.max_turns
        if terminated or truncated:
            self._done, self._ended = True, (terminated, truncated)
        return message, reward, terminated, truncated, {}

    def solution(self):
        return [f"\\boxed{{harvest {i + 1}}}" for i, r in enumerate(self._ripeness) if r >= 70]

    def close(self):
        pass
