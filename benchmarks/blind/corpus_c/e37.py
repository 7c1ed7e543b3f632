"""Archive clerk: put five dated letters in chronological order."""

import datetime
import random

_SENDERS = ["the mayor", "a ship's captain", "the bishop", "a tea merchant", "the harbour board", "a schoolteacher",
            "the railway company", "a botanist", "the lighthouse keeper", "a printer"]


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


class ArchiveOrderEnv:
    reward_range = (0.0, 1.0)

    def __init__(self, max_turns=2, **kwargs):
        self.max_turns = max(1, int(max_turns))
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        base = datetime.date(rng.randint(1820, 1930), 1, 1)
        offsets = rng.sample(range(0, 3650), 5)
        dates = [base + datetime.timedelta(days=o) for o in offsets]
        senders = rng.sample(_SENDERS, 5)
        self._letters = dict(zip("ABCDE", dates))
        self._order = "".join(sorted(self._letters, key=lambda k: self._letters[k]))
        self._turn, self._over = 0, False
        styles = ["%d %B %Y", "%B %d, %Y", "%Y-%m-%d", "%d/%m/%Y"]
        rows = "\n".join(f"  {k}) from {s}, dated {d.strftime(rng.choice(styles))}"
                         for (k, d), s in zip(self._letters.items(), senders))
        obs = ("Five letters were found in a drawer (dates written day/month where slashes are used):\n" + rows +
               "\n\nList their labels from the oldest to the newest, e.g. \\boxed{BDAEC}. One answer only.")
        return obs, {"letters": 5}

    def step(self, action):
        if self._over:
            return "Episode over.", 0.0, True, False, {}
        self._turn += 1
        raw = _last_box(action if isinstance(action, str) else str(action))
        order = "".join(ch for ch in raw.upper() if ch.isalnum()) if raw is not None else ""
        reward, term = 0.0, False
        if len(order) != 5 or sorted(order) != list("ABCDE"):
            obs = "Reply with the five labels A-E in order, each once, e.g. \\boxed{BDAEC}."
        else:
            term = True
            reward = 1.0 if order == self._order else 0.0
            obs = "Correct." if reward else "That is not the chronological order."
        trunc = not term and self._turn >= self.max_turns
        self._over = term or trunc
        return obs, reward, term, trunc, {"turn": self._turn}

    def solution(self):
        return self._order

    def close(self):
        pass
