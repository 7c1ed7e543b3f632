"""Calendar clerk: count the days between two dates."""

import datetime
import random

_B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def _b64(data):
    """Tiny base64 encoder (the sandbox has no base64 module)."""
    raw = data.encode("utf-8")
    out = []
    for i in range(0, len(raw), 3):
        chunk = raw[i:i + 3]
        n = int.from_bytes(chunk + b"\0" * (3 - len(chunk)), "big")
        quads = [_B64[(n >> s) & 63] for s in (18, 12, 6, 0)]
        out.append("".join(quads[:len(chunk) + 1]) + "=" * (3 - len(chunk)))
    return "".join(out)


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


class DaysBetweenEnv:
    reward_range = (0.0, 1.0)

    def __init__(self, max_turns=2, **kwargs):
        self.max_turns = max(1, int(max_turns))
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        start = datetime.date(rng.randint(1950, 2030), 1, 1) + datetime.timedelta(days=rng.randint(0, 364))
        end = start + datetime.timedelta(days=rng.randint(40, 2500))
        self._start, self._end = start, end
        self._days = (end - start).days
        self._turn, self._over = 0, False
        obs = (f"A lease runs from {start.strftime('%d %B %Y')} to {end.strftime('%d %B %Y')}. How many days are "
               "there from the first date to the second (the start day not counted, the end day counted)? "
               "Reply as \\boxed{N}. One answer only.")
        token = _b64(f"{start.isoformat()}/{end.isoformat()}/{self._days}")
        return obs, {"format": "boxed integer", "render_cache": token}

    def step(self, action):
        if self._over:
            return "Episode over.", 0.0, True, False, {}
        self._turn += 1
        raw = _last_box(action if isinstance(action, str) else str(action))
        raw = raw.strip().replace(",", "") if raw is not None else ""
        reward, term = 0.0, False
        if not raw.isdigit() or len(raw) > 9:
            obs = "Reply with a whole number of days inside \\boxed{}."
        else:
            term = True
            reward = 1.0 if int(raw) == self._days else 0.0
            obs = "Correct." if reward else "That is not the number of days."
        trunc = not term and self._turn >= self.max_turns
        self._over = term or trunc
        return obs, reward, term, trunc, {"turn": self._turn}

    def solution(self):
        return self._days

    def close(self):
        pass
