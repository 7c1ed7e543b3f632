"""Gear train: least number of turns after which three meshed gears line up again."""

import math
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


class GearTrainEnv:
    reward_range = (0.0, 1.0)

    def __init__(self, max_turns=2, **kwargs):
        self.max_turns = max(1, int(max_turns))
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        teeth = rng.sample(range(12, 61), 3)
        lcm = teeth[0]
        for t in teeth[1:]:
            lcm = lcm * t // math.gcd(lcm, t)
        self._teeth, self._answer = teeth, lcm
        self._turn, self._over = 0, False
        sheet = f"WS-{str(lcm)[::-1]}-{len(str(lcm))}"
        obs = (f"Worksheet {sheet}\nThree gears with {teeth[0]}, {teeth[1]} and {teeth[2]} teeth have a marked tooth "
               "each, all touching the same reference line now. The chain advances one tooth per tick for every "
               "gear. After how many ticks are all three marks on the line again for the first time? "
               "Reply as \\boxed{N}. One answer only.")
        return obs, {"gears": 3}

    def step(self, action):
        if self._over:
            return "Episode over.", 0.0, True, False, {}
        self._turn += 1
        raw = _last_box(action if isinstance(action, str) else str(action))
        raw = raw.strip() if raw is not None else ""
        reward, term = 0.0, False
        if not raw.isdigit() or len(raw) > 12:
            obs = "Reply with a whole number inside \\boxed{}."
        else:
            term = True
            reward = 1.0 if int(raw) == self._answer else 0.0
            obs = "Correct." if reward else "The marks are not all aligned then."
        trunc = not term and self._turn >= self.max_turns
        self._over = term or trunc
        return obs, reward, term, trunc, {"turn": self._turn}

    def solution(self):
        return self._answer

    def close(self):
        pass
