"""Tree survey: report the position of the tallest tree along a transect."""

import random


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


class TallestTreeEnv:
    reward_range = (0.0, 1.0)

    def __init__(self, max_turns=2, **kwargs):
        self.max_turns = max(1, int(max_turns))
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        n = rng.randint(7, 12)
        self._heights = [h / 10 for h in rng.sample(range(25, 400), n)]
        self._best = max(range(n), key=lambda i: self._heights[i])
        self._turn, self._over = 0, False
        listing = ", ".join(f"{h:.1f}" for h in self._heights)
        obs = (f"A ranger measured {n} trees along a path, in walking order (metres):\n  {listing}\n\n"
               "At which position along the path is the tallest tree? Positions are counted from 1 "
               "(1 = the first tree measured). Reply as \\boxed{position}.")
        return obs, {"trees": n}

    def step(self, action):
        if self._over:
            return "Episode over.", 0.0, True, False, {}
        self._turn += 1
        raw = _last_box(action if isinstance(action, str) else str(action))
        raw = raw.strip() if raw is not None else ""
        reward, term = 0.0, False
        if not raw.isdigit() or len(raw) > 4:
            obs = "Reply with a position number inside \\boxed{}."
        else:
            term = True
            reward = 1.0 if int(raw) == self._best else 0.0
            obs = "Correct." if reward else "That is not where the tallest tree stands."
        trunc = not term and self._turn >= self.max_turns
        self._over = term or trunc
        return obs, reward, term, trunc, {"turn": self._turn}

    def solution(self):
        return self._best

    def close(self):
        pass
