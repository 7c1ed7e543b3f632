"""Growth estimate (multiple choice with a stated tolerance)."""

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


class GrowthEstimateEnv:
    reward_range = (0.0, 1.0)

    def __init__(self, max_turns=2, **kwargs):
        self.max_turns = max(1, int(max_turns))
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        start = rng.randrange(200, 5000, 10)
        rate = rng.choice([3, 4, 5, 6, 7, 8, 9, 11, 12])
        hours = rng.randint(10, 40)
        true = start * (1 + rate / 100) ** hours
        good = round(true * rng.uniform(0.985, 1.015))
        below = rng.randint(0, 3)  # how many distractors lie below the true value
        factors = rng.sample([0.62, 0.7, 0.78, 0.86], below) + rng.sample([1.14, 1.25, 1.38, 1.5], 3 - below)
        options = [good] + [round(true * f) for f in factors]
        rng.shuffle(options)
        self._letter = "ABCD"[options.index(good)]
        self._turn, self._over = 0, False
        listing = "\n".join(f"  {l}) about {v:,}" for l, v in zip("ABCD", options))
        obs = (f"A culture starts with {start} cells and grows by {rate}% every hour. Which option is within 2% "
               f"of the number of cells after {hours} hours? Exactly one is; the others are off by more than "
               f"10%.\n{listing}\n\nReply with the letter, e.g. \\boxed{{B}}. One answer only.")
        return obs, {"options": 4}

    def step(self, action):
        if self._over:
            return "Episode over.", 0.0, True, False, {}
        self._turn += 1
        raw = _last_box(action if isinstance(action, str) else str(action))
        letter = raw.strip().upper().rstrip(")") if raw is not None else ""
        reward, term = 0.0, False
        if letter not in ("A", "B", "C", "D"):
            obs = "Reply with one letter A-D inside \\boxed{}."
        else:
            term = True
            reward = 1.0 if letter == self._letter else 0.0
            obs = "Correct." if reward else "Not within 2%."
        trunc = not term and self._turn >= self.max_turns
        self._over = term or trunc
        return obs, reward, term, trunc, {"turn": self._turn}

    def solution(self):
        return self._letter

    def close(self):
        pass
