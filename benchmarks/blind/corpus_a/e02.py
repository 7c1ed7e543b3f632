"""Water Jugs: measure an exact volume with two unmarked jugs (skill: planning / number theory).

Two jugs with capacities A and B litres stand next to a tap. The player may fill a jug to the brim,
empty it, or pour one jug into the other until the source is empty or the target is full. The goal is
to have exactly T litres in either jug. Each move is one turn, written in a box:
\\boxed{fill A}, \\boxed{empty B}, \\boxed{pour A B} (pour A into B).
"""

from __future__ import annotations

import random
import re
from collections import deque
from typing import Any


def _apply(state: tuple[int, int], move: str, caps: tuple[int, int]) -> tuple[int, int]:
    a, b = state
    ca, cb = caps
    if move == "fill A":
        return ca, b
    if move == "fill B":
        return a, cb
    if move == "empty A":
        return 0, b
    if move == "empty B":
        return a, 0
    if move == "pour A B":
        amount = min(a, cb - b)
        return a - amount, b + amount
    amount = min(b, ca - a)  # pour B A
    return a + amount, b - amount


_MOVES = ("fill A", "fill B", "empty A", "empty B", "pour A B", "pour B A")


class WaterJugEnv:
    """Reach exactly T litres in one of two jugs using fill / empty / pour moves."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 30, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._caps = (3, 5)
        self._target = 4
        self._state = (0, 0)
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        a, b = rng.sample(range(3, 16), 2)
        self._caps = (a, b)
        self._target = rng.randint(1, max(a, b) - 1)
        self._state = (0, 0)
        self._turn, self._terminated, self._truncated = 0, False, False
        text = (
            f"Water Jugs. Jug A holds {a} litres and jug B holds {b} litres; both start empty and there is "
            f"a tap with unlimited water. Get exactly {self._target} litres into either jug.\n"
            "Moves (one per turn, in a box): \\boxed{fill A}, \\boxed{fill B}, \\boxed{empty A}, "
            "\\boxed{empty B}, \\boxed{pour A B} (pour A into B until A is empty or B is full), "
            f"\\boxed{{pour B A}}. You have {self.max_turns} moves."
        )
        return text, self._info()

    def _info(self) -> dict:
        return {"turn": self._turn, "jugs": list(self._state), "capacities": list(self._caps),
                "target": self._target}

    def _parse(self, action: Any) -> str | None:
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
        if not boxes:
            return None
        words = re.sub(r"\b(into|to|from|the|jug)\b", " ", boxes[-1].lower()).split()
        move = " ".join(w.upper() if len(w) == 1 else w for w in words)
        return move if move in _MOVES else None

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._terminated or self._truncated:
            return "The episode is over.", 0.0, self._terminated, self._truncated, self._info()
        self._turn += 1
        move = self._parse(action)
        reward = 0.0
        if move is None:
            obs = "Unknown move. Use e.g. \\boxed{fill A} or \\boxed{pour B A}."
        else:
            self._state = _apply(self._state, move, self._caps)
            obs = f"{move}: jug A has {self._state[0]} L, jug B has {self._state[1]} L."
            if self._target in self._state:
                self._terminated, reward = True, 1.0
                obs += f" You measured {self._target} litres!"
        if not self._terminated and self._turn >= self.max_turns:
            self._truncated = True
            obs += " Out of moves."
        return obs, reward, self._terminated, self._truncated, self._info()

    def solution(self) -> list[str]:
        """Breadth-first search over jug states for the shortest move sequence."""
        start = (0, 0)
        parents: dict[tuple[int, int], tuple[tuple[int, int], str] | None] = {start: None}
        queue = deque([start])
        goal = None
        while queue:
            state = queue.popleft()
            if self._target in state:
                goal = state
                break
            for move in _MOVES:
                nxt = _apply(state, move, self._caps)
                if nxt not in parents:
                    parents[nxt] = (state, move)
                    queue.append(nxt)
        if goal is None:
            return []
        moves: list[str] = []
        while parents[goal] is not None:
            goal, move = parents[goal]
            moves.append(move)
        return [f"\\boxed{{{m}}}" for m in reversed(moves)]

    def close(self) -> None:
        """Nothing to release."""
