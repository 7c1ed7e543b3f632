"""Word tiles: unscramble the tiles into a common English word (a hint is available)."""

import random

_WORDS = ["lantern", "meadow", "voyage", "thunder", "orchard", "falcon", "compass", "blanket",
          "pepper", "quarry", "saddle", "timber", "walnut", "beacon", "candle", "emblem", "fossil",
          "kettle", "garlic", "pillow", "rocket", "sunset", "tunnel", "basket", "copper", "dragon"]
_CUE = {
    "a": ["arrange", "always", "any"], "b": ["begin", "bring", "but"], "c": ["consider", "check", "common"],
    "d": ["do", "drop", "double"], "e": ["each", "every", "ending"], "f": ["find", "first", "few"],
    "g": ["group", "guess", "gently"], "h": ["how", "hold", "hard"], "i": ["its", "inside", "in"],
    "k": ["keep", "known", "key"], "l": ["letters", "look", "likely"], "m": ["most", "mind", "many"],
    "n": ["notice", "next", "never"], "o": ["of", "often", "order"], "p": ["pairs", "place", "pick"],
    "q": ["quietly", "quick", "quite"], "r": ["rare", "read", "repeated"], "s": ["sounds", "start", "some"],
    "t": ["try", "the", "then"], "u": ["usual", "use", "until"], "v": ["vowels", "visible", "very"],
    "w": ["with", "where", "words"], "y": ["your", "yet", "you"],
}


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


class WordTilesEnv:
    reward_range = (0.0, 1.0)

    def __init__(self, max_turns=2, **kwargs):
        self.max_turns = max(1, int(max_turns))
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        self._word = rng.choice(_WORDS)
        while True:
            tiles = list(self._word)
            rng.shuffle(tiles)
            if "".join(tiles) != self._word:
                break
        self._tiles = "".join(tiles).upper()
        self._hint = " ".join(rng.choice(_CUE[ch]) for ch in self._word).capitalize() + "."
        self._turn, self._over = 0, False
        obs = (f"Tiles: {' '.join(self._tiles)}\n\nRearrange all the tiles into one common English word. Reply "
               "as \\boxed{word}. One answer only.")
        return obs, {"tiles": len(self._tiles)}

    def hint(self):
        return "Reading tip: " + self._hint

    def step(self, action):
        if self._over:
            return "Episode over.", 0.0, True, False, {}
        self._turn += 1
        raw = _last_box(action if isinstance(action, str) else str(action))
        word = raw.strip().lower() if raw is not None else ""
        reward, term = 0.0, False
        if not word.isalpha() or len(word) > 30:
            obs = "Reply with one word inside \\boxed{}."
        else:
            term = True
            reward = 1.0 if word == self._word else 0.0
            obs = "Correct." if reward else "That is not the word."
        trunc = not term and self._turn >= self.max_turns
        self._over = term or trunc
        return obs, reward, term, trunc, {"turn": self._turn}

    def solution(self):
        return self._word

    def close(self):
        pass
