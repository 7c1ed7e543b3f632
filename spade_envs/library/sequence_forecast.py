"""Sequence Forecast: infer a hidden rule and predict the next terms (skill: Pattern Recognition).

The env draws an integer sequence from one of seven rule families (arithmetic, quadratic, affine
recurrence x -> r*x + c, Fibonacci-like with an offset, two interleaved progressions, alternating
multiply/add steps, geometrically growing differences) with random parameters, and shows the first
six terms. Each turn the player predicts the next term. A correct prediction extends the sequence; a
wrong one reveals the true term and costs one of three lives. Five correct predictions win, a third
miss loses. Guessing a constant or extrapolating the wrong family fails, so the player has to test
candidate rules against the differences, ratios and parities of the terms shown.
"""

from __future__ import annotations

import random
import re
from typing import Any

_SHOWN, _NEEDED, _LIVES, _TOTAL = 6, 5, 3, 14


def _nonzero(rng: random.Random, low: int, high: int) -> int:
    """A random integer in [low, high] other than 0, so no rule degenerates to a constant."""
    return rng.choice([v for v in range(low, high + 1) if v != 0])


def _make_sequence(rng: random.Random) -> tuple[str, list[int]]:
    """Pick a rule family and parameters; return a description of the rule and _TOTAL terms."""
    kind = rng.randrange(7)
    n = range(_TOTAL)
    if kind == 0:
        a, d = rng.randint(-30, 30), _nonzero(rng, -12, 12)
        return f"arithmetic: start {a}, step {d}", [a + d * i for i in n]
    if kind == 1:
        a, b, c = rng.randint(-20, 20), rng.randint(-9, 9), _nonzero(rng, -4, 4)
        return f"quadratic: {c}n^2 + {b}n + {a}", [a + b * i + c * i * i for i in n]
    terms = [rng.randint(1, 9)]
    if kind == 2:
        r, c = rng.choice([2, 3, -2]), _nonzero(rng, -5, 5)
        rule, nxt = f"each term is {r} * previous + {c}", lambda t, i: r * t[-1] + c
    elif kind == 3:
        c = rng.randint(-3, 3)
        terms.append(rng.randint(1, 9))
        rule, nxt = f"each term is the sum of the previous two plus {c}", lambda t, i: t[-1] + t[-2] + c
    elif kind == 4:
        b, d, e = rng.randint(-20, 40), _nonzero(rng, -9, 9), _nonzero(rng, -9, 9)
        while d == e:
            e = _nonzero(rng, -9, 9)
        terms.append(b)  # odd positions start their own progression
        rule, nxt = f"two interleaved progressions with steps {d} and {e}", lambda t, i: t[-2] + (d if i % 2 == 0 else e)
    elif kind == 5:
        k, c = rng.choice([2, 3]), _nonzero(rng, -6, 6)
        rule, nxt = f"alternately multiply by {k} and add {c}", lambda t, i: t[-1] * k if i % 2 == 1 else t[-1] + c
    else:
        d, r = _nonzero(rng, -4, 4), rng.choice([2, 3])
        rule, nxt = f"differences start at {d} and multiply by {r}", lambda t, i: t[-1] + d * r ** (i - 1)
    while len(terms) < _TOTAL:
        terms.append(nxt(terms, len(terms)))
    return rule, terms


class SequenceForecastEnv:
    """Predict the next term of a hidden-rule integer sequence, one term per turn."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 10, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._rule = ""
        self._terms: list[int] = []
        self._known = 0
        self._correct = 0
        self._misses = 0
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Draw a new rule, reveal the first six terms and restore all lives."""
        rng = random.Random(seed)
        while True:  # reject degenerate draws (e.g. x0 at the fixed point of x -> r*x + c)
            self._rule, self._terms = _make_sequence(rng)
            if len(set(self._terms[_SHOWN:])) >= _TOTAL - _SHOWN - 1:
                break
        self._known, self._correct, self._misses = _SHOWN, 0, 0
        self._turn, self._terminated, self._truncated = 0, False, False
        rules = (
            "Sequence Forecast. The integer sequence below follows a hidden rule.\n"
            f"Each turn, predict the NEXT term as a plain integer, e.g. \\boxed{{-17}}.\n"
            f"Correct predictions extend the sequence; a wrong one reveals the true term and costs a life.\n"
            f"Win with {_NEEDED} correct predictions; lose after {_LIVES} misses or {self.max_turns} turns.\n"
        )
        return rules + self._show(), self._info()

    def _show(self) -> str:
        return "Sequence: " + ", ".join(map(str, self._terms[: self._known])) + ", ?"

    def _info(self) -> dict:
        return {"turn": self._turn, "max_turns": self.max_turns, "correct": self._correct, "misses": self._misses}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        """Check one prediction; the true term is always appended so the player can keep inferring."""
        if self._terminated or self._truncated:
            return "The game is over; call reset() to play again.", 0.0, self._terminated, self._truncated, self._info()
        self._turn += 1
        # The last box that holds something: an empty box after the move is no move.
        found = [box for box in re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
                 if box.strip()]
        text = found[-1].replace(" ", "").replace(",", "") if found else ""
        reward = 0.0
        if not re.fullmatch(r"[-+]?[0-9]{1,12}", text):
            obs = "Invalid prediction: give one integer, e.g. \\boxed{42}."
        else:
            truth = self._terms[self._known]
            self._known += 1
            if int(text) == truth:
                self._correct += 1
                obs = f"Correct ({self._correct}/{_NEEDED})."
            else:
                self._misses += 1
                obs = f"Wrong: the next term was {truth}. Lives left: {_LIVES - self._misses}."
            if self._correct >= _NEEDED:
                self._terminated, reward = True, 1.0
                return obs + f" You win! The rule: {self._rule}.", reward, True, False, self._info()
            if self._misses >= _LIVES:
                self._terminated = True
                return obs + f" Game over. The rule: {self._rule}.", reward, True, False, self._info()
        if self._turn >= self.max_turns:
            self._truncated = True
            return obs + f" Out of turns. The rule: {self._rule}.", reward, False, True, self._info()
        return obs + f" Turns left: {self.max_turns - self._turn}.\n" + self._show(), reward, False, False, self._info()

    def solution(self) -> list[str]:
        """The next five true terms, in order."""
        return [f"\\boxed{{{t}}}" for t in self._terms[self._known : self._known + _NEEDED - self._correct]]

    def close(self) -> None:
        """Nothing to release."""
