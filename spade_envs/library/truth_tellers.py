"""TruthTellersEnv: a knights-and-knaves puzzle with exactly one consistent assignment.

Why this shape: four or five islanders each make one statement (about a neighbour, a pair, or how many
knights there are). The generator picks a hidden assignment, draws statements that fit it, and keeps
them only if brute force over all 2^N assignments finds exactly one consistent world, so the puzzle is
always solvable by deduction alone. Only the first complete answer can earn 1.0: with 16-32 possible
assignments, allowing full credit for retries would let blind guessing win too often. A wrong answer
still gets useful feedback (which statement the proposed world breaks) and a retry worth 0.5.
"""

from __future__ import annotations

import itertools
import random
import re
from typing import Any

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")
_PAIR = re.compile(r"\b([a-e])\s*[=:]\s*(knight|knave)s?\b")
_ANSWER = re.compile(r"\s*[a-e]\s*[=:]\s*(?:knight|knave)s?(?:\s*(?:[,;]|and)?\s*[a-e]\s*[=:]\s*(?:knight|knave)s?)*\s*")
"""A whole answer: pairs like A=knight, separated by commas, semicolons, "and" or spaces, and nothing else."""
_KINDS = ("is_knight", "is_knave", "both", "one_knave", "same", "differ", "count", "if_then", "either")


def _truth(statement: tuple[Any, ...], world: tuple[bool, ...]) -> bool:
    """Whether a statement holds in a world (True = knight)."""
    kind, x, y = statement
    if kind == "count":
        return sum(world) == x
    if kind in ("is_knight", "is_knave"):
        return world[x] == (kind == "is_knight")
    a, b = world[x], world[y]
    return {"both": a and b, "one_knave": not (a and b), "same": a == b, "differ": a != b,
            "if_then": (not a) or b, "either": a or b}[kind]


def _say(statement: tuple[Any, ...], speaker: int, names: str) -> str:
    """Render a statement in English from the speaker's point of view."""
    kind, x, y = statement
    if kind == "count":
        return "Exactly one of us is a knight." if x == 1 else f"Exactly {x} of us are knights."
    nx = "I" if x == speaker else names[x]
    ny = names[y] if y is not None else ""
    return {
        "is_knight": f"{nx} is a knight.", "is_knave": f"{nx} is a knave.",
        "both": f"{nx} and {ny} are both knights.", "one_knave": f"At least one of {nx} and {ny} is a knave.",
        "same": f"{ny} and {nx} are the same kind.", "differ": f"{ny} and {nx} are of different kinds.",
        "if_then": f"If {nx} is a knight, then so is {ny}.", "either": f"{nx} or {ny} is a knight (or both).",
    }[kind]


class TruthTellersEnv:
    """Single-answer puzzle (Logical Deduction): decide who is a knight and who is a knave."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max_turns
        self.kwargs = kwargs
        self._names = ""
        self._world: tuple[bool, ...] = ()
        self._statements: list[tuple[Any, ...]] = []
        self._turn, self._attempts, self._done = 0, 0, False
        self.reset()

    def _random_statement(self, rng: random.Random, speaker: int, n: int) -> tuple[Any, ...]:
        kind = rng.choice(_KINDS)
        others = [p for p in range(n) if p != speaker]
        if kind == "count":
            return (kind, rng.randint(1, n - 1), None)
        if kind in ("same", "differ"):  # these may involve the speaker ("B and I are ...")
            x, y = rng.choice([speaker] + others), rng.choice(others)
            return (kind, x, y) if x != y else (kind, speaker, y)
        if kind in ("is_knight", "is_knave"):
            return (kind, rng.choice(others), None)
        x, y = rng.sample(others, 2)
        return (kind, x, y)

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        """Draw a hidden world and statements until brute force confirms a unique solution."""
        rng = random.Random(seed)
        n = 5 if rng.random() < 0.75 else 4
        self._names = "ABCDE"[:n]
        worlds = list(itertools.product((True, False), repeat=n))
        while True:
            world = rng.choice([w for w in worlds if 0 < sum(w) < n])
            statements = []
            for speaker in range(n):
                s = self._random_statement(rng, speaker, n)
                while _truth(s, world) != world[speaker]:
                    s = self._random_statement(rng, speaker, n)
                statements.append(s)
            consistent = [w for w in worlds if all(_truth(s, w) == w[p] for p, s in enumerate(statements))]
            if consistent == [world]:
                break
        self._world, self._statements = world, statements
        self._turn, self._attempts, self._done = 0, 0, False
        said = "\n".join(f'{self._names[i]} says: "{_say(st, i, self._names)}"'
                          for i, st in enumerate(statements))
        obs = (f"On this island every inhabitant is a knight (always tells the truth) or a knave (always "
               f"lies). You meet {n} inhabitants: {', '.join(self._names)}.\n{said}\n\nWho is a knight and "
               f"who is a knave? Answer like \\boxed{{A=knight,B=knave,...}} naming everyone. Only your "
               f"first complete answer can earn full credit; you have {self.max_turns} turns.")
        return obs, {"people": n}

    def _parse(self, text: str) -> tuple[bool, ...] | None:
        """The roles a box gives, when it gives one role for each person and says nothing else: a box
        with "not", "or", a note or a second role for someone is no answer."""
        text = text.lower().strip().rstrip(".")
        if not _ANSWER.fullmatch(text):
            return None
        pairs = _PAIR.findall(text)
        guess = {name: role == "knight" for name, role in pairs}
        if len(pairs) != len(guess) or sorted(guess) != list(self._names.lower()):
            return None
        return tuple(guess[c] for c in self._names.lower())

    def step(self, action: str) -> tuple[str, float, bool, bool, dict[str, Any]]:
        """Judge an answer; malformed answers use a turn but not the one full-credit attempt."""
        if self._done:
            return "The episode is over. Call reset() to start again.", 0.0, True, False, {}
        self._turn += 1
        found = [box for box in _BOXED.findall(action if isinstance(action, str) else str(action)) if box.strip()]
        guess = self._parse(found[-1]) if found else None  # the last box that holds something
        if guess == self._world:
            self._done = True
            reward = 1.0 if self._attempts == 0 else 0.5
            return f"Correct! (reward {reward})", reward, True, False, {"correct": True}
        if guess is None:
            obs = f"Give one role for each of {', '.join(self._names)}, e.g. \\boxed{{A=knight,B=knave,...}}."
        else:
            self._attempts += 1
            p = next((i for i, s in enumerate(self._statements) if _truth(s, guess) != guess[i]), 0)
            role = "a knight" if guess[p] else "a knave"
            verdict = "false" if guess[p] else "true"
            obs = (f"Incorrect. In your answer {self._names[p]} is {role}, but then "
                   f"{self._names[p]}'s statement would be {verdict}. A retry can earn 0.5.")
        truncated = self._turn >= self.max_turns
        self._done = truncated
        if truncated:
            obs += f" Out of turns. The answer was {self.solution()}."
        return obs, 0.0, False, truncated, {"correct": False}

    def solution(self) -> str:
        """Canonical answer, e.g. 'A=knight,B=knave,C=knight,D=knave'."""
        return ",".join(f"{c}={'knight' if k else 'knave'}" for c, k in zip(self._names, self._world))

    def close(self) -> None:
        """Nothing to release."""
