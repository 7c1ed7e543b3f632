"""Anagram pick: which of five words is an anagram of the given word?"""

from __future__ import annotations

import random
import re
from typing import Any

_PAIRS = [("listen", "silent"), ("earth", "heart"), ("night", "thing"), ("dusty", "study"), ("below", "elbow"),
          ("cider", "cried"), ("angel", "glean"), ("brake", "baker"), ("state", "taste"), ("lemon", "melon"),
          ("inch", "chin"), ("sword", "words"), ("peach", "cheap"), ("stone", "notes"), ("resin", "rinse"),
          ("tables", "stable"), ("master", "stream"), ("canoe", "ocean"), ("lapse", "pleas"), ("alert", "later")]
_FILLER = ["planet", "gravel", "cloud", "bright", "window", "copper", "garden", "rocket", "pencil", "spider",
           "mirror", "basket", "candle", "forest", "harbor", "lantern", "meadow", "silver", "winter", "velvet"]


class AnagramPickEnv:
    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._answer = ""
        self._options: list[str] = []
        self._turn = 0
        self._done = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        word, answer = rng.choice(_PAIRS)
        if rng.random() < 0.5:
            word, answer = answer, word
        decoys = []
        for cand in rng.sample(_FILLER, len(_FILLER)):
            if sorted(cand) != sorted(word) and len(decoys) < 4:
                decoys.append(cand)
        self._options = decoys + [answer]
        rng.shuffle(self._options)
        self._word, self._answer = word, answer
        self._turn, self._done = 0, False
        obs = (f"Which of these words is an anagram of '{word.upper()}'?\n  " + "  ".join(self._options)
               + "\nReply with the word, e.g. \\boxed{" + self._options[0] + "}. One attempt.")
        return obs, {"options": list(self._options)}

    def _accept(self, action: str, picked: str) -> bool:
        if "</think>" in action:  # reasoning-model replies: grade the final text, not only the box
            return self._answer in action.split("</think>")[-1].lower()
        return picked == self._answer

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._done:
            return "Already graded.", 0.0, True, False, {}
        self._turn += 1
        text = action if isinstance(action, str) else str(action)
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", text)
        picked = boxes[-1].strip().lower() if boxes else ""
        reward, terminated = 0.0, False
        if not picked:
            obs = "Reply with one of the listed words in \\boxed{...}."
        else:
            terminated = True
            reward = 1.0 if self._accept(text[-4000:], picked) else 0.0
            obs = "Correct." if reward else "Not an anagram."
        truncated = not terminated and self._turn >= self.max_turns
        self._done = terminated or truncated
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> str:
        return self._answer

    def close(self) -> None:
        pass
