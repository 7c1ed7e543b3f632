"""Lucky Seven: spot the one multiple of seven in a row of numbers (skill: mental arithmetic).

Eight three-digit numbers are shown; exactly one of them is divisible by 7. The player names that
number in a box. The answer is, by design, one of the numbers on screen: a player who cannot test
divisibility picks the right one with probability 1/8. One answer per episode; a reply that is not one
of the eight numbers is refused and costs a turn.
"""

from __future__ import annotations

import random
import re
from typing import Any


class LuckySevenEnv:
    """Pick the unique multiple of 7 among eight displayed numbers."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._numbers: list[int] = []
        self._answer = 0
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        answer = 7 * rng.randint(15, 142)  # 105 .. 994
        others: set[int] = set()
        while len(others) < 7:
            n = rng.randint(100, 999)
            if n % 7 and n != answer:
                others.add(n)
        numbers = sorted(others) + [answer]
        rng.shuffle(numbers)
        self._numbers, self._answer = numbers, answer
        self._turn, self._terminated, self._truncated = 0, False, False
        text = (
            "Lucky Seven. Exactly one of these numbers is divisible by 7:\n  "
            + "  ".join(str(n) for n in numbers)
            + "\nWhich one? Reply with that number in a box, e.g. \\boxed{"
            + str(numbers[0])
            + "}."
        )
        return text, {"turn": 0, "numbers": list(numbers)}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        info = {"turn": self._turn, "numbers": list(self._numbers)}
        if self._terminated or self._truncated:
            return "The round is over.", 0.0, self._terminated, self._truncated, info
        self._turn += 1
        info["turn"] = self._turn
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
        value = boxes[-1].strip() if boxes else ""
        reward = 0.0
        if not re.fullmatch(r"\d{3}", value) or int(value) not in self._numbers:
            obs = "Please choose one of the eight numbers shown, e.g. \\boxed{" + str(self._numbers[0]) + "}."
        else:
            self._terminated = True
            if int(value) == self._answer:
                reward, obs = 1.0, f"Yes! {self._answer} = 7 x {self._answer // 7}."
            else:
                obs = f"No, {value} leaves remainder {int(value) % 7} when divided by 7."
        if not self._terminated and self._turn >= self.max_turns:
            self._truncated = True
            obs += " Out of turns."
        return obs, reward, self._terminated, self._truncated, info

    def solution(self) -> str:
        return str(self._answer)

    def close(self) -> None:
        """Nothing to release."""
