"""Line-Up: pick the culprit out of 32 suspects by asking yes/no questions (skill: Information Gain).

Every suspect is described by eight features (hat, glasses, beard, scarf, umbrella, tattoo, limp,
red coat); no two suspects share the same set. Each turn the player either asks about one feature
of the culprit (the witness answers yes or no, and repeats the same answer if asked again) or
accuses a suspect. A wrong accusation ends the case; halving the line-up with each question
finds the culprit in at most eight questions and one accusation.
"""

from __future__ import annotations

import random
import re
from typing import Any

_FEATURES = ("hat", "glasses", "beard", "scarf", "umbrella", "tattoo", "limp", "red coat")
_NAMES = ("Abel", "Bea", "Cole", "Dana", "Eli", "Faye", "Gus", "Hana", "Ivo", "Jade", "Kai", "Lena", "Milo", "Nora",
          "Otto", "Pia", "Quin", "Rosa", "Sami", "Tess", "Umar", "Vera", "Wes", "Xena", "Yuri", "Zoe", "Arlo", "Bryn",
          "Cyra", "Dex", "Edda", "Finn", "Gala", "Hugh", "Iris", "Jon", "Kim", "Lars", "Mina", "Ned")


class LineUpEnv:
    """Ask about features or accuse; the culprit must be named within the budget."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 10, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._suspects: dict[str, frozenset[str]] = {}
        self._culprit = ""
        self._asked: dict[str, bool] = {}
        self._misses = 0
        self._turn = 0
        self._closed = False
        self._won = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Draw 32 suspects with distinct feature sets and pick the culprit."""
        rng = random.Random(seed)
        names = sorted(rng.sample(_NAMES, 32))
        codes = rng.sample(range(256), 32)
        self._suspects = {n: frozenset(f for k, f in enumerate(_FEATURES) if code >> k & 1) for n, code in zip(names, codes)}
        self._culprit = rng.choice(names)
        self._asked, self._misses = {}, 0
        self._turn, self._closed, self._won = 0, False, False
        lines = [f"  {n}: {', '.join(sorted(fs)) or 'nothing notable'}" for n, fs in self._suspects.items()]
        text = (
            "Line-Up. The witness saw the culprit. Suspects and what they wear or show:\n" + "\n".join(lines) + "\n"
            "Ask about one feature per turn, e.g. \\boxed{ask glasses} (features: " + ", ".join(_FEATURES) + "), "
            "or accuse, e.g. \\boxed{accuse " + names[0] + "}.\n"
            f"A wrong accusation closes the case. You have {self.max_turns} turns."
        )
        return text, self._info()

    def _info(self) -> dict:
        return {"turn": self._turn, "asked": len(self._asked), "misses": self._misses}

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict]:
        """A question or an accusation."""
        if self._closed:
            return "The case is closed. reset() opens a new one.", 0.0, self._won, not self._won, self._info()
        self._turn += 1
        found = [b for b in re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "") if b.strip()]
        text = re.sub(r"\s+", " ", found[-1].strip().lower()) if found else ""
        verb, _, rest = text.partition(" ")
        if verb == "ask" and rest in _FEATURES:
            answer = rest in self._suspects[self._culprit]
            if rest in self._asked:
                obs = f"The witness sighs: as before, {'yes' if answer else 'no'}, the culprit {'had' if answer else 'had no'} {rest}."
            else:
                self._asked[rest] = answer
                obs = f"'{rest.capitalize()}?' - '{'Yes' if answer else 'No'}.'"
        elif verb == "accuse" and rest.capitalize() in self._suspects:
            name = rest.capitalize()
            if name == self._culprit:
                self._closed, self._won = True, True
                return f"{name} confesses. Case solved!", 1.0, True, False, self._info()
            self._misses += 1
            obs = f"{name} has an alibi."
            if self._misses >= 1:
                self._closed = True
                return obs + " The case is closed unsolved.", 0.0, True, False, self._info()
        else:
            obs = "Ask about a feature (\\boxed{ask hat}) or accuse a suspect by name (\\boxed{accuse Name})."
        if self._turn >= self.max_turns:
            self._closed = True
            return obs + " The witness has gone home.", 0.0, False, True, self._info()
        return f"{obs} Turns left: {self.max_turns - self._turn}.", 0.0, False, False, self._info()

    def solution(self) -> list[str]:
        """Ask the feature that splits the remaining suspects most evenly, then accuse the last one."""
        left = dict(self._suspects)
        moves = []
        while len(left) > 1:
            feature = min(_FEATURES, key=lambda f: abs(2 * sum(f in fs for fs in left.values()) - len(left)))
            moves.append(f"\\boxed{{ask {feature}}}")
            has = feature in self._suspects[self._culprit]
            left = {n: fs for n, fs in left.items() if (feature in fs) == has}
        moves.append(f"\\boxed{{accuse {self._culprit}}}")
        return moves

    def close(self) -> None:
        """Nothing to release."""
