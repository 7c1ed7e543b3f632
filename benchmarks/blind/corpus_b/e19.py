"""Cookie Jar: four children, one stole the cookie, and exactly one of their statements is false.

Each child makes one statement about who did or did not take it. Work out which child is the thief.
Wrong accusations are answered with a gentle "no" and the questioning goes on.
"""

from __future__ import annotations

import random
import re
from typing import Any

_NAMES = ["Ada", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jun"]


class CookieJarEnv:
    """Knights-and-knaves style thief puzzle."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 6, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._kids: list[str] = []
        self._statements: list[tuple[str, str, bool]] = []
        self._thief = ""
        self._turn = 0
        self._over = False

    @staticmethod
    def _false_count(statements: list[tuple[str, str, bool]], thief: str) -> int:
        return sum((about == thief) != claims_guilty for _, about, claims_guilty in statements)

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        while True:
            kids = rng.sample(_NAMES, 4)
            statements = []
            for kid in kids:
                about = rng.choice([k for k in kids])
                statements.append((kid, about, rng.random() < 0.5))
            fits = [t for t in kids if self._false_count(statements, t) == 1]
            if len(fits) == 1:
                break
        self._kids, self._statements, self._thief = kids, statements, fits[0]
        self._turn, self._over = 0, False
        lines = []
        for kid, about, guilty in statements:
            who = "I" if about == kid else about
            verb = ("took" if guilty else "did not take") if who != "I" else ("took" if guilty else "did not take")
            lines.append(f"  {kid}: \"{who} {verb} the cookie.\"")
        obs = ("Cookie Jar. One child took the cookie. Exactly one of these statements is false:\n"
               + "\n".join(lines) + "\nWho took it? Answer with a name, e.g. \\boxed{"
               + kids[0] + "}.")
        return obs, {"children": list(kids)}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._over:
            return "Case closed.", 0.0, True, False, {}
        self._turn += 1
        found = re.findall(r"\\boxed\{([^{}]*)\}", action) if isinstance(action, str) else []
        name = found[-1].strip().capitalize() if found else ""
        reward, terminated = 0.0, False
        if name not in self._kids:
            obs = f"Name one of: {', '.join(self._kids)}."
        elif name == self._thief:
            reward, terminated, obs = 1.0, True, f"Yes, {name} took the cookie."
        else:
            obs = f"No, it was not {name}. Think again."
        truncated = not terminated and self._turn >= self.max_turns
        self._over = terminated or truncated
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> str:
        return self._thief

    def close(self) -> None:
        pass
