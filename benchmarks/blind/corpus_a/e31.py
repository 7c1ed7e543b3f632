"""Two-Colouring: can the nodes of a graph be coloured with two colours? (skill: graph reasoning).

An undirected graph on 8-11 nodes is given as an edge list. The question is whether its nodes can be
coloured black and white so that every edge joins two different colours (the graph is bipartite).
The player answers \\boxed{yes} or \\boxed{no}. The generator produces yes and no instances with equal
probability and with the same distribution of edge counts, so a constant answer wins half the time
and the edge count alone tells nothing; the skill is finding (or ruling out) an odd cycle.
"""

from __future__ import annotations

import random
import re
from collections import deque
from typing import Any


def _bipartite(nodes: int, edges: list[tuple[int, int]]) -> bool:
    adjacency: dict[int, list[int]] = {n: [] for n in range(nodes)}
    for a, b in edges:
        adjacency[a].append(b)
        adjacency[b].append(a)
    colour: dict[int, int] = {}
    for start in range(nodes):
        if start in colour:
            continue
        colour[start] = 0
        queue = deque([start])
        while queue:
            node = queue.popleft()
            for nxt in adjacency[node]:
                if nxt not in colour:
                    colour[nxt] = 1 - colour[node]
                    queue.append(nxt)
                elif colour[nxt] == colour[node]:
                    return False
    return True


class TwoColouringEnv:
    """Decide whether a graph is bipartite (balanced yes/no)."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._nodes = 8
        self._edges: list[tuple[int, int]] = []
        self._answer = "yes"
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        want = rng.random() < 0.5
        while True:
            nodes = rng.randint(8, 11)
            size = rng.randint(nodes, nodes + 5)
            side = {n: rng.random() < 0.5 for n in range(nodes)}
            across = [(a, b) for a in range(nodes) for b in range(a + 1, nodes) if side[a] != side[b]]
            within = [(a, b) for a in range(nodes) for b in range(a + 1, nodes) if side[a] == side[b]]
            if len(across) < size or not within:
                continue
            edges = rng.sample(across, size) if want else rng.sample(across, size - 1) + [rng.choice(within)]
            if _bipartite(nodes, edges) == want:
                break
        rng.shuffle(edges)
        self._nodes, self._edges = nodes, [tuple(sorted(e)) for e in edges]
        self._answer = "yes" if want else "no"
        self._turn, self._terminated, self._truncated = 0, False, False
        text = (f"Two-Colouring. A graph has nodes 0 to {nodes - 1} and these edges:\n  "
                + ", ".join(f"{a}-{b}" for a, b in self._edges)
                + "\nCan every node be coloured black or white so that each edge joins two different "
                "colours? Answer \\boxed{yes} or \\boxed{no}.")
        return text, {"turn": 0, "nodes": nodes, "edges": len(self._edges)}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        info = {"turn": self._turn, "nodes": self._nodes, "edges": len(self._edges)}
        if self._terminated or self._truncated:
            return "Episode over.", 0.0, self._terminated, self._truncated, info
        self._turn += 1
        info["turn"] = self._turn
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
        pick = boxes[-1].strip().lower().rstrip(".") if boxes else ""
        reward = 0.0
        if pick not in ("yes", "no"):
            obs = "Answer \\boxed{yes} or \\boxed{no}."
        else:
            self._terminated = True
            if pick == self._answer:
                reward, obs = 1.0, "Correct."
            else:
                obs = "Incorrect."
        if not self._terminated and self._turn >= self.max_turns:
            self._truncated = True
            obs += " No turns left."
        return obs, reward, self._terminated, self._truncated, info

    def solution(self) -> str:
        return self._answer

    def close(self) -> None:
        """Nothing to release."""
