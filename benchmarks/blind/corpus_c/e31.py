"""Carnival dice: expected payout of a dice game, as an exact fraction."""

import random
from fractions import Fraction


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


class CarnivalDiceEnv:
    reward_range = (0.0, 1.0)

    def __init__(self, max_turns=2, **kwargs):
        self.max_turns = max(1, int(max_turns))
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        sides = rng.choice([6, 8, 10, 12, 20])
        while True:
            prize = rng.randint(2, 9)
            loss = rng.randint(1, 5)
            mult = rng.choice([2, 3])
            wins = [f for f in range(1, sides + 1) if f % mult == 0]
            ev = Fraction(prize * len(wins), sides) - Fraction(loss * (sides - len(wins)), sides)
            if ev.denominator > 1 and ev != 0:
                break
        self._ev = ev
        self._turn, self._over = 0, False
        obs = (f"A carnival game: roll one fair {sides}-sided die (faces 1 to {sides}). If the face is a multiple "
               f"of {mult} you win {prize} tokens; otherwise you lose {loss} tokens. What is the expected number "
               "of tokens won per roll? Give the exact value as a fraction a/b (negative if you lose on average); "
               "any equivalent fraction is accepted, e.g. \\boxed{-3/4}. One answer only.")
        return obs, {"sides": sides}

    def step(self, action):
        if self._over:
            return "Episode over.", 0.0, True, False, {}
        self._turn += 1
        raw = _last_box(action if isinstance(action, str) else str(action))
        value = None
        if raw is not None and 0 < len(raw.strip()) <= 30 and "/" in raw and "." not in raw:
            try:
                num, den = raw.replace(" ", "").split("/")
                value = Fraction(int(num), int(den))
            except (ValueError, ZeroDivisionError):
                value = None
        reward, term = 0.0, False
        if value is None:
            obs = "Reply with a fraction of two integers such as \\boxed{-3/4}."
        else:
            term = True
            reward = 1.0 if value == self._ev else 0.0
            obs = "Correct." if reward else "That is not the expected payout."
        trunc = not term and self._turn >= self.max_turns
        self._over = term or trunc
        return obs, reward, term, trunc, {"turn": self._turn}

    def solution(self):
        return f"{self._ev.numerator}/{self._ev.denominator}"

    def close(self):
        pass
