"""Odd one out: five words share a category, one does not."""

import random

_CATS = {
    "fruit": ["apple", "mango", "cherry", "papaya", "plum", "lychee", "guava", "peach"],
    "bird": ["heron", "finch", "osprey", "magpie", "wren", "plover", "kestrel", "robin"],
    "metal": ["copper", "zinc", "cobalt", "nickel", "tin", "iron", "lithium", "silver"],
    "instrument": ["cello", "oboe", "banjo", "tuba", "harp", "lute", "viola", "sitar"],
    "planet": ["mars", "venus", "saturn", "jupiter", "neptune", "uranus", "pluto"],
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


class OddWordOutEnv:
    reward_range = (0.0, 1.0)

    def __init__(self, max_turns=2, **kwargs):
        self.max_turns = max(1, int(max_turns))
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        main, other = rng.sample(sorted(_CATS), 2)
        words = rng.sample(_CATS[main], 5)
        self._odd = rng.choice(_CATS[other])
        words.append(self._odd)
        rng.shuffle(words)
        self._words = words
        self._turn, self._over = 0, False
        obs = ("Five of these six words belong to the same category; one does not:\n\n    "
               + ", ".join(words) + "\n\nWhich word is the odd one out? Answer with that single word, "
                                    "e.g. \\boxed{word}.")
        return obs, {"words": len(words)}

    def _correct(self, raw):
        if "\\text{" in raw:
            # LaTeX answers: strip the markup and look for the word in the rendered text
            plain = raw.replace("\\text{", " ").replace("}", " ").replace("{", " ").lower()
            return self._odd in plain.replace(",", " ").split()
        return raw.strip().lower().rstrip(".") == self._odd

    def step(self, action):
        if self._over:
            return "Over.", 0.0, True, False, {}
        self._turn += 1
        raw = _last_box(action if isinstance(action, str) else str(action))
        reward, term = 0.0, False
        if raw is None or not raw.strip():
            obs = "Reply with one word inside \\boxed{}."
        else:
            term = True
            reward = 1.0 if self._correct(raw) else 0.0
            obs = "Correct!" if reward else "No, that one belongs with the others."
        trunc = not term and self._turn >= self.max_turns
        self._over = term or trunc
        return obs, reward, term, trunc, {"turn": self._turn}

    def solution(self):
        return self._odd

    def close(self):
        pass
