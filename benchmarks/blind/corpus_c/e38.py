"""Shop till: amount due on an order after the customer's loyalty discount."""

import random

_ITEMS = ["notebook", "fountain pen", "ink bottle", "desk lamp", "stapler", "paper ream", "ruler", "binder"]
_TIERS = ["Bronze", "Silver", "Gold", "Platinum"]


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


class LoyaltyTillEnv:
    reward_range = (0.0, 1.0)

    def __init__(self, max_turns=2, **kwargs):
        self.max_turns = max(1, int(max_turns))
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        lines = [(item, rng.randint(1, 5), rng.randrange(150, 4000, 5) / 100) for item in rng.sample(_ITEMS, 4)]
        subtotal = sum(q * p for _, q, p in lines)
        tier = rng.choice(_TIERS)
        self._discount = rng.choice([5, 10, 15, 20, 25])
        self._due = round(subtotal * (100 - self._discount) / 100, 2)
        self._turn, self._over = 0, False
        rows = "\n".join(f"  {q} x {item} @ {p:.2f} EUR" for item, q, p in lines)
        obs = (f"Order for a {tier} member:\n{rows}\n\nThe member's loyalty discount applies to the whole order. "
               "What is the amount due, to the cent? Reply as \\boxed{12.34}. One answer only.")
        return obs, {"tier": tier}

    def step(self, action):
        if self._over:
            return "Episode over.", 0.0, True, False, {}
        self._turn += 1
        raw = _last_box(action if isinstance(action, str) else str(action))
        value = None
        if raw is not None and len(raw) < 30:
            try:
                value = float(raw.strip())
            except ValueError:
                value = None
        reward, term = 0.0, False
        if value is None or value != value or value in (float("inf"), float("-inf")):
            obs = "Reply with an amount such as \\boxed{12.34}."
        else:
            term = True
            reward = 1.0 if abs(value - self._due) < 0.005 else 0.0
            obs = "Correct." if reward else "That is not the amount due."
        trunc = not term and self._turn >= self.max_turns
        self._over = term or trunc
        return obs, reward, term, trunc, {"turn": self._turn}

    def solution(self):
        return f"{self._due:.2f}"

    def close(self):
        pass
