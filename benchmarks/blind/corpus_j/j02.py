"""Number Target: combine four numbers with + - * / to hit a target (skill: Arithmetic Search).

Four numbers from 1 to 13 and a target are dealt; the target is always reachable. An answer is an
arithmetic expression that uses each dealt number exactly once (brackets allowed, exact fractions in
between). Each turn is one attempt and is answered with the value it makes; five attempts are given.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from fractions import Fraction
from typing import Any

_OPS = "+-*/"


def _apply(x: Fraction, op: str, y: Fraction) -> Fraction | None:
    if op == "+":
        return x + y
    if op == "-":
        return x - y
    if op == "*":
        return x * y
    return None if y == 0 else x / y


class _Parser:
    """Recursive-descent evaluation of + - * / and brackets over whole numbers."""

    def __init__(self, text: str) -> None:
        self.tokens = re.findall(r"\d+|[-+*/()]", text)
        self.ok = "".join(self.tokens) == re.sub(r"\s+", "", text).replace("x", "*").replace("×", "*")
        self.pos = 0
        self.numbers: list[int] = []

    def parse(self) -> Fraction | None:
        if not self.ok or not self.tokens:
            return None
        value = self.expr()
        return value if self.pos == len(self.tokens) else None

    def peek(self) -> str:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else ""

    def expr(self) -> Fraction | None:
        value = self.term()
        while value is not None and self.peek() in ("+", "-"):
            op = self.tokens[self.pos]
            self.pos += 1
            right = self.term()
            value = None if right is None else _apply(value, op, right)
        return value

    def term(self) -> Fraction | None:
        value = self.atom()
        while value is not None and self.peek() in ("*", "/"):
            op = self.tokens[self.pos]
            self.pos += 1
            right = self.atom()
            value = None if right is None else _apply(value, op, right)
        return value

    def atom(self) -> Fraction | None:
        token = self.peek()
        if token == "(":
            self.pos += 1
            value = self.expr()
            if self.peek() != ")":
                return None
            self.pos += 1
            return value
        if token.isdigit() and len(token) <= 4:
            self.pos += 1
            self.numbers.append(int(token))
            return Fraction(int(token))
        return None


class NumberTargetEnv:
    """Write an expression over the four dealt numbers that equals the target."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 5, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._numbers: list[int] = []
        self._target = 0
        self._reference = ""
        self._plain = ""
        self._turn = 0
        self._stop = False
        self._won = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Deal numbers and build the target from one random expression over them."""
        rng = random.Random(seed)
        while True:
            nums = [rng.randint(1, 13) for _ in range(4)]
            a, b, c, d = (str(n) for n in rng.sample(nums, 4))
            o1, o2, o3 = (rng.choice(_OPS) for _ in range(3))
            shape = rng.randint(0, 3)
            if shape == 0:
                expr = f"({a} {o1} {b}) {o2} ({c} {o3} {d})"
            elif shape == 1:
                expr = f"(({a} {o1} {b}) {o2} {c}) {o3} {d}"
            elif shape == 2:
                expr = f"({a} {o1} ({b} {o2} {c})) {o3} {d}"
            else:
                expr = f"{a} {o1} (({b} {o2} {c}) {o3} {d})"
            value = _Parser(expr).parse()
            plain = f"({nums[0]} + {nums[1]}) * {nums[2]} - {nums[3]}"
            if (value is not None and value.denominator == 1 and 24 <= value <= 150
                    and _Parser(plain).parse() != value):
                break
        self._numbers, self._target, self._reference, self._plain = nums, int(value), expr, plain
        self._turn, self._stop, self._won = 0, False, False
        text = (
            f"Number Target. Your numbers: {', '.join(map(str, nums))}. Target: {self._target}.\n"
            "Write an expression that uses each of the four numbers exactly once with + - * / and brackets, "
            f"e.g. \\boxed{{{plain}}}.\nEach turn is one attempt; you have {self.max_turns}."
        )
        return text, self._info()

    def _info(self) -> dict:
        return {"turn": self._turn, "numbers": list(self._numbers), "target": self._target}

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict]:
        """Evaluate one attempt."""
        if self._stop:
            return "No more attempts; reset() deals new numbers.", 0.0, self._won, not self._won, self._info()
        self._turn += 1
        found = [b for b in re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "") if b.strip()]
        text = found[-1].strip() if found else ""
        used = Counter(int(t) for t in re.findall(r"\d{1,4}", text[:200]))
        given = Counter(self._numbers)
        if not text or len(text) > 120:
            obs = "Write an expression in \\boxed{}, e.g. \\boxed{" + self._plain + "}."
        elif used != given and not used - given:
            example = self._plain
            obs = f"Incomplete: every one of {', '.join(map(str, self._numbers))} must appear once, as in {example}."
        elif used != given:
            obs = f"Use exactly the numbers {', '.join(map(str, self._numbers))}, each once."
        else:
            value = _Parser(text).parse()
            if value is None:
                obs = "That expression cannot be evaluated (check brackets and division by zero)."
            elif value == self._target:
                self._stop, self._won = True, True
                return f"{text} = {self._target}. Target hit!", 1.0, True, False, self._info()
            else:
                shown = str(value) if value.denominator == 1 else f"{float(value):.3f}"
                obs = f"{text} makes {shown}, not {self._target}."
        if self._turn >= self.max_turns:
            self._stop = True
            return obs + " That was the last attempt.", 0.0, False, True, self._info()
        return f"{obs} Attempts left: {self.max_turns - self._turn}.", 0.0, False, False, self._info()

    def solution(self) -> list[str]:
        """The expression the target was built from."""
        return [f"\\boxed{{{self._reference}}}"]

    def close(self) -> None:
        """Nothing to release."""
