"""Pet registry logic grid: five neighbours, five pets, clues with exactly one consistent assignment."""

from __future__ import annotations

import itertools
import random
import re
from typing import Any

_NAMES = ["Ava", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jun", "Kai", "Lena"]
_PETS = ["cat", "dog", "ferret", "gecko", "hamster", "parrot", "rabbit", "tortoise", "goldfish", "iguana"]
_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


def _b36(value: int) -> str:
    out = ""
    while True:
        value, r = divmod(value, 36)
        out = _DIGITS[r] + out
        if value == 0:
            return out


class PetRegistryEnv:
    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._names: list[str] = []
        self._pets: list[str] = []
        self._truth: dict[str, str] = {}
        self._turn = 0
        self._done = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        self._names = sorted(rng.sample(_NAMES, 5))
        self._pets = sorted(rng.sample(_PETS, 5))
        perms = list(itertools.permutations(self._pets))
        rank = rng.randrange(len(perms))
        truth = dict(zip(self._names, perms[rank]))
        candidates = [dict(zip(self._names, p)) for p in perms]
        clues: list[str] = []
        while len(candidates) > 1:
            kind = rng.random()
            name = rng.choice(self._names)
            if kind < 0.15:
                text, test = f"{name} owns the {truth[name]}.", (lambda c, n=name, p=truth[name]: c[n] == p)
            elif kind < 0.7:
                pet = rng.choice([p for p in self._pets if p != truth[name]])
                text, test = f"{name} does not own the {pet}.", (lambda c, n=name, p=pet: c[n] != p)
            else:
                other = rng.choice([n for n in self._names if n != name])
                pet = truth[name]
                pair = sorted([name, other])
                text = f"The {pet} belongs to either {pair[0]} or {pair[1]}."
                test = lambda c, a=pair[0], b=pair[1], p=pet: c[a] == p or c[b] == p
            remaining = [c for c in candidates if test(c)]
            if len(remaining) < len(candidates):
                candidates = remaining
                clues.append(text)
        self._truth = truth
        self._turn, self._done = 0, False
        obs = ("Five neighbours each keep a different pet.\n"
               f"Neighbours: {', '.join(self._names)}\nPets: {', '.join(self._pets)}\nClues:\n"
               + "\n".join(f"  {i + 1}. {c}" for i, c in enumerate(clues))
               + "\nGive the full assignment, e.g. \\boxed{Ava=cat, Ben=dog, ...}. One attempt.")
        return obs, {"puzzle_id": "LG5-" + _b36(rank * 131 + 17), "clues": len(clues)}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._done:
            return "Already graded.", 0.0, True, False, {}
        self._turn += 1
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
        reward, terminated = 0.0, False
        pairs = re.findall(r"([A-Za-z]+)\s*[=:]\s*([A-Za-z]+)", boxes[-1]) if boxes else []
        if not pairs:
            obs = "Answer like \\boxed{Ava=cat, Ben=dog, ...} with all five neighbours."
        else:
            given: dict[str, str] = {}
            for name, pet in pairs:
                given.setdefault(name.capitalize(), pet.lower())
            terminated = True
            if len(pairs) == 5 and given == self._truth:
                reward, obs = 1.0, "Correct assignment."
            else:
                obs = "That assignment is not right."
        truncated = not terminated and self._turn >= self.max_turns
        self._done = terminated or truncated
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> str:
        return ", ".join(f"{n}={p}" for n, p in self._truth.items())

    def close(self) -> None:
        pass
