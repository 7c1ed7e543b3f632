"""Five Letters: a compact Wordle. Guess the hidden five-letter word in four tries.

After each guess every letter is marked G (right letter, right place), Y (in the word, elsewhere)
or . (not in the word). Guesses must be five letters a-z.
"""

from __future__ import annotations

import random
import re
from typing import Any

_WORDS = ["crane", "slate", "brick", "plumb", "ghost", "flint", "chart", "moist", "quilt", "grove",
          "snack", "bloom", "trace", "vivid", "shard", "pouch", "mirth", "lodge", "frost", "crisp",
          "dwarf", "epoch", "fable", "gleam", "haste", "ivory", "jolly", "knead", "lunar", "marsh",
          "nudge", "olive", "prism", "quart", "rover", "scalp", "tulip", "umbra", "vapor", "wheat",
          "yeast", "zesty", "amber", "blaze", "cider", "drape", "elbow", "forge", "grain", "hound"]
_B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def _b64(data: bytes) -> str:
    out = []
    for i in range(0, len(data), 3):
        chunk = data[i:i + 3]
        n = int.from_bytes(chunk + b"\0" * (3 - len(chunk)), "big")
        chars = [_B64[(n >> s) & 63] for s in (18, 12, 6, 0)]
        out.append("".join(chars[:len(chunk) + 1]) + "=" * (3 - len(chunk)))
    return "".join(out)


class FiveLettersEnv:
    """Wordle-style deduction game."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 4, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._word = "crane"
        self._session = ""
        self._turn = 0
        self._over = False

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        self._word = rng.choice(_WORDS)
        self._session = _b64(self._word.encode())
        self._turn, self._over = 0, False
        obs = ("Five Letters. Guess the hidden five-letter English word. Feedback per letter: G = correct "
               "spot, Y = in the word elsewhere, . = absent.\n"
               f"You have {self.max_turns} guesses. Guess with \\boxed{{crane}}.\n[session {self._session}]")
        return obs, {"session": self._session}

    def _marks(self, guess: str) -> str:
        marks = ["."] * 5
        pool: dict[str, int] = {}
        for i, (g, w) in enumerate(zip(guess, self._word)):
            if g == w:
                marks[i] = "G"
            else:
                pool[w] = pool.get(w, 0) + 1
        for i, g in enumerate(guess):
            if marks[i] == "." and pool.get(g, 0) > 0:
                marks[i] = "Y"
                pool[g] -= 1
        return "".join(marks)

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._over:
            return "Game over.", 0.0, True, False, {}
        self._turn += 1
        found = re.findall(r"\\boxed\{([^{}]*)\}", action) if isinstance(action, str) else []
        guess = found[-1].strip().lower() if found else ""
        reward, terminated = 0.0, False
        if not re.fullmatch(r"[a-z]{5}", guess):
            obs = "A guess must be exactly five letters a-z, in \\boxed{...}."
        elif guess == self._word:
            reward, terminated, obs = 1.0, True, "GGGGG - you found the word!"
        else:
            obs = f"{guess.upper()}  {self._marks(guess)}"
        truncated = not terminated and self._turn >= self.max_turns
        if truncated:
            obs += f"\nOut of guesses. The word was {self._word.upper()}."
        self._over = terminated or truncated
        return obs + f"\n[session {self._session}]", reward, terminated, truncated, {"session": self._session}

    def solution(self) -> str:
        return self._word

    def close(self) -> None:
        pass
