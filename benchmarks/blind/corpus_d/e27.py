"""Caesar decryption: recover a short plaintext encrypted with an unknown shift."""

from __future__ import annotations

import random
import re
import string
from typing import Any

_WORDS = ["APPLE", "RIVER", "STONE", "CLOUD", "GARDEN", "MARKET", "SILVER", "WINTER", "PLANET", "BRIDGE",
          "CANDLE", "FOREST", "HARBOR", "ISLAND", "JUNGLE", "KETTLE", "LANTERN", "MEADOW", "NEEDLE", "ORANGE",
          "PEPPER", "QUIVER", "ROCKET", "SADDLE", "TIMBER", "VELVET", "WALNUT", "YELLOW", "ZEPHYR", "ANCHOR",
          "BASKET", "COPPER", "DRAGON", "ENGINE", "FALCON", "GOBLET", "HAMMER", "INSECT", "JACKET", "KNIGHT"]


class CaesarCrackEnv:
    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 6, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._plain = ""
        self._cipher = ""
        self._attempts = 2
        self._turn = 0
        self._done = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        self._plain = "".join(rng.sample(_WORDS, rng.choice([2, 3])))
        shift = rng.randint(1, 25)
        up = string.ascii_uppercase
        self._cipher = self._plain.translate(str.maketrans(up, up[shift:] + up[:shift]))
        self._attempts, self._turn, self._done = 2, 0, False
        obs = (f"Ciphertext: {self._cipher}\n"
               "It was produced by a Caesar shift with an unknown key and hides two or three English words "
               "run together. Reply with the plaintext in capital letters and no spaces, e.g. "
               f"\\boxed{{HELLOWORLD}}. You have {self._attempts} attempts.")
        return obs, {"length": len(self._cipher), "attempts_left": self._attempts}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._done:
            return "Episode finished.", 0.0, True, False, {}
        self._turn += 1
        match = re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
        reward, terminated = 0.0, False
        if not match:
            obs = "Reply with \\boxed{PLAINTEXT}."
        else:
            guess = match[-1].strip().upper().replace(" ", "")
            if not guess or not all(ch in string.ascii_uppercase for ch in guess):
                obs = (f"Letters A-Z only: your answer should have {len(self._plain)} letters and "
                       f"look like {self._plain[:3]}... (this reply did not use an attempt).")
            elif guess == self._plain:
                reward, terminated, obs = 1.0, True, "Decrypted correctly."
            else:
                self._attempts -= 1
                terminated = self._attempts <= 0
                obs = "Wrong plaintext." + ("" if terminated else f" {self._attempts} attempt left.")
        truncated = not terminated and self._turn >= self.max_turns
        self._done = terminated or truncated
        return obs, reward, terminated, truncated, {"attempts_left": self._attempts}

    def solution(self) -> str:
        return self._plain

    def close(self) -> None:
        pass
