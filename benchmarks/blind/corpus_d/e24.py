"""Molar mass drill: compute the molar mass of a generated molecular formula from a given table."""

from __future__ import annotations

import random
import re
from typing import Any

_MASSES = {"H": 1.008, "C": 12.011, "N": 14.007, "O": 15.999, "S": 32.06, "P": 30.974,
           "Cl": 35.45, "Na": 22.990, "K": 39.098, "Br": 79.904}


class MolarMassEnv:
    """Two attempts to give a molar mass within a stated tolerance."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 4, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._formula = ""
        self._target = 0.0
        self._tol = 0.05
        self._turn = 0
        self._attempts = 2
        self._done = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        others = [e for e in _MASSES if e != "C"]
        elements = ["C"] + rng.sample(others, rng.randint(2, 4))
        counts = {e: rng.randint(1, 12) for e in elements}
        order = ["C"] + (["H"] if "H" in counts else []) + sorted(e for e in counts if e not in ("C", "H"))
        self._formula = "".join(e + (str(counts[e]) if counts[e] > 1 else "") for e in order)
        self._target = round(sum(_MASSES[e] * n for e, n in counts.items()), 3)
        self._turn, self._attempts, self._done = 0, 2, False
        table = ", ".join(f"{e} = {m}" for e, m in _MASSES.items())
        obs = (f"Compute the molar mass of {self._formula} in g/mol.\n"
               f"Atomic masses (g/mol): {table}.\n"
               f"Answers within {self._tol} g/mol of the exact value are accepted. You have "
               f"{self._attempts} attempts.\nReply with the number only, e.g. \\boxed{{180.156}}.")
        return obs, {"formula": self._formula, "attempts_left": self._attempts}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._done:
            return "The episode has ended; call reset().", 0.0, True, False, {}
        self._turn += 1
        text = action if isinstance(action, str) else str(action)
        found = re.findall(r"\\boxed\{([^{}]*)\}", text)
        reward, terminated = 0.0, False
        if not found:
            obs = "No answer found; reply like \\boxed{98.079}."
        else:
            raw = found[-1].strip().replace(" ", "").replace("g/mol", "")
            try:
                value = float(raw)
            except (ValueError, OverflowError):
                value = None
            if value is None:
                obs = f"'{raw[:40]}' is not a number; reply like \\boxed{{98.079}}."
            else:
                error = abs(value - self._target)
                if error > self._tol:
                    self._attempts -= 1
                    obs = "Not within tolerance."
                    if self._attempts <= 0:
                        terminated = True
                        obs += " No attempts left."
                    else:
                        obs += f" {self._attempts} attempt(s) left."
                else:
                    reward, terminated = 1.0, True
                    obs = f"Correct: {self._formula} is {self._target:.3f} g/mol."
        truncated = not terminated and self._turn >= self.max_turns
        self._done = terminated or truncated
        return obs, reward, terminated, truncated, {"attempts_left": self._attempts, "turn": self._turn}

    def solution(self) -> str:
        return f"{self._target:.3f}"

    def close(self) -> None:
        return None
