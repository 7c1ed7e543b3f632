"""ChainArithmeticEnv: a seeded multi-step word problem whose answer is one integer.

Why this shape: each seed tells a short story in which a stock of goods changes four to six times
(deliveries, sales, fractions set aside, percentages discarded, batches multiplied, an equal split),
so the agent must carry a running total through at least three dependent steps. Every step is built
to stay a whole number, which keeps the answer exactly checkable. Wrong answers get qualitative
feedback only: never "too high/too low" (that would turn the puzzle into a binary search), but the
env does say when the guess equals an intermediate total, the most common slip (stopping early).
"""

from __future__ import annotations

import random
import re
from typing import Any

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")
_NUMBER = re.compile(r"[-+]?\d+(?:\.0*)?")
"""A whole number as a box may hold it: a sign, digits, and a decimal point followed only by zeros."""


def _plain_number(box: str) -> str | None:
    """The number a box holds when it holds nothing else (spaces, thousands commas and $...$ aside)."""
    text = box.replace(",", "").replace("$", "").strip()
    return text if _NUMBER.fullmatch(text) else None

# (place, item, container, group, person)
_THEMES: list[tuple[str, str, str, str, str]] = [
    ("bakery", "loaves", "trays", "market stalls", "Mara"),
    ("orchard", "apples", "crates", "grocers", "Tobias"),
    ("bookshop", "books", "boxes", "school libraries", "Ines"),
    ("workshop", "candles", "cartons", "gift shops", "Oren"),
    ("nursery", "seedlings", "flats", "community gardens", "Priya"),
    ("print shop", "posters", "bundles", "cafes", "Leon"),
]
_FRACTIONS = {(1, 2): "half", (1, 3): "one third", (2, 3): "two thirds", (1, 4): "one quarter",
              (3, 4): "three quarters", (1, 5): "one fifth", (2, 5): "two fifths"}


class ChainArithmeticEnv:
    """Single-answer puzzle (Mathematical Reasoning): track a quantity through a chain of changes."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max_turns
        self.kwargs = kwargs
        self._story = ""
        self._answer = 0
        self._intermediate: list[int] = []
        self._turn = 0
        self._done = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        """Build a fresh story; different seeds give different themes, numbers and step orders."""
        rng = random.Random(seed)
        place, item, container, group, person = rng.choice(_THEMES)
        boxes, per = rng.randint(4, 12), rng.randint(6, 24)
        value = boxes * per
        article = "an" if place[0] in "aeiou" else "a"
        opening = f"{person} runs {article} {place} and starts the day with {boxes} {container}"
        lines = [f"{opening} of {per} {item} each."]
        self._intermediate = [value]
        used: set[str] = set()
        for _ in range(rng.randint(3, 4)):
            text, value = self._step_text(rng, value, item, container, person, used)
            lines.append(text)
            self._intermediate.append(value)
        shares = [k for k in range(3, 8) if value % k == 0 and value // k >= 12]
        if shares and rng.random() < 0.6:
            k = rng.choice(shares)
            lines.append(f"Finally, all remaining {item} are shared equally among {k} {group}. "
                         f"How many {item} does each of the {group} receive?")
            value //= k
        else:
            lines.append(f"How many {item} does {person} have at the end of the day?")
        self._answer = value
        self._intermediate = [v for v in self._intermediate if v != value]
        self._story = " ".join(lines)
        self._turn, self._done = 0, False
        obs = (f"{self._story}\n\nGive the final number as \\boxed{{n}} (a whole number). "
               f"You have {self.max_turns} attempts.")
        return obs, {"steps": len(lines) - 1}

    @staticmethod
    def _step_text(rng: random.Random, value: int, item: str, container: str, person: str,
                   used: set[str]) -> tuple[str, int]:
        """One whole-number change to the running total; avoids repeating the same kind of step."""
        kinds = ["deliver", "sell", "fraction", "percent", "multiply"]
        rng.shuffle(kinds)
        for kind in sorted(kinds, key=lambda k: k in used):
            if kind == "deliver":
                k, m = rng.randint(2, 6), rng.randint(4, 12)
                used.add(kind)
                return f"A delivery brings {k} more {container} of {m} {item} each.", value + k * m
            if kind == "sell" and value > 10:
                s = rng.randint(max(1, value // 6), value // 2)
                used.add(kind)
                return f"{person} then sells {s} {item}.", value - s
            if kind == "fraction":
                options = [f for f in sorted(_FRACTIONS) if value * f[0] % f[1] == 0]
                if options:
                    num, den = rng.choice(options)
                    used.add(kind)
                    text = (f"Next, {_FRACTIONS[(num, den)]} of the {item} on hand are set aside for a "
                            f"special order and no longer counted.")
                    return text, value - value * num // den
            if kind == "percent":
                options = [p for p in (10, 20, 25, 30, 40, 50) if value * p % 100 == 0]
                if options:
                    p = rng.choice(options)
                    used.add(kind)
                    return f"After that, {p}% of the {item} on hand turn out damaged and are thrown away.", \
                        value - value * p // 100
            if kind == "multiply" and value < 300:
                factor = rng.choice([2, 3])
                used.add(kind)
                word = "doubles" if factor == 2 else "triples"
                return f"A second production run then {word} the number of {item} on hand.", value * factor
        return f"A neighbour drops off 5 {item}.", value + 5

    def step(self, action: str) -> tuple[str, float, bool, bool, dict[str, Any]]:
        """Check one answer; every call uses one of the max_turns attempts."""
        if self._done:
            return "The episode is over. Call reset() to start again.", 0.0, True, False, {}
        self._turn += 1
        found = [box for box in _BOXED.findall(action if isinstance(action, str) else str(action)) if box.strip()]
        # A box is an answer only when it holds a number and nothing else: "not 12", "12 (wrong)" and
        # "999 or 12" are no answers, and two different numbers in two boxes are no single answer.
        numbers = {float(box) for box in (_plain_number(box) for box in found) if box is not None}
        left = self.max_turns - self._turn
        if numbers == {self._answer}:
            self._done = True
            return "Correct!", 1.0, True, False, {"correct": True}
        if not found:
            obs = "No answer found: put a whole number inside \\boxed{...}."
        elif not numbers:
            obs = "That is not a number: answer with one whole number, and nothing else, inside \\boxed{...}."
        elif len(numbers) > 1:
            obs = "More than one answer: give a single number."
        elif min(numbers) in self._intermediate:
            obs = ("Incorrect: that is the total partway through the story; "
                   "some later steps have not been applied yet.")
        else:
            obs = "Incorrect: recheck each step, especially fractions and percentages of the current total."
        truncated = left <= 0
        self._done = truncated
        obs += f" The answer was {self._answer}." if truncated else f" {left} attempt(s) left."
        return obs, 0.0, False, truncated, {"correct": False}

    def solution(self) -> int:
        """The final integer; the caller wraps it as \\boxed{n}."""
        return self._answer

    def close(self) -> None:
        """Nothing to release."""
