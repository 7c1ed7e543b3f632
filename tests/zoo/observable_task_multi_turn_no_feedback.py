# expect: observable_task
"""Vault Word: open a vault whose password is a random five-letter word (a defect-zoo environment).

The environment: a multi-turn guessing game with eight attempts. The password is five random
lower-case letters; every wrong attempt is answered "Access denied. Attempts left: k".

The defect: nothing the agent sees depends on the password: the first observation and every
feedback message are the same for every seed, so different seeds need different answers behind
identical observations; no amount of reasoning beats chance (8 in 11.9 million).
Exploit: none for the agent; any fixed action sequence produces identical observations on seeds 0
and 1 although their solutions differ.
"""

import random
import re
import string

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")


class VaultWordEnv:
    """Guess a hidden five-letter word with no feedback."""

    def __init__(self, max_turns=8, **kwargs):
        self.max_turns = max_turns
        self._password = "aaaaa"
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        self._password = "".join(rng.choice(string.ascii_lowercase) for _ in range(5))
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        return ("Vault Word. The vault opens with a secret five-letter password (lower case). Enter a guess as "
                f"\\boxed{{word}}. You have {self.max_turns} attempts."), {}

    def step(self, action):
        if self._done:
            return "The vault is sealed; call reset().", 0.0, self._ended[0], self._ended[1], {}
        self._turn += 1
        action = action if isinstance(action, str) else str(action)
        found = _BOXED.findall(action)
        guess = found[-1].strip().lower() if found else ""
        if guess == self._password:
            self._done, self._ended = True, (True, False)
            return "The vault opens!", 1.0, True, False, {}
        truncated = self._turn >= self.max_turns
        if truncated:
            self._done, self._ended = True, (False, True)
        return f"Access denied. Attempts left: {self.max_turns - self._turn}.", 0.0, False, truncated, {}

    def solution(self):
        return self._password

    def close(self):
        pass
