"""Courier timetable: total driving time of a multi-leg delivery run."""

import random
import re

_TOWNS = ["Ashford", "Brierley", "Colnbrook", "Dunmore", "Eastleigh", "Fairholm", "Gorton", "Hexley",
          "Ivybridge", "Jarrow", "Kelso", "Ludlow"]


class CourierTimetableEnv:
    reward_range = (0.0, 1.0)

    def __init__(self, max_turns=3, **kwargs):
        self.max_turns = max(1, int(max_turns))
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        stops = rng.sample(_TOWNS, rng.randint(3, 5))
        legs = []
        for a, b in zip(stops, stops[1:]):
            speed = rng.choice([40, 48, 50, 60, 64, 72, 80, 90, 96, 100])
            minutes = rng.randint(9, 95)
            legs.append((a, b, speed * minutes / 60.0, speed))
        self._legs = legs
        self._hours = sum(d / v for _, _, d, v in legs)
        self._turn, self._fin = 0, False
        rows = "\n".join(f"  {a} -> {b}: {d:g} km at an average {v} km/h" for a, b, d, v in legs)
        obs = ("A courier drives the following legs back to back, with no stops in between:\n" + rows +
               "\n\nHow long is the whole run, in minutes? Round to the nearest whole minute and answer "
               "as \\boxed{minutes}.")
        return obs, {"legs": len(legs)}

    def step(self, action):
        if self._fin:
            return "Done.", 0.0, True, False, {}
        self._turn += 1
        m = re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
        reward, term = 0.0, False
        try:
            val = float(m[-1].strip()) if m else None
        except ValueError:
            val = None
        if val is None or val != val or abs(val) == float("inf"):
            obs = "Answer with a number inside \\boxed{}."
        else:
            term = True
            total = self._hours
            if abs(val - total) <= 0.01:
                reward, obs = 1.0, "Correct."
            else:
                obs = "Incorrect total time."
        trunc = not term and self._turn >= self.max_turns
        self._fin = term or trunc
        return obs, reward, term, trunc, {"turn": self._turn}

    def solution(self):
        return round(self._hours, 4)

    def close(self):
        pass
