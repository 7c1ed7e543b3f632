"""Quiz Ladder: climb five multiple-choice questions with three lives (skill: Mental Arithmetic).

Five questions (products, primes, sequences, time sums, remainders, fractions) are drawn per seed,
each with four options A-D. A right answer climbs one rung; a wrong one costs a life, and the game
ends when the third life is lost. Guessing blindly clears the ladder about once in a hundred games.
"""

from __future__ import annotations

import random
import re
from fractions import Fraction
from typing import Any, Callable


def _product(rng: random.Random) -> tuple[str, str, list[str]]:
    a, b = rng.randint(12, 29), rng.randint(12, 29)
    right = a * b
    wrong = {right + d for d in (-10, 10, -a, a, b, -b, 1, -1)} - {right}
    return f"What is {a} x {b}?", str(right), [str(w) for w in rng.sample(sorted(wrong), 3)]


def _prime(rng: random.Random) -> tuple[str, str, list[str]]:
    primes = [n for n in range(31, 140) if all(n % k for k in range(2, 12))]
    odd_composites = [n for n in range(31, 140, 2) if n not in primes]
    return "Which of these numbers is prime?", str(rng.choice(primes)), [str(n) for n in rng.sample(odd_composites, 3)]


def _sequence(rng: random.Random) -> tuple[str, str, list[str]]:
    start, ratio = rng.randint(2, 7), rng.randint(2, 4)
    terms = [start * ratio ** k for k in range(5)]
    right = terms[4]
    wrong = {right + terms[3] - terms[2], terms[3] * 2 + 1, right - start, right + ratio} - {right}
    return f"What comes next: {', '.join(map(str, terms[:4]))}, ...?", str(right), [str(w) for w in sorted(wrong)[:3]]


def _minutes(rng: random.Random) -> tuple[str, str, list[str]]:
    h, m = rng.randint(2, 9), rng.randint(5, 55)
    right = 60 * h + m
    wrong = {100 * h + m, 60 * h - m, 60 * (h + 1) + m, 60 * h + m + 10} - {right}
    return f"How many minutes are {h} hours and {m} minutes?", str(right), [str(w) for w in sorted(wrong)[:3]]


def _remainder(rng: random.Random) -> tuple[str, str, list[str]]:
    k = rng.randint(6, 13)
    n = rng.randint(100, 400)
    right = n % k
    wrong = [str(x) for x in rng.sample([x for x in range(k) if x != right], 3)]
    return f"What is the remainder when {n} is divided by {k}?", str(right), wrong


def _fraction(rng: random.Random) -> tuple[str, str, list[str]]:
    while True:
        fracs = {Fraction(rng.randint(2, 9), rng.randint(10, 19)) for _ in range(4)}
        if len(fracs) == 4:
            break
    ordered = sorted(fracs)
    shown = [f"{f.numerator}/{f.denominator}" for f in ordered]
    return "Which fraction is the largest?", shown[-1], shown[:3]


_KINDS: tuple[Callable[[random.Random], tuple[str, str, list[str]]], ...] = (
    _product, _prime, _sequence, _minutes, _remainder, _fraction)


class QuizLadderEnv:
    """Answer five questions with A-D; three wrong answers end the game."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 24, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._questions: list[tuple[str, list[str], int]] = []
        self._rung = 0
        self._strikes = 0
        self._turn = 0
        self._stopped = False
        self._won = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Draw five question kinds and shuffle each question's options."""
        rng = random.Random(seed)
        self._questions = []
        for kind in rng.sample(_KINDS, 5):
            text, right, wrong = kind(rng)
            options = wrong[:3] + [right]
            rng.shuffle(options)
            self._questions.append((text, options, options.index(right)))
        self._rung, self._strikes, self._turn, self._stopped, self._won = 0, 0, 0, False, False
        text = (
            "Quiz Ladder. Five questions, four options each. Answer with the letter, e.g. \\boxed{B}.\n"
            f"A wrong answer costs one of your three lives. The game lasts at most {self.max_turns} turns.\n"
            + self._ask()
        )
        return text, self._info()

    def _ask(self) -> str:
        text, options, _ = self._questions[self._rung]
        return f"Question {self._rung + 1}: {text}\n" + "\n".join(f"  {'ABCD'[i]}) {o}" for i, o in enumerate(options))

    def _info(self) -> dict:
        return {"turn": self._turn, "rung": self._rung, "strikes": self._strikes}

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict]:
        """Answer the current question."""
        if self._stopped:
            return "The quiz is over; reset() for a new one.", 0.0, self._won, not self._won, self._info()
        self._turn += 1
        found = [b for b in re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "") if b.strip()]
        letter = found[-1].strip().upper().rstrip(")") if found else ""
        if letter not in ("A", "B", "C", "D"):
            obs = "Answer with one letter A, B, C or D, e.g. \\boxed{A}.\n" + self._ask()
        elif "ABCD".index(letter) == self._questions[self._rung][2]:
            self._rung += 1
            if self._rung == len(self._questions):
                self._stopped, self._won = True, True
                return f"{letter} is correct. You reached the top of the ladder!", 1.0, True, False, self._info()
            obs = f"{letter} is correct!\n" + self._ask()
        else:
            self._strikes += 1
            obs = f"{letter} is wrong. Lives left: {max(0, 3 - self._strikes)}."
            if self._strikes >= 3:
                self._stopped = True
                return obs + " Game over.", 0.0, True, False, self._info()
            obs += "\n" + self._ask()
        if self._turn >= self.max_turns:
            self._stopped = True
            return obs + "\nTime is up.", 0.0, False, True, self._info()
        return obs, 0.0, False, False, self._info()

    def solution(self) -> list[str]:
        """The right letter for each remaining question."""
        return [f"\\boxed{{{'ABCD'[q[2]]}}}" for q in self._questions[self._rung:]]

    def close(self) -> None:
        """Nothing to release."""
