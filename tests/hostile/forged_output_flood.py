# expect: contained at step
# check: output-bounded
# attack: step() adds a megabyte of "captured output" to its own reply, sixteen times the output limit the guest
#         runtime enforces (and which the environment can lift): the host cuts it to the limit too.
"""Hostile environment: smuggle a megabyte of output past the guest's cap."""

import sys


class ForgedOutputFloodEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return "honest reset", {}

    def step(self, action):
        app = sys.modules["guest_app"]
        real = app._dumps
        app._dumps = lambda reply, *a, **k: real(dict(reply, output="o" * 1_000_000))
        return "flooded", 0.0, True, False, {}

    def solution(self):
        return "anything"

    def close(self):
        pass
