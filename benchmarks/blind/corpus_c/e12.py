"""Cave crawl: write out a route through a rocky cave from the entrance to the exit."""

import collections
import random

_MOVES = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}


class CaveCrawlEnv:
    reward_range = (0.0, 1.0)

    def __init__(self, max_turns=3, **kwargs):
        self.max_turns = max(1, int(max_turns))
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        self._n = n = rng.randint(6, 8)
        self._rock = {(r, c) for r in range(n) for c in range(n)
                      if (r, c) not in ((0, 0), (n - 1, n - 1)) and rng.random() < 0.3}
        self._turn, self._over = 0, False
        grid = "\n".join("".join("E" if (r, c) == (0, 0) else "X" if (r, c) == (n - 1, n - 1)
                                 else "#" if (r, c) in self._rock else "." for c in range(n)) for r in range(n))
        obs = ("Cave map (E = entrance, X = exit, # = rock, . = open floor):\n\n" + grid +
               "\n\nA route from E to X always exists. Give one as a string of moves U, D, L, R (one cell "
               "each, never into rock or off the map), e.g. \\boxed{RRDDR}.")
        return obs, {"size": n}

    def _path(self):
        n, start, goal = self._n, (0, 0), (self._n - 1, self._n - 1)
        prev = {start: None}
        queue = collections.deque([start])
        while queue:
            cell = queue.popleft()
            if cell == goal:
                break
            for m, (dr, dc) in _MOVES.items():
                nxt = (cell[0] + dr, cell[1] + dc)
                if 0 <= nxt[0] < n and 0 <= nxt[1] < n and nxt not in self._rock and nxt not in prev:
                    prev[nxt] = (cell, m)
                    queue.append(nxt)
        if goal not in prev:
            return ""
        moves, cell = [], goal
        while prev[cell] is not None:
            cell, m = prev[cell]
            moves.append(m)
        return "".join(reversed(moves))

    def step(self, action):
        if self._over:
            return "The crawl is over.", 0.0, True, False, {}
        self._turn += 1
        a = action if isinstance(action, str) else str(action)
        p = a.rfind("\\boxed{")
        q = a.find("}", p) if p >= 0 else -1
        route = a[p + 7:q].replace(" ", "").replace(",", "").upper() if p >= 0 and q > p else None
        reward, term = 0.0, False
        if not route or any(ch not in _MOVES for ch in route) or len(route) > 400:
            obs = "Send a route made of U, D, L, R inside \\boxed{}."
        else:
            term = True
            r, c = 0, 0
            ok = True
            for ch in route:
                r, c = r + _MOVES[ch][0], c + _MOVES[ch][1]
                if not (0 <= r < self._n and 0 <= c < self._n) or (r, c) in self._rock:
                    ok = False
                    break
            if ok and (r, c) == (self._n - 1, self._n - 1):
                reward, obs = 1.0, "You reached the exit."
            else:
                obs = "That route does not lead safely to the exit."
        trunc = not term and self._turn >= self.max_turns
        self._over = term or trunc
        return obs, reward, term, trunc, {"turn": self._turn}

    def solution(self):
        return self._path() or "R"

    def close(self):
        pass
