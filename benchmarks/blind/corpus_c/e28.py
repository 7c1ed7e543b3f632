"""Balance beam: does a loaded beam tip left, tip right, or stay level?"""

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


class BalanceBeamEnv:
    reward_range = (0.0, 1.0)
    _WORDS = ("left", "right", "level")

    def __init__(self, max_turns=2, **kwargs):
        self.max_turns = max(1, int(max_turns))
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        target = rng.choice(self._WORDS)
        while True:
            left = [(rng.randint(1, 9), rng.randint(1, 6)) for _ in range(rng.randint(2, 3))]
            right = [(rng.randint(1, 9), rng.randint(1, 6)) for _ in range(rng.randint(2, 3))]
            tl = sum(w * d for w, d in left)
            tr = sum(w * d for w, d in right)
            outcome = "left" if tl > tr else "right" if tr > tl else "level"
            if outcome == target:
                break
        self._answer = outcome
        self._turn, self._over = 0, False
        fmt = lambda side: "; ".join(f"{w} kg at {d} m" for w, d in side)
        obs = ("A weightless beam rests on a pivot at its centre. Distances are measured from the pivot.\n"
               f"  Left arm:  {fmt(left)}\n  Right arm: {fmt(right)}\n\n"
               "Does the beam tip to the left, tip to the right, or stay level? "
               "Reply \\boxed{left}, \\boxed{right} or \\boxed{level}.")
        return obs, {"options": list(self._WORDS)}

    def step(self, action):
        if self._over:
            return "Episode over.", 0.0, True, False, {}
        self._turn += 1
        raw = _last_box(action if isinstance(action, str) else str(action))
        word = raw.strip().lower().rstrip(".") if raw is not None else ""
        reward, term = 0.0, False
        if word not in self._WORDS:
            obs = "Reply with exactly one of \\boxed{left}, \\boxed{right}, \\boxed{level}."
        else:
            term = True
            reward = 1.0 if word == self._answer else 0.0
            obs = "Correct." if reward else "The beam does not do that."
        trunc = not term and self._turn >= self.max_turns
        self._over = term or trunc
        return obs, reward, term, trunc, {"turn": self._turn}

    def solution(self):
        return self._answer

    def close(self):
        pass
