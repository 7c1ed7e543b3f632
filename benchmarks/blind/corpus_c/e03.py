"""Sensor log: report the median of a batch of temperature readings."""

import random
import statistics


class SensorMedianEnv:
    reward_range = (0.0, 1.0)

    def __init__(self, max_turns=2, **kwargs):
        self.max_turns = max(1, int(max_turns))
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        count = rng.choice([9, 11, 13])
        self._readings = [rng.randint(-40, 140) for _ in range(count)]
        self._median = int(statistics.median(self._readings))
        self._turn, self._closed = 0, False
        log = ", ".join(str(v) for v in self._readings)
        obs = (f"A freezer sensor logged {count} temperature readings (tenths of a degree, in arrival order):\n"
               f"{log}\n\nWhat is the median reading? The median is itself one of the readings above. "
               "Reply with just that integer, e.g. \\boxed{-12}. Only one answer is accepted.")
        return obs, {"count": count}

    def step(self, action):
        if self._closed:
            return "Finished already.", 0.0, True, False, {}
        self._turn += 1
        s = action if isinstance(action, str) else str(action)
        k = s.rfind("\\boxed{")
        inner = None
        if k >= 0:
            e = s.find("}", k)
            inner = s[k + 7:e].strip() if e > k else None
        reward, done = 0.0, False
        try:
            value = int(inner) if inner is not None and len(inner) < 20 else None
        except ValueError:
            value = None
        if value is None:
            obs = "Send a single integer inside \\boxed{}."
        else:
            done = True
            reward = 1.0 if value == self._median else 0.0
            obs = "Correct median." if reward else "Not the median."
        trunc = not done and self._turn >= self.max_turns
        self._closed = done or trunc
        return obs, reward, done, trunc, {"turn": self._turn}

    def solution(self):
        return self._median

    def close(self):
        pass
