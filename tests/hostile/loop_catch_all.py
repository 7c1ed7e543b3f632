# expect: EnvTimeoutError at reset
# attack: reset() loops forever and swallows every exception (including KeyboardInterrupt/SystemExit).
"""Hostile environment: a loop that tries to survive any interruption."""


class CatchAllLoopEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        while True:
            try:
                sum(range(10**7))
            except BaseException:  # noqa: BLE001
                pass
            finally:
                continue

    def step(self, action):
        return "unreachable", 0.0, True, False, {}

    def solution(self):
        return "anything"

    def close(self):
        pass
