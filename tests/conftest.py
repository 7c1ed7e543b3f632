"""Shared fixtures: backends and small environments written inline."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from spade_envs.runtime import ExecutionLimits, create_backend

REPO_ROOT = Path(__file__).resolve().parent.parent
SHARED_DATA = REPO_ROOT.parent / "shared" / "data"


@pytest.fixture
def inprocess():
    return create_backend("inprocess", ExecutionLimits(call_timeout_s=2.0))


def dedent(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


COUNTER_ENV = dedent(
    '''
    import random
    import re


    class CounterEnv:
        """Say the hidden number; one guess per turn."""

        def __init__(self, max_turns=5, **kwargs):
            self.max_turns = max_turns
            self.reset()

        def reset(self, seed=None):
            self.rng = random.Random(seed)
            self.target = self.rng.randint(100, 999)
            self.turn = 0
            self.done = False
            return f"Guess the number, answer as \\\\boxed{{n}}. It is {self.target}.", {}

        def step(self, action):
            if self.done:
                return "over", 0.0, True, False, {}
            self.turn += 1
            match = re.findall(r"\\\\boxed\\{([^{}]*)\\}", action)
            if match and match[-1].strip() == str(self.target):
                self.done = True
                return "correct", 1.0, True, False, {}
            truncated = self.turn >= self.max_turns
            self.done = truncated
            return "wrong", 0.0, False, truncated, {}

        def solution(self):
            return str(self.target)

        def close(self):
            pass
    '''
)
