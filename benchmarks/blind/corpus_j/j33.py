"""Wire Panel: cut six wires in the one order the clues allow (skill: Logical Deduction).

Six coloured wires must be cut in a hidden order. The task lists true clues about that order
("the red wire is cut before the blue one", "the green wire is cut immediately after the white
one", ...) and enough of them that exactly one order fits. A wrong cut buzzes and costs a strike;
the third strike ends the game. Guessing six wires in order with two spare strikes rarely works.
"""

from __future__ import annotations

import itertools
import random
import re
from typing import Any, Callable

_COLOURS = ("red", "blue", "green", "yellow", "white", "black", "orange", "purple")
_ORDINAL = ("first", "second", "third", "fourth", "fifth", "sixth")


class WirePanelEnv:
    """Cut the wires in the order the clues pin down."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 12, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._wires: list[str] = []
        self._order: list[str] = []
        self._clues: list[str] = []
        self._cut: list[str] = []
        self._tried: set[str] = set()
        self._strikes = 0
        self._turn = 0
        self._dead = False
        self._won = False
        self.reset()

    @staticmethod
    def _clue(rng: random.Random, order: list[str]) -> tuple[str, Callable[[tuple[str, ...]], bool]]:
        a, b = rng.sample(order, 2)
        kind = rng.randint(0, 4)
        if kind <= 1:
            first, second = (a, b) if order.index(a) < order.index(b) else (b, a)
            return f"The {first} wire is cut before the {second} wire.", lambda p: p.index(first) < p.index(second)
        if kind == 2 and order.index(a) > 0:
            prev = order[order.index(a) - 1]
            return f"The {a} wire is cut immediately after the {prev} wire.", lambda p: p.index(a) == p.index(prev) + 1
        if kind == 3:
            k = order.index(a)
            parity = "an even" if k % 2 else "an odd"
            return f"The {a} wire is cut in {parity} position.", lambda p: p.index(a) % 2 == k % 2
        k = rng.choice([i for i in range(6) if order[i] != a])
        return f"The {a} wire is not cut {_ORDINAL[k]}.", lambda p: p.index(a) != k

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Draw the wires, a hidden order and clues until that order is the only one left."""
        rng = random.Random(seed)
        self._wires = rng.sample(_COLOURS, 6)
        self._order = rng.sample(self._wires, 6)
        left = list(itertools.permutations(self._wires))
        self._clues = []
        while len(left) > 1:
            text, test = self._clue(rng, self._order)
            kept = [p for p in left if test(p)]
            if len(kept) < len(left) and text not in self._clues:
                self._clues.append(text)
                left = kept
        self._cut, self._tried = [], set()
        self._strikes, self._turn, self._dead, self._won = 0, 0, False, False
        text = (
            f"Wire Panel. Six wires: {', '.join(self._wires)}. Cut them in the right order.\n"
            "Clues:\n" + "\n".join(f"  - {c}" for c in self._clues) + "\n"
            "Cut one wire per turn, e.g. \\boxed{cut " + self._wires[0] + "}. A wrong wire buzzes and costs a strike; "
            f"three strikes and the panel locks. You have {self.max_turns} turns."
        )
        return text, self._info()

    def _info(self) -> dict:
        return {"turn": self._turn, "cut": list(self._cut), "strikes": self._strikes}

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict]:
        """Cut one wire."""
        if self._dead:
            return "The panel is finished; reset() for a new one.", 0.0, self._won, not self._won, self._info()
        self._turn += 1
        found = [b for b in re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "") if b.strip()]
        words = found[-1].strip().lower().split() if found else []
        if words[:1] == ["cut"]:
            words = words[1:]
        colour = words[0] if len(words) == 1 else ""
        if colour not in self._wires:
            obs = "Name one wire on the panel, e.g. \\boxed{cut " + self._wires[0] + "}."
        elif colour in self._cut:
            obs = f"The {colour} wire is already cut."
        else:
            left = [w for w in self._order if w not in self._cut]
            if colour == left[0]:
                self._cut.append(colour)
                self._tried = set()
                obs = f"Snip. The {colour} wire is cut ({len(self._cut)}/6)."
                if len(self._cut) == 6:
                    self._dead, self._won = True, True
                    return obs + " The panel goes dark: defused!", 1.0, True, False, self._info()
            elif colour in self._tried:
                obs = f"You already tried {colour} for this step; the panel still wants {', '.join(left)}."
            else:
                self._tried.add(colour)
                self._strikes += 1
                obs = f"BZZT! The {colour} wire is not next. Strike {self._strikes} of 3."
                if self._strikes >= 3:
                    self._dead = True
                    return obs + " The panel locks.", 0.0, True, False, self._info()
        if self._turn >= self.max_turns:
            self._dead = True
            return obs + " Time is up.", 0.0, False, True, self._info()
        return f"{obs} Turns left: {self.max_turns - self._turn}.", 0.0, False, False, self._info()

    def solution(self) -> list[str]:
        """Cut the remaining wires in the hidden order."""
        return [f"\\boxed{{cut {w}}}" for w in self._order if w not in self._cut]

    def close(self) -> None:
        """Nothing to release."""
