"""Road sign: convert a distance in miles to kilometres."""

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


class MilesToKmEnv:
    reward_range = (0.0, 1.0)

    def __init__(self, max_turns=3, **kwargs):
        self.max_turns = max(1, int(max_turns))
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        self._miles = rng.randrange(15, 9000) / 10
        self._km = round(self._miles * 1.609344, 2)
        self._turn, self._over = 0, False
        obs = (f"A road sign says the next city is {self._miles} miles away. How far is that in kilometres "
               "(1 mile = 1.609344 km), rounded to 2 decimals? Reply as \\boxed{12.34}. A reply that is not a "
               "number does not count as your answer.")
        return obs, {"decimals": 2}

    def _example(self):
        return f"\\boxed{{{self._km:.2f}}}"

    def step(self, action):
        if self._over:
            return "Episode over.", 0.0, True, False, {}
        self._turn += 1
        raw = _last_box(action if isinstance(action, str) else str(action))
        value = None
        if raw is not None and len(raw) < 30:
            try:
                value = round(float(raw.strip()), 2)
            except (ValueError, OverflowError):
                value = None
        reward, term = 0.0, False
        if value is None or value != value:
            obs = f"Could not read a number there. Answers look like {self._example()} (two decimals)."
        else:
            term = True
            reward = 1.0 if abs(value - self._km) < 0.001 else 0.0
            obs = "Correct." if reward else "That is not the distance in kilometres."
        trunc = not term and self._turn >= self.max_turns
        self._over = term or trunc
        return obs, reward, term, trunc, {"turn": self._turn}

    def solution(self):
        return f"{self._km:.2f}"

    def close(self):
        pass
