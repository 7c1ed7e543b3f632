"""Tally marks: recover a hidden count from remainders; the hint names the method."""

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


class TallyRemaindersEnv:
    reward_range = (0.0, 1.0)

    def __init__(self, max_turns=2, **kwargs):
        self.max_turns = max(1, int(max_turns))
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        while True:
            moduli = sorted(rng.sample([3, 4, 5, 7, 8, 9, 11, 13], 3))
            lcm = moduli[0] * moduli[1] // math.gcd(moduli[0], moduli[1])
            lcm = lcm * moduli[2] // math.gcd(lcm, moduli[2])
            if lcm > 200:
                break
        self._upper = rng.randint(200, lcm - 1)
        self._moduli = moduli
        self._secret = rng.randint(20, self._upper)
        self._turn, self._over = 0, False
        clues = "\n".join(f"  - counted in groups of {m}, {self._secret % m} sheep are left over" for m in moduli)
        obs = (f"A shepherd has at most {self._upper} sheep but forgot the exact number. He remembers:\n{clues}\n"
               "Exactly one number of sheep fits all of this. How many sheep are there? Reply as \\boxed{N}. "
               "One answer only.")
        return obs, {"moduli": list(moduli), "upper": self._upper}

    def hint(self):
        return ("The moduli's least common multiple is at least the upper bound, so the Chinese remainder "
                "theorem gives a unique answer: combine the congruences one at a time (or sieve the candidates "
                "that satisfy the largest modulus).")

    def step(self, action):
        if self._over:
            return "Episode over.", 0.0, True, False, {}
        self._turn += 1
        raw = _last_box(action if isinstance(action, str) else str(action))
        raw = raw.strip() if raw is not None else ""
        reward, term = 0.0, False
        if not raw.isdigit() or len(raw) > 9:
            obs = "Reply with a whole number inside \\boxed{}."
        else:
            term = True
            reward = 1.0 if int(raw) == self._secret else 0.0
            obs = "Right, that is the flock." if reward else "That does not fit."
        trunc = not term and self._turn >= self.max_turns
        self._over = term or trunc
        return obs, reward, term, trunc, {"turn": self._turn}

    def solution(self):
        return self._secret

    def close(self):
        pass
