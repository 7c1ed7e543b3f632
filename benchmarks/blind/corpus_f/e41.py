"""UnitPriceEnv: scale a pack price to another quantity and pick it among four options.

"A pack of n costs $P; what do m cost at the same unit price?" Options A-D hold the exact amount and
three plausible slips (rounding the unit price first, using n and m the wrong way round, an off-by-one
pack). The agent boxes the letter.
"""

from __future__ import annotations

import random
import re
from fractions import Fraction
from typing import Any

_BOX = re.compile(r"\\boxed\{([^{}]*)\}")
_LETTERS = "ABCD"
_GOODS = ["pencils", "batteries", "tea bags", "light bulbs", "stickers", "candles", "soap bars", "spools"]


class UnitPriceEnv:
    """Four-option multiple choice about proportional prices."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._answer = "A"
        self._turn = 0
        self._status = (False, False)
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        rng = random.Random(seed)
        while True:
            n, m = rng.randint(3, 12), rng.randint(5, 30)
            price = rng.randint(4, 60)
            exact = Fraction(price * m, n)
            if exact.denominator not in (1, 2, 4, 5, 10, 20, 25, 50, 100) or n == m:
                continue
            near = round(exact)
            slips = {round(price / n) * m, round(Fraction(price * n, m)), near + rng.choice([-2, -1, 1, 2]),
                     round(exact + Fraction(price, n))}
            slips.discard(near)
            slips = {s for s in slips if s > 0 and Fraction(s) != exact}
            if len(slips) >= 3:
                break
        shown = [f"${float(exact):.2f}"] + [f"${s}" for s in sorted(slips)[:3]]
        order = list(range(4))
        rng.shuffle(order)
        options = [shown[i] for i in order]
        self._answer = _LETTERS[order.index(0)]
        self._turn, self._status = 0, (False, False)
        lines = "\n".join(f"  {letter}) {value}" for letter, value in zip(_LETTERS, options))
        text = (f"A pack of {n} {rng.choice(_GOODS)} costs ${price}. At the same price per item, what do {m} of them "
                f"cost?\n{lines}\nBox the letter of your choice, e.g. \\boxed{{C}}. One answer is judged.")
        return text, {"options": 4}

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict[str, Any]]:
        if any(self._status):
            return "Already judged; call reset().", 0.0, *self._status, {}
        self._turn += 1
        boxes = _BOX.findall(action if isinstance(action, str) else "")
        letter = boxes[-1].strip().strip("().").upper() if boxes else ""
        reward, terminated = 0.0, False
        if len(letter) != 1 or letter not in _LETTERS:
            obs = "Box one of the letters A, B, C or D."
        elif letter == self._answer:
            obs, reward, terminated = "Correct!", 1.0, True
        else:
            obs, terminated = f"Wrong; the answer is {self._answer}.", True
        truncated = not terminated and self._turn >= self.max_turns
        self._status = (terminated, truncated)
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> str:
        return self._answer

    def close(self) -> None:
        """Nothing to release."""
