"""Word Tally: which word occurs most often in a short passage?

Counting is case-insensitive and punctuation is ignored. The passage is built so that exactly one
word has the highest count; it is usually a small function word.
"""

from __future__ import annotations

import random
import re
from typing import Any

_FUNCTION = ["the", "and", "of", "to", "a", "in", "is", "it"]
_CONTENT = ["harbor", "lamp", "river", "stone", "music", "garden", "window", "market", "letter", "forest",
            "train", "bread", "coat", "clock", "field", "mirror", "tower", "ship", "apple", "bench",
            "quietly", "bright", "cold", "green", "old", "swift", "heavy", "small", "walks", "sings"]


class WordTallyEnv:
    """Most frequent word in a passage."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._passage = ""
        self._answer = "the"
        self._turn = 0
        self._done = False

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        target = rng.choice(_FUNCTION)
        base = rng.randint(3, 5)
        counts = {w: rng.randint(1, base) for w in _FUNCTION}
        counts[target] = base + rng.randint(1, 2)
        tokens = [w for w, c in counts.items() for _ in range(c)]
        content = rng.sample(_CONTENT, 20)
        extra = [rng.choice(content) for _ in range(len(tokens))]
        tally: dict[str, int] = {}
        for w in extra:
            tally[w] = tally.get(w, 0) + 1
        if max(tally.values()) >= counts[target]:
            extra = content[:len(tokens)] if len(tokens) <= 20 else (content * 2)[:len(tokens)]
        words = tokens + extra
        rng.shuffle(words)
        sentences, i = [], 0
        while i < len(words):
            n = rng.randint(5, 9)
            chunk = words[i:i + n]
            sentences.append(chunk[0].capitalize() + " " + " ".join(chunk[1:]) + ".")
            i += n
        self._passage = " ".join(sentences)
        self._answer = target
        self._turn, self._done = 0, False
        obs = ("Word Tally. Which word occurs most often in the passage below (ignore case and punctuation)?\n\n"
               f"{self._passage}\n\nAnswer with the single word, e.g. \\boxed{{lamp}}.")
        return obs, {}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._done:
            return "Already answered.", 0.0, True, False, {}
        self._turn += 1
        found = re.findall(r"\\boxed\{([^{}]*)\}", action) if isinstance(action, str) else []
        word = found[-1].strip().lower().strip(".\"'") if found else ""
        reward, terminated = 0.0, False
        if not re.fullmatch(r"[a-z]+", word):
            obs = "Answer with one word in \\boxed{...}."
        else:
            terminated = True
            reward = 1.0 if word == self._answer else 0.0
            obs = "Correct." if reward else "Not the most frequent word."
        truncated = not terminated and self._turn >= self.max_turns
        self._done = terminated or truncated
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> str:
        return self._answer

    def close(self) -> None:
        pass
