"""Remainder riddle: recover a hidden integer from its remainders."""

import math
import random


class RemainderRiddleEnv:
    reward_range = (0.0, 1.0)

    def __init__(self, max_turns=2, **kwargs):
        self.max_turns = max(1, int(max_turns))
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        self._upper = rng.randint(120, 420)
        self._moduli = sorted(rng.sample(range(2, 10), 3))
        self._secret = rng.randint(1, self._upper)
        self._turn, self._over = 0, False
        clues = "\n".join(f"  - x leaves remainder {self._secret % m} when divided by {m}" for m in self._moduli)
        text = (f"I am thinking of a whole number x between 1 and {self._upper} (inclusive).\n{clues}\n"
                f"These clues pin x down. What is x? Answer as \\boxed{{x}}.")
        return text, {"upper": self._upper, "moduli": list(self._moduli)}

    def step(self, action):
        if self._over:
            return "Game over.", 0.0, True, False, {}
        self._turn += 1
        action = action if isinstance(action, str) else str(action)
        i = action.rfind("\\boxed{")
        j = action.find("}", i + 7) if i >= 0 else -1
        raw = action[i + 7:j].strip() if i >= 0 and j >= 0 else None
        reward, term = 0.0, False
        if raw is None or not raw.lstrip("-").isdigit() or len(raw) > 12:
            obs = "Please answer with a whole number in \\boxed{}."
        else:
            term = True
            if int(raw) == self._secret:
                reward, obs = 1.0, "Yes! That is my number."
            else:
                obs = "No, that is not my number."
        trunc = not term and self._turn >= self.max_turns
        self._over = term or trunc
        return obs, reward, term, trunc, {"turn": self._turn}

    def solution(self):
        return self._secret

    def close(self):
        pass
