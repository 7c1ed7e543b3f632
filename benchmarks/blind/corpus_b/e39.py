"""Word Chain: build a chain from a word bank where each word starts with the previous word's last letter.

The first word is given. Play one word per turn from the bank; words cannot be reused. The game
repeats each accepted word back to the player. A word that breaks the chain ends the game, so plan
ahead: some branches run into dead ends.
"""

from __future__ import annotations

import random
import re
from typing import Any

_BANK = ["apple", "eagle", "earth", "helmet", "tiger", "river", "radar", "rocket", "tulip", "piano",
         "orbit", "train", "needle", "engine", "easel", "lemon", "night", "tower", "rabbit", "tent",
         "onion", "north", "honey", "yacht", "table", "echo", "opera", "atlas", "sugar", "salmon",
         "nectar", "ladder", "drum", "magnet", "tunnel", "lantern", "nut", "timber", "robin", "nail"]


class WordChainEnv:
    """Last-letter chain over a fixed bank."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 10, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._bank: list[str] = []
        self._chain: list[str] = []
        self._length = 5
        self._plan: list[str] = []
        self._turn = 0
        self._over = False

    def _find(self, chain: list[str], need: int) -> list[str] | None:
        if len(chain) == need:
            return chain
        for w in self._bank:
            if w not in chain and w[0] == chain[-1][-1]:
                found = self._find(chain + [w], need)
                if found:
                    return found
        return None

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        while True:
            self._bank = sorted(rng.sample(_BANK, 14))
            start = rng.choice(self._bank)
            self._length = rng.randint(4, 6)
            plan = self._find([start], self._length)
            if plan:
                break
        self._plan, self._chain = plan, [start]
        self._turn, self._over = 0, False
        obs = (f"Word Chain. Bank: {', '.join(w for w in self._bank if w != start)}.\n"
               f"The chain starts with '{start}'. Extend it to {self._length} words in total: each new word must "
               "start with the last letter of the previous word; no reuse; a breaking word ends the game.\n"
               "Play one word per turn, e.g. \\boxed{word}.")
        return obs, {"chain": list(self._chain)}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._over:
            return "Game over.", 0.0, True, False, {"chain": list(self._chain)}
        self._turn += 1
        found = re.findall(r"\\boxed\{([^{}]*)\}", action) if isinstance(action, str) else []
        word = found[-1].strip().lower() if found else ""
        reward, terminated = 0.0, False
        if not re.fullmatch(r"[a-z]+", word):
            obs = "Play a single bank word inside \\boxed{...}."
        elif word not in self._bank or word in self._chain or word[0] != self._chain[-1][-1]:
            terminated = True
            obs = f"You said '{word}', which does not extend the chain. Game over."
        else:
            self._chain.append(word)
            obs = f"You said '{word}'. Chain: {' -> '.join(self._chain)}."
            if len(self._chain) >= self._length:
                reward, terminated = 1.0, True
                obs += " Chain complete!"
        truncated = not terminated and self._turn >= self.max_turns
        self._over = terminated or truncated
        return obs, reward, terminated, truncated, {"chain": list(self._chain)}

    def solution(self) -> list[str]:
        return self._plan[1:]

    def close(self) -> None:
        pass
