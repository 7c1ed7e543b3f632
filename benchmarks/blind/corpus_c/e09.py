"""Two-colouring: decide whether a friendship graph can be split into two teams with no rivals together."""

import random


class TwoTeamsEnv:
    reward_range = (0.0, 1.0)

    def __init__(self, max_turns=3, **kwargs):
        self.max_turns = max(1, int(max_turns))
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        names = rng.sample(["Ada", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lu"],
                           rng.randint(6, 9))
        want_bipartite = rng.random() < 0.5
        while True:
            side = {n: rng.random() < 0.5 for n in names}
            edges = set()
            for i, a in enumerate(names):
                for b in names[i + 1:]:
                    if side[a] != side[b] and rng.random() < 0.45:
                        edges.add((a, b))
            if not want_bipartite:
                same = [(a, b) for i, a in enumerate(names) for b in names[i + 1:] if side[a] == side[b]]
                for a, b in rng.sample(same, min(len(same), rng.randint(1, 2))):
                    edges.add((a, b))
            if len(edges) >= len(names) - 1 and self._bipartite(names, edges) == want_bipartite:
                break
        self._answer = "yes" if want_bipartite else "no"
        self._names, self._edges = names, sorted(edges)
        self._turn, self._end = 0, False
        pairs = "\n".join(f"  {a} - {b}" for a, b in rng.sample(self._edges, len(self._edges)))
        obs = (f"These {len(names)} people are to be split into two teams. Each pair below are rivals and "
               f"must be on different teams:\n{pairs}\n\nCan everyone be placed so that no rivals share a "
               "team? Answer \\boxed{yes} or \\boxed{no}.")
        return obs, {"people": len(names)}

    @staticmethod
    def _bipartite(names, edges):
        adj = {n: [] for n in names}
        for a, b in edges:
            adj[a].append(b)
            adj[b].append(a)
        colour = {}
        for start in names:
            if start in colour:
                continue
            colour[start] = 0
            stack = [start]
            while stack:
                u = stack.pop()
                for v in adj[u]:
                    if v not in colour:
                        colour[v] = 1 - colour[u]
                        stack.append(v)
                    elif colour[v] == colour[u]:
                        return False
        return True

    def step(self, action):
        if self._end:
            return "Over.", 0.0, True, False, {}
        self._turn += 1
        s = action if isinstance(action, str) else str(action)
        k = s.rfind("\\boxed{")
        e = s.find("}", k) if k >= 0 else -1
        word = s[k + 7:e].strip().lower().rstrip(".") if k >= 0 and e > k else ""
        reward, term = 0.0, False
        if word not in ("yes", "no"):
            obs = "Please answer exactly \\boxed{yes} or \\boxed{no}."
        else:
            term = True
            reward = 1.0 if word == self._answer else 0.0
            obs = "Correct." if reward else "Wrong."
        trunc = not term and self._turn >= self.max_turns
        self._end = term or trunc
        return obs, reward, term, trunc, {"turn": self._turn}

    def solution(self):
        return self._answer

    def close(self):
        pass
