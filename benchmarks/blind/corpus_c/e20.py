"""Ferry network: cheapest crossing cost between two islands (a hint names the method)."""

import heapq
import random

_ISLANDS = ["Arn", "Bressa", "Colm", "Delve", "Eyra", "Fask", "Gull", "Hoy", "Inch", "Jura", "Kerr"]


class FerryFareEnv:
    reward_range = (0.0, 1.0)

    def __init__(self, max_turns=2, **kwargs):
        self.max_turns = max(1, int(max_turns))
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        nodes = rng.sample(_ISLANDS, rng.randint(7, 9))
        edges = {}
        order = nodes[:]
        rng.shuffle(order)
        for a, b in zip(order, order[1:]):
            edges[frozenset((a, b))] = rng.randint(3, 30)
        for _ in range(len(nodes)):
            a, b = rng.sample(nodes, 2)
            edges.setdefault(frozenset((a, b)), rng.randint(3, 30))
        self._src, self._dst = rng.sample(nodes, 2)
        self._edges = edges
        self._cost = self._dijkstra(nodes)
        self._turn, self._over = 0, False
        lines = "\n".join(f"  {'-'.join(sorted(e))}: {w} crowns" for e, w in sorted(edges.items(),
                                                                                     key=lambda x: sorted(x[0])))
        obs = (f"Ferry routes (both directions, fare per crossing):\n{lines}\n\nWhat is the cheapest total fare "
               f"to travel from {self._src} to {self._dst}? Reply \\boxed{{fare}}.")
        return obs, {"islands": len(nodes)}

    def _dijkstra(self, nodes):
        dist = {n: None for n in nodes}
        heap = [(0, self._src)]
        while heap:
            d, u = heapq.heappop(heap)
            if dist[u] is not None:
                continue
            dist[u] = d
            for e, w in self._edges.items():
                if u in e:
                    (v,) = tuple(e - {u})
                    if dist[v] is None:
                        heapq.heappush(heap, (d + w, v))
        return dist[self._dst]

    def hint(self):
        return ("This is a single-source shortest-path problem with positive weights: Dijkstra's algorithm "
                f"from {self._src} finds it.")

    def step(self, action):
        if self._over:
            return "Over.", 0.0, True, False, {}
        self._turn += 1
        a = action if isinstance(action, str) else str(action)
        p = a.rfind("\\boxed{")
        q = a.find("}", p) if p >= 0 else -1
        raw = a[p + 7:q].strip() if p >= 0 and q > p else ""
        reward, term = 0.0, False
        if not raw.isdigit() or len(raw) > 9:
            obs = "Answer with a whole number of crowns in \\boxed{}."
        else:
            term = True
            reward = 1.0 if int(raw) == self._cost else 0.0
            obs = "Correct, that is the cheapest fare." if reward else "There is a cheaper way (or that is impossible)."
        trunc = not term and self._turn >= self.max_turns
        self._over = term or trunc
        return obs, reward, term, trunc, {"turn": self._turn}

    def solution(self):
        return self._cost

    def close(self):
        pass
