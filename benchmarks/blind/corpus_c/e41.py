"""Scoreboard: by how many points did the home side win?"""

import random

_TEAMS = ["Harriers", "Comets", "Foxes", "Mariners", "Rovers", "Wolves", "Kestrels", "Titans"]


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


class WinningMarginEnv:
    reward_range = (0.0, 1.0)

    def __init__(self, max_turns=2, **kwargs):
        self.max_turns = max(1, int(max_turns))
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        home, away = rng.sample(_TEAMS, 2)
        while True:
            h = [rng.randint(8, 32) for _ in range(4)]
            a = [rng.randint(8, 32) for _ in range(4)]
            if sum(h) > sum(a):
                break
        self._margin = sum(a) - sum(h)  # away minus home
        self._turn, self._over = 0, False
        rows = (f"  {home} (home): " + ", ".join(map(str, h)) + "\n"
                f"  {away} (away): " + ", ".join(map(str, a)))
        obs = (f"Points per quarter in last night's game:\n{rows}\n\nThe home side won. By how many points did "
               f"the {home} win? Reply with the winning margin as \\boxed{{N}}. One answer only.")
        return obs, {"home": home, "away": away}

    def step(self, action):
        if self._over:
            return "Episode over.", 0.0, True, False, {}
        self._turn += 1
        raw = _last_box(action if isinstance(action, str) else str(action))
        raw = raw.strip() if raw is not None else ""
        reward, term = 0.0, False
        if not raw.lstrip("-").isdigit() or len(raw) > 6:
            obs = "Reply with a whole number inside \\boxed{}."
        else:
            term = True
            reward = 1.0 if int(raw) == self._margin else 0.0
            obs = "Correct." if reward else "That is not the margin."
        trunc = not term and self._turn >= self.max_turns
        self._over = term or trunc
        return obs, reward, term, trunc, {"turn": self._turn}

    def solution(self):
        return self._margin

    def close(self):
        pass
