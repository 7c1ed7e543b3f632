"""Two Colours: decide whether a small undirected graph is bipartite.

The graph is listed as edges between numbered vertices. Answer yes if its vertices can be coloured
with two colours so that no edge joins two vertices of the same colour, otherwise no. About half the
graphs are bipartite.
"""

from __future__ import annotations

import random
import re
from collections import deque
from typing import Any


def _bipartite(n: int, edges: list[tuple[int, int]]) -> bool:
    adj: dict[int, list[int]] = {v: [] for v in range(n)}
    for a, b in edges:
        adj[a].append(b)
        adj[b].append(a)
    colour: dict[int, int] = {}
    for start in range(n):
        if start in colour:
            continue
        colour[start] = 0
        queue = deque([start])
        while queue:
            v = queue.popleft()
            for w in adj[v]:
                if w not in colour:
                    colour[w] = 1 - colour[v]
                    queue.append(w)
                elif colour[w] == colour[v]:
                    return False
    return True


class TwoColoursEnv:
    """Yes/no bipartiteness question."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._n = 6
        self._edges: list[tuple[int, int]] = []
        self._answer = "yes"
        self._turn = 0
        self._done = False

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        want = rng.random() < 0.5
        while True:
            n = rng.randint(6, 9)
            pairs = [(a, b) for a in range(n) for b in range(a + 1, n)]
            edges = sorted(rng.sample(pairs, rng.randint(n, n + 4)))
            if _bipartite(n, edges) == want:
                break
        self._n, self._edges = n, edges
        self._answer = "yes" if want else "no"
        self._turn, self._done = 0, False
        listing = ", ".join(f"{a}-{b}" for a, b in edges)
        obs = (f"Two Colours. A graph has vertices 0..{n - 1} and edges: {listing}.\n"
               "Is it bipartite? Answer \\boxed{yes} or \\boxed{no}.")
        return obs, {"vertices": n}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._done:
            return "Question closed.", 0.0, True, False, {}
        self._turn += 1
        found = re.findall(r"\\boxed\{([^{}]*)\}", action) if isinstance(action, str) else []
        word = found[-1].strip().lower() if found else ""
        reward, terminated = 0.0, False
        if word not in ("yes", "no"):
            obs = "Answer with \\boxed{yes} or \\boxed{no}."
        else:
            terminated = True
            reward = 1.0 if word == self._answer else 0.0
            obs = "Correct." if reward else "Incorrect."
        truncated = not terminated and self._turn >= self.max_turns
        self._done = terminated or truncated
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> str:
        return self._answer

    def close(self) -> None:
        pass
