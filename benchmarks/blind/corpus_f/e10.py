"""DiceSumEnv: the probability that three fair dice show a given total (skill: counting).

The answer is a fraction in lowest terms; any exact equivalent (an unreduced fraction, a terminating
decimal) is accepted. The hint points the agent at the counting step.
"""

from __future__ import annotations

import itertools
import random
import re
from fractions import Fraction
from typing import Any


def _boxes(text: str) -> list[str]:
    spans, stack = [], []
    for match in re.finditer(r"\\boxed\{|[{}]", text):
        if match.group() == "}":
            if stack:
                start = stack.pop()
                if start >= 0:
                    spans.append((start, match.start()))
        else:
            stack.append(match.end() if match.group() != "{" else -1)
    return [text[a:b] for a, b in sorted(spans)]


def _value(text: str) -> Fraction | None:
    text = text.replace(" ", "")
    frac = re.fullmatch(r"\\[dt]?frac\{(\d{1,6})\}\{(\d{1,6})\}", text)
    if frac:
        text = f"{frac.group(1)}/{frac.group(2)}"
    match = re.fullmatch(r"(\d{1,6})/(\d{1,6})", text)
    if match:
        return Fraction(int(match.group(1)), int(match.group(2))) if int(match.group(2)) else None
    if re.fullmatch(r"\d{1,3}(?:\.\d{1,12})?", text):
        return Fraction(text)
    return None


class DiceSumEnv:
    """P(sum of three dice == total)."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._total = 10
        self._ways = 27
        self._turn = 0
        self._status = (False, False)
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        rng = random.Random(seed)
        self._total = rng.randint(4, 17)
        self._ways = sum(1 for roll in itertools.product(range(1, 7), repeat=3) if sum(roll) == self._total)
        self._turn, self._status = 0, (False, False)
        text = (f"Three fair six-sided dice are rolled. What is the probability that the total is exactly "
                f"{self._total}? Box a fraction in lowest terms, e.g. \\boxed{{5/72}}. One answer is judged.")
        return text, {"dice": 3}

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict[str, Any]]:
        if any(self._status):
            return "Already judged; call reset().", 0.0, *self._status, {}
        self._turn += 1
        boxes = _boxes(action if isinstance(action, str) else "")
        value = _value(boxes[-1]) if boxes else None
        reward, terminated = 0.0, False
        if value is None:
            obs = "Box a fraction such as \\boxed{5/72}."
        elif value == Fraction(self._ways, 216):
            obs, reward, terminated = "Correct!", 1.0, True
        else:
            obs, terminated = f"Wrong; it is {Fraction(self._ways, 216)}.", True
        truncated = not terminated and self._turn >= self.max_turns
        self._status = (terminated, truncated)
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> str:
        answer = Fraction(self._ways, 216)
        return f"{answer.numerator}/{answer.denominator}"

    def hint(self) -> str:
        return (f"Count the ordered rolls (a, b, c) with a + b + c = {self._total}: there are {self._ways} of them "
                "among the 216 equally likely rolls.")

    def close(self) -> None:
        """Nothing to release."""
