"""Water run: which well is farthest from the village?"""

import math
import random

_WELLS = ["Alder", "Birch", "Cedar", "Dogwood", "Elm", "Fir", "Hazel", "Juniper", "Larch", "Maple", "Oak", "Rowan"]


def _last_box(text):
    start = text.rfind("\\boxed{")
    if start < 0:
        return None
    depth = 0
    for i in range(start + 6, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return text[start + 7:i]
    return None


class FarWellEnv:
    reward_range = (0.0, 1.0)

    def __init__(self, max_turns=2, **kwargs):
        self.max_turns = max(1, int(max_turns))
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        while True:
            village = (rng.randint(-20, 20), rng.randint(-20, 20))
            names = rng.sample(_WELLS, rng.randint(4, 7))
            wells = {n: (rng.randint(-40, 40), rng.randint(-40, 40)) for n in names}
            dist = {n: math.dist(village, p) for n, p in wells.items()}
            ranked = sorted(dist.values())
            if len(set(ranked)) == len(ranked) and ranked[0] > 0:
                break
        self._village, self._wells = village, wells
        self._target = min(names, key=lambda n: dist[n])
        self._turn, self._over = 0, False
        rows = "\n".join(f"  {n} well at ({x}, {y})" for n, (x, y) in wells.items())
        obs = (f"The village square is at {village} on a map grid (km). The wells are:\n{rows}\n\n"
               "Which well is farthest from the square in a straight line? Reply with its name, e.g. "
               "\\boxed{Alder}. One answer only.")
        return obs, {"wells": len(names)}

    def step(self, action):
        if self._over:
            return "Episode over.", 0.0, True, False, {}
        self._turn += 1
        raw = _last_box(action if isinstance(action, str) else str(action))
        name = raw.strip().lower().replace(" well", "") if raw is not None else ""
        reward, term = 0.0, False
        if name not in [n.lower() for n in self._wells]:
            obs = "Reply with one of the well names inside \\boxed{}."
        else:
            term = True
            reward = 1.0 if name == self._target.lower() else 0.0
            obs = "Correct." if reward else "Not that one."
        trunc = not term and self._turn >= self.max_turns
        self._over = term or trunc
        return obs, reward, term, trunc, {"turn": self._turn}

    def solution(self):
        return self._target

    def close(self):
        pass
