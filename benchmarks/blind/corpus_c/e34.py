"""Anagram board: pick the one listed word that is an anagram of the scrambled tiles."""

import random

_WORDS = ["listen", "garden", "danger", "silent", "master", "stream", "planet", "casual", "binary", "brains",
          "carpet", "credit", "direct", "finger", "fringe", "gentle", "hunter", "insert", "jungle", "kitten",
          "legend", "mentor", "nectar", "orange", "parent", "quartz", "ranger", "sector", "escort", "thread",
          "united", "velvet", "wander", "yellow", "zipper", "bakery", "cinema", "island", "lemons", "melons",
          "poster", "presto", "remain", "marine", "salmon", "tinsel", "wonder", "rescue", "secure", "tablet"]


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


class AnagramBoardEnv:
    reward_range = (0.0, 1.0)

    def __init__(self, max_turns=2, **kwargs):
        self.max_turns = max(1, int(max_turns))
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        target = rng.choice(_WORDS)
        key = sorted(target)
        others = [w for w in _WORDS if sorted(w) != key]
        options = rng.sample(others, 7) + [target]
        rng.shuffle(options)
        while True:
            tiles = list(target)
            rng.shuffle(tiles)
            tiles = "".join(tiles)
            if tiles not in _WORDS:
                break
        self._target, self._options = target, options
        self._turn, self._over = 0, False
        obs = (f"Scrambled tiles: {tiles.upper()}\n\nExactly one of these words uses exactly these tiles:\n  "
               + ", ".join(options) + "\n\nWhich one? Reply with the word, e.g. \\boxed{word}. One answer only.")
        return obs, {"options": len(options)}

    def step(self, action):
        if self._over:
            return "Episode over.", 0.0, True, False, {}
        self._turn += 1
        raw = _last_box(action if isinstance(action, str) else str(action))
        word = raw.strip().lower() if raw is not None else ""
        reward, term = 0.0, False
        if word not in self._options:
            obs = "Reply with one of the listed words inside \\boxed{}."
        else:
            term = True
            reward = 1.0 if word == self._target else 0.0
            obs = "Correct." if reward else "Those are not the same tiles."
        trunc = not term and self._turn >= self.max_turns
        self._over = term or trunc
        return obs, reward, term, trunc, {"turn": self._turn}

    def solution(self):
        return self._target

    def close(self):
        pass
