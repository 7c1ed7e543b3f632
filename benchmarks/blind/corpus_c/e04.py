"""Projectile range with a stated tolerance."""

import math
import random


class ProjectileRangeEnv:
    reward_range = (0.0, 1.0)
    TOLERANCE = 0.05

    def __init__(self, max_turns=3, **kwargs):
        self.max_turns = max(1, int(max_turns))
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        self._v = rng.randint(8, 45)
        self._angle = rng.choice([15, 20, 25, 30, 35, 40, 50, 55, 60, 65, 70, 75])
        self._h = rng.choice([0, 0, 1.5, 2.0, 5.0, 10.0])
        g = 9.81
        th = math.radians(self._angle)
        vx, vy = self._v * math.cos(th), self._v * math.sin(th)
        t = (vy + math.sqrt(vy * vy + 2 * g * self._h)) / g
        self._range = vx * t
        self._t, self._ended = 0, False
        obs = (f"A ball is launched from a height of {self._h} m above flat ground with speed {self._v} m/s "
               f"at {self._angle} degrees above the horizontal. Ignore air resistance and use g = 9.81 m/s^2.\n"
               "How far (horizontal distance, in metres) from the launch point does it land?\n"
               f"Give a decimal number; answers within +/- {self.TOLERANCE} m of the exact value are accepted. "
               "Format: \\boxed{12.34}. One answer only.")
        return obs, {"tolerance": self.TOLERANCE}

    def step(self, action):
        if self._ended:
            return "Episode over.", 0.0, True, False, {}
        self._t += 1
        a = action if isinstance(action, str) else str(action)
        p = a.rfind("\\boxed{")
        q = a.find("}", p) if p >= 0 else -1
        val = None
        if p >= 0 and q > p:
            try:
                val = float(a[p + 7:q].strip().replace(" ", ""))
            except ValueError:
                val = None
        reward, term = 0.0, False
        if val is None or not math.isfinite(val):
            obs = "Please reply with one finite decimal number, e.g. \\boxed{12.34}."
        else:
            term = True
            if abs(val - self._range) <= self.TOLERANCE:
                reward, obs = 1.0, f"Correct (exact range {self._range:.4f} m)."
            else:
                obs = "Outside the tolerance."
        trunc = not term and self._t >= self.max_turns
        self._ended = term or trunc
        return obs, reward, term, trunc, {"turn": self._t}

    def solution(self):
        return f"{self._range:.3f}"

    def close(self):
        pass
