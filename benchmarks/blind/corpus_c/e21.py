"""Urn quiz (multiple choice): probability of drawing two red marbles without replacement."""

import random
from fractions import Fraction


class UrnQuizEnv:
    reward_range = (0.0, 1.0)

    def __init__(self, max_turns=2, **kwargs):
        self.max_turns = max(1, int(max_turns))
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        while True:
            r = rng.randint(3, 9)
            n = r + rng.randint(2, 9)
            right = Fraction(r * (r - 1), n * (n - 1))
            below = [Fraction(r * (r - 1), n * n), Fraction((r - 1) * (r - 2), n * (n - 1)),
                     Fraction(r * (r - 1), n * (n + 1))]
            above = [Fraction(r * r, n * n), Fraction(r - 1, n - 1), Fraction(r, n)]
            k = rng.randint(0, 3)
            wrong = rng.sample(below, k) + rng.sample(above, 3 - k)
            if len(set(wrong + [right])) == 4 and right not in wrong:
                break
        options = wrong + [right]
        rng.shuffle(options)
        self._letter = "ABCD"[options.index(right)]
        self._turn, self._over = 0, False
        listing = "\n".join(f"  {l}) {o.numerator}/{o.denominator}" for l, o in zip("ABCD", options))
        obs = (f"An urn holds {r} red and {n - r} blue marbles. Two marbles are drawn at random without "
               f"replacement. What is the probability that both are red?\n\n{listing}\n\n"
               "Reply with the letter of your choice, e.g. \\boxed{C}. One answer only.")
        return obs, {"options": 4}

    def step(self, action):
        if self._over:
            return "Quiz over.", 0.0, True, False, {}
        self._turn += 1
        a = action if isinstance(action, str) else str(action)
        p = a.rfind("\\boxed{")
        q = a.find("}", p) if p >= 0 else -1
        raw = a[p + 7:q].strip().upper().rstrip(")") if p >= 0 and q > p else ""
        reward, term = 0.0, False
        if raw not in ("A", "B", "C", "D"):
            obs = "Please answer with one letter A-D inside \\boxed{}."
        else:
            term = True
            reward = 1.0 if raw == self._letter else 0.0
            obs = "Correct." if reward else f"Incorrect."
        trunc = not term and self._turn >= self.max_turns
        self._over = term or trunc
        return obs, reward, term, trunc, {"turn": self._turn}

    def solution(self):
        return self._letter

    def close(self):
        pass
