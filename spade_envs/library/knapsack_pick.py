"""Knapsack Pick: pack the most valuable bag under a weight limit (skill: Optimization).

Eight items with random weights and values and a capacity of about 45% of their total weight are
drawn per episode. The target value is the true optimum, computed by dynamic programming, and the
episode is only accepted when packing greedily by value-per-weight falls short of it, so the obvious
heuristic loses. The player adds and removes items (an add that would exceed the capacity is
refused) and submits; submitting a bag worth at least the target wins, submitting less loses.
"""

from __future__ import annotations

import random
import re
from typing import Any

_ITEMS = 8


def _best_subset(weights: list[int], values: list[int], capacity: int) -> tuple[int, list[int]]:
    """0/1 knapsack by DP over capacities; returns the optimal value and one optimal item list."""
    best: list[tuple[int, list[int]]] = [(0, [])] * (capacity + 1)
    for i, (w, v) in enumerate(zip(weights, values)):
        for cap in range(capacity, w - 1, -1):
            value, items = best[cap - w]
            if value + v > best[cap][0]:
                best[cap] = (value + v, items + [i])
    return best[capacity]


def _greedy_value(weights: list[int], values: list[int], capacity: int) -> int:
    """Value of the ratio-greedy packing, the heuristic the optimum must beat."""
    total, load = 0, 0
    for i in sorted(range(len(weights)), key=lambda j: (-values[j] / weights[j], j)):
        if load + weights[i] <= capacity:
            load, total = load + weights[i], total + values[i]
    return total


class KnapsackPickEnv:
    """Choose items under a capacity to reach the optimal total value, then submit."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 10, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._weights: list[int] = []
        self._values: list[int] = []
        self._capacity = 0
        self._target = 0
        self._optimal: list[int] = []
        self._bag: list[int] = []
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Draw items until greedy is suboptimal and the optimum needs 4-5 items; empty the bag."""
        rng = random.Random(seed)
        while True:
            weights = [rng.randint(2, 15) for _ in range(_ITEMS)]
            values = [rng.randint(3, 30) for _ in range(_ITEMS)]
            capacity = int(sum(weights) * 0.45)
            target, chosen = _best_subset(weights, values, capacity)
            if 4 <= len(chosen) <= 5 and _greedy_value(weights, values, capacity) < target:
                break
        self._weights, self._values, self._capacity = weights, values, capacity
        self._target, self._optimal, self._bag = target, chosen, []
        self._turn, self._terminated, self._truncated = 0, False, False
        rules = (
            f"Knapsack Pick. Pack items into a bag of capacity {capacity} so that the total value is at "
            f"least {target}.\nActions: \\boxed{{add N}}, \\boxed{{remove N}} (N = item number) and "
            f"\\boxed{{submit}}. Submitting a bag worth less than {target} loses; you have "
            f"{self.max_turns} turns.\n"
        )
        return rules + self._show(), self._info()

    def _show(self) -> str:
        lines = [f"  item {i + 1}: weight {w}, value {v}{'  [in bag]' if i in self._bag else ''}"
                 for i, (w, v) in enumerate(zip(self._weights, self._values))]
        load = sum(self._weights[i] for i in self._bag)
        value = sum(self._values[i] for i in self._bag)
        return "\n".join(lines) + f"\nBag: weight {load}/{self._capacity}, value {value} (target {self._target})."

    def _info(self) -> dict:
        return {"turn": self._turn, "max_turns": self.max_turns, "bag": sorted(i + 1 for i in self._bag)}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        """Apply add/remove/submit; submit ends the game as a win or a loss."""
        if self._terminated or self._truncated:
            return "The game is over; call reset() to play again.", 0.0, self._terminated, self._truncated, self._info()
        self._turn += 1
        # The last box that holds something: an empty box after the move is no move.
        found = [box for box in re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
                 if box.strip()]
        match = re.fullmatch(r"(add|remove|submit)\s*([0-9]{0,3})", found[-1].strip().lower()) if found else None
        verb, index = (match.group(1), int(match.group(2) or 0) - 1) if match else ("", -1)
        reward = 0.0
        if verb == "submit":
            value = sum(self._values[i] for i in self._bag)
            self._terminated = True
            reward = 1.0 if value >= self._target else 0.0
            verdict = "You win!" if reward else f"Not enough: the best possible was {self._target}."
            return f"Submitted a bag worth {value}. {verdict}", reward, True, False, self._info()
        if verb not in ("add", "remove") or not 0 <= index < _ITEMS:
            obs = f"Invalid action. Use \\boxed{{add N}}, \\boxed{{remove N}} with N from 1 to {_ITEMS}, or \\boxed{{submit}}."
        elif verb == "add" and index in self._bag:
            obs = f"Item {index + 1} is already in the bag."
        elif verb == "add" and sum(self._weights[i] for i in self._bag) + self._weights[index] > self._capacity:
            obs = f"Item {index + 1} does not fit; the bag was not changed."
        elif verb == "remove" and index not in self._bag:
            obs = f"Item {index + 1} is not in the bag."
        elif verb == "add":
            self._bag.append(index)
            obs = f"Added item {index + 1}."
        else:
            self._bag.remove(index)
            obs = f"Removed item {index + 1}."
        if self._turn >= self.max_turns:
            self._truncated = True
            return obs + " Out of turns.", reward, False, True, self._info()
        return obs + f" Turns left: {self.max_turns - self._turn}.\n" + self._show(), reward, False, False, self._info()

    def solution(self) -> list[str]:
        """Add the DP-optimal items, then submit."""
        return [f"\\boxed{{add {i + 1}}}" for i in self._optimal] + ["\\boxed{submit}"]

    def close(self) -> None:
        """Nothing to release."""
