"""Recurrence: continue a sequence produced by a linear rule a(n+1) = k*a(n) + c."""

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


class LinearRecurrenceEnv:
    reward_range = (0.0, 1.0)

    def __init__(self, max_turns=2, **kwargs):
        self.max_turns = max(1, int(max_turns))
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        k = rng.choice([-3, -2, 2, 3, 4])
        c = rng.choice([v for v in range(-9, 10) if v])
        terms = [rng.randint(-9, 9)]
        for _ in range(5):
            terms.append(k * terms[-1] + c)
        if len(set(terms)) < 6:
            terms[0] += 20
            terms = terms[:1]
            for _ in range(5):
                terms.append(k * terms[-1] + c)
        self._shown, self._next = terms[:5], terms[5]
        self._turn, self._over = 0, False
        obs = ("Each term of this sequence is a fixed integer multiple of the previous term plus a fixed integer "
               "constant:\n  " + ", ".join(map(str, self._shown)) +
               ", ...\n\nWhat is the next term? Reply as \\boxed{N}. One answer only.")
        return obs, {"shown": 5}

    def step(self, action):
        if self._over:
            return "Episode over.", 0.0, True, False, {}
        self._turn += 1
        raw = _last_box(action if isinstance(action, str) else str(action))
        raw = raw.strip() if raw is not None else ""
        reward, term = 0.0, False
        if not raw.lstrip("-").isdigit() or len(raw) > 15:
            obs = "Reply with a whole number inside \\boxed{}."
        else:
            term = True
            reward = 1.0 if int(raw) == self._next else 0.0
            obs = "Correct." if reward else "That does not follow the rule."
        trunc = not term and self._turn >= self.max_turns
        self._over = term or trunc
        return obs, reward, term, trunc, {"turn": self._turn}

    def solution(self):
        return self._next

    def close(self):
        pass
