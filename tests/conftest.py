"""Shared fixtures: backends and small environments written inline."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from spade_envs.runtime import ExecutionLimits, create_backend
from tests.reaper import Reaper, become_subreaper

REPO_ROOT = Path(__file__).resolve().parent.parent
SHARED_DATA = REPO_ROOT.parent / "shared" / "data"


def pytest_configure(config: pytest.Config) -> None:
    """Under ``pytest -n``, the controlling process ends whatever a killed worker left running
    (``tests/reaper.py``)."""
    distributed = getattr(config.option, "numprocesses", None) and not hasattr(config, "workerinput")
    if distributed and config.pluginmanager.hasplugin("xdist") and become_subreaper():
        config.pluginmanager.register(Reaper(), "spade-reaper")


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
            self.offset = self.rng.randint(2, 9)
            self.turn = 0
            self.done = False
            # The number is one addition away, not written out: a copying agent must not win.
            return (f"Guess the number, answer as \\\\boxed{{n}}. It is {self.target - self.offset} plus "
                    f"{self.offset}."), {}

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


DEFAULT_GAME_SKILLS = ["Mathematical Reasoning", "Logical Deduction", "Spatial Reasoning", "Pattern Recognition",
                       "Optimization", "Causal Inference"]


def python_run_config(**loop: object):
    """A run configuration for tests whose scripted designer writes Python: small, quick, the reference's
    rewards and return. ``COUNTER_ENV`` is a single-answer puzzle, so that is the kind asked for."""
    from spade_train.config import parse_run_config

    settings = {"envs_per_iteration": 3, "episodes_per_condition": 3, "max_turns": 5, "concurrent_designs": 2,
                "kinds": ["single_answer"], "skills": DEFAULT_GAME_SKILLS, "reward": "regret_based",
                "malformed_reward": 0.0, "repeat_reward": 0.0, "return_mode": "terminal_clipped",
                "fuzz_examples": 10, "validation_workers": 0, "duplicate_threshold": 0.9, "use_corpus": True}
    return parse_run_config({"design": {"language": "python", "hinter": "model"},
                             "loop": {**settings, **loop}})
