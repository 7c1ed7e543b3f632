"""Savings planner: final balance of a deposit with monthly compounding."""

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


class SavingsPlannerEnv:
    reward_range = (0.0, 1.0)
    TOLERANCE = 0.01

    def __init__(self, max_turns=3, **kwargs):
        self.max_turns = max(1, int(max_turns))
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        self._p = rng.randrange(500, 20000, 50)
        self._rate = rng.choice([1.5, 2.0, 2.25, 2.75, 3.0, 3.5, 4.0, 4.25, 5.0])
        self._years = rng.randint(2, 15)
        self._balance = round(self._p * (1 + self._rate / 1200) ** (12 * self._years), 2)
        self._turn, self._over = 0, False
        obs = (f"A saver deposits {self._p} EUR in an account paying {self._rate}% a year, compounded monthly "
               f"(each month the balance grows by rate/12). Nothing is withdrawn or added. What is the balance "
               f"after {self._years} years, to the cent? Answers within {self.TOLERANCE} EUR are accepted. "
               "Reply as \\boxed{1234.56}. One answer only.")
        return obs, {"years": self._years}

    def step(self, action):
        if self._over:
            return "Episode over.", 0.0, True, False, {}
        self._turn += 1
        raw = _last_box(action if isinstance(action, str) else str(action))
        value = None
        if raw is not None and len(raw) < 40:
            try:
                value = float(raw.replace(",", "").replace("EUR", "").strip())
            except ValueError:
                value = None
        reward, term = 0.0, False
        if value is None:
            obs = "Please reply with a number such as \\boxed{1234.56}."
        else:
            term = True
            if abs(value - self._balance) > self.TOLERANCE:
                obs = "That is not the balance."
            else:
                reward, obs = 1.0, "Correct balance."
        trunc = not term and self._turn >= self.max_turns
        self._over = term or trunc
        return obs, reward, term, trunc, {"turn": self._turn}

    def solution(self):
        return f"{self._balance:.2f}"

    def close(self):
        pass
