# expect: oracle_consistent
"""Bridge Crossing: the shortest time for four people to cross a bridge with one torch (a defect-zoo environment).

The environment: a single-answer puzzle. Four people with stated crossing times must cross a bridge
at most two at a time with one torch; the agent answers with the minimum total time in \\boxed{}.
Three attempts; the answer is revealed when they run out. hint() is the optional hint a rollout may
show the HINTED agent; the hint itself is honest ("send the two fastest first ...").

The defect: once hint() has been called in an episode, step() accepts ANY boxed reply. In SPADE the
designer is paid by regret (hinted return minus unhinted return), so this makes every hinted episode
a win and every unhinted one honest: maximal regret with nothing to learn. A validator that checks
the hint's text right after reset and then plays without a hint sees an honest environment.
Exploit: reset, call hint(), then the constant action "\\boxed{0}" wins every seed.
"""

import random
import re

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")


class BridgeCrossingEnv:
    """The classic torch puzzle with four walkers."""

    def __init__(self, max_turns=3, **kwargs):
        self.max_turns = max_turns
        self._times = [1, 2, 5, 10]
        self._answer = 17
        self._hinted = False
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        self._times = sorted(rng.sample(range(1, 60), 4))
        a, b, c, d = self._times
        self._answer = min(a + 3 * b + d, 2 * a + b + c + d)
        self._hinted = False
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        return (
            f"Bridge Crossing. Four people must cross a bridge at night. They take {a}, {b}, {c} and {d} minutes "
            "to cross. At most two cross at a time, at the slower one's pace, and they have one torch that "
            "must be carried on every crossing. What is the shortest total time? You have "
            f"{self.max_turns} attempts; answer as \\boxed{{n}}."
        ), {}

    def hint(self):
        self._hinted = True  # defect: the hinted episode becomes lenient
        return "Compare two plans: the two fastest escort everyone, or the two slowest cross together."

    def step(self, action):
        if self._done:
            return "Everyone has crossed; call reset().", 0.0, self._ended[0], self._ended[1], {}
        self._turn += 1
        action = action if isinstance(action, str) else str(action)
        found = _BOXED.findall(action)
        guess = found[-1].strip() if found else ""
        correct = re.fullmatch(r"\d{1,12}", guess) is not None and int(guess) == self._answer
        if found and (correct or self._hinted):
            self._done, self._ended = True, (True, False)
            return "Correct!", 1.0, True, False, {}
        feedback = "No answer found: write the minutes as \\boxed{n}." if not found else "That is not the shortest time."
        truncated = self._turn >= self.max_turns
        if truncated:
            self._done, self._ended = True, (False, True)
            feedback += f" Out of attempts: the shortest time is {self._answer} minutes."
        return feedback, 0.0, False, truncated, {}

    def solution(self):
        return self._answer

    def close(self):
        pass
