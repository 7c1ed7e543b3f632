"""Determinant drill: evaluate a 3x3 integer determinant, with feedback on each attempt."""

import random


class DeterminantDrillEnv:
    reward_range = (0.0, 1.0)

    def __init__(self, max_turns=15, **kwargs):
        self.max_turns = max(1, int(max_turns))
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        m = [[rng.randint(-9, 9) for _ in range(3)] for _ in range(3)]
        self._m = m
        self._det = (m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
                     - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
                     + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]))
        self._turn, self._over = 0, False
        rows = "\n".join("  [ " + "  ".join(f"{v:>3}" for v in row) + " ]" for row in m)
        obs = ("Compute the determinant of this matrix:\n\n" + rows +
               f"\n\nAnswer as \\boxed{{integer}}. You have {self.max_turns} attempts; after a wrong attempt "
               "you are told whether your value was too high or too low.")
        return obs, {"attempts": self.max_turns}

    def step(self, action):
        if self._over:
            return "Finished.", 0.0, True, False, {}
        self._turn += 1
        a = action if isinstance(action, str) else str(action)
        p = a.rfind("\\boxed{")
        q = a.find("}", p) if p >= 0 else -1
        raw = a[p + 7:q].strip() if p >= 0 and q > p else ""
        reward, term = 0.0, False
        try:
            guess = int(raw) if len(raw) <= 12 else None
        except ValueError:
            guess = None
        if guess is None:
            obs = "Answer with an integer in \\boxed{}."
        elif guess == self._det:
            reward, term, obs = 1.0, True, "Correct determinant."
        else:
            obs = f"Not quite: {guess} is too {'high' if guess > self._det else 'low'}."
        trunc = not term and self._turn >= self.max_turns
        if trunc:
            obs += " No attempts left."
        self._over = term or trunc
        return obs, reward, term, trunc, {"turn": self._turn}

    def solution(self):
        return self._det

    def close(self):
        pass
