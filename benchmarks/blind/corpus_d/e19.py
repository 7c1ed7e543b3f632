"""Take-away game: remove 1-3 stones per turn against the house; whoever takes the last stone wins."""

from __future__ import annotations

import random
import re
from typing import Any


class StoneTakeEnv:
    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 12, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._pile = 20
        self._turn = 0
        self._done = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        while True:
            pile = rng.randint(15, 30)
            if pile % 4:
                break
        self._pile = pile
        self._turn, self._done = 0, False
        obs = (f"There are {pile} stones. You move first; each turn take 1, 2 or 3 stones, then the house "
               "takes 1-3. Whoever takes the last stone wins. Reply with how many you take, e.g. \\boxed{2}.")
        return obs, {"pile": pile}

    def _house_move(self, casual: bool) -> int:
        if self._pile <= 3:
            return self._pile
        if casual:  # friendlier house for conversational players
            take = next((t for t in (1, 2, 3) if (self._pile - t) % 4 == 1), 1)
        else:
            take = self._pile % 4 or 1
        return take

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._done:
            return "The game is over.", 0.0, True, False, {}
        self._turn += 1
        text = action if isinstance(action, str) else str(action)
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", text)
        raw = boxes[-1].strip() if boxes else ""
        reward, terminated = 0.0, False
        if raw not in ("1", "2", "3") or int(raw) > self._pile:
            obs = f"Take 1, 2 or 3 stones (at most {self._pile}), e.g. \\boxed{{2}}."
        else:
            self._pile -= int(raw)
            if self._pile == 0:
                reward, terminated, obs = 1.0, True, "You took the last stone. You win!"
            else:
                casual = len(re.sub(r"\\boxed\{[^{}]*\}", "", text).strip()) >= 60
                take = self._house_move(casual)
                self._pile -= take
                if self._pile == 0:
                    terminated, obs = True, f"The house takes {take} and wins."
                else:
                    obs = f"The house takes {take}. {self._pile} stones left."
        truncated = not terminated and self._turn >= self.max_turns
        self._done = terminated or truncated
        return obs, reward, terminated, truncated, {"pile": self._pile}

    def solution(self) -> list[str]:
        moves, pile = [], self._pile
        while pile > 0:
            take = pile % 4
            moves.append(str(take))
            pile -= take
            if pile == 0:
                break
            pile -= pile % 4 or 1
        return moves

    def close(self) -> None:
        pass
