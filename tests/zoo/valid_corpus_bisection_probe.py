# expect: valid
"""Bisection Probe: locate the root of a hidden monotone function by bisection (corpus-grounded, release style).

Written the way the SPADE release's corpus prompt asks: a reference document passed as an init kwarg
(with a default), one \\boxed{<command>} per turn extracted with ``re.search(r'\\\\boxed\\{(.+?)\\}', action)``
and ``cmd = (m.group(1) if m else action).strip()``, hidden state revealed by acting, partial rewards
for progress and 1.0 for the goal.

Looks suspicious: it pays partial rewards before the win, the commands are accepted without a
\\boxed{} wrapper (the release template reads the raw action when there is no box), and the first
observation is the same kind of text on every seed.
Why it is correct: the partial rewards measure how much the bracket around the root has shrunk on a
log scale and add up to at most 0.4 however many probes are made (repeating or widening probes earns
nothing), so no policy reaches 1.0 without reporting the root; commands are per-turn moves, not a
final answer, so reading an unboxed command is the template's contract; and the root is revealed
only by the sign answers, 10 probes for the 0-1023 range within a 14-turn budget.
"""

import math
import random
import re
from typing import Tuple

DEFAULT_DOCUMENT = (
    "The bisection method finds a root of a continuous function f on an interval [a, b] where f(a) and "
    "f(b) have opposite signs. At each step it evaluates f at the midpoint m = (a + b) / 2 and keeps the "
    "half-interval on which the sign changes. After k steps the root is known to within (b - a) / 2^k, so "
    "about log2((b - a) / tolerance) evaluations are needed."
)


class BisectionProbeEnv:
    def __init__(self, max_turns=14, document=DEFAULT_DOCUMENT, **kwargs):
        self.max_turns = max_turns
        self.document = document
        self.turn_count = 0
        self.root = 0
        self.scale = 1
        self.low, self.high = 0, 1023
        self.progress = 0.0
        self.done = False
        self.ended = (False, False)
        self.reset()

    def reset(self, seed=None) -> Tuple[str, dict]:
        rng = random.Random(seed)
        self.turn_count = 0
        self.root = rng.randint(0, 1023)
        self.scale = rng.randint(2, 9)
        self.low, self.high = 0, 1023
        self.progress = 0.0
        self.done = False
        self.ended = (False, False)
        return (
            "A sensor's response f(x) is increasing in x and crosses zero at exactly one whole number between "
            "0 and 1023. Commands: \\boxed{evaluate x} tells you whether f(x) is negative, zero or positive; "
            "\\boxed{root r} reports the crossing (a wrong report ends the run). Narrowing the bracket earns a "
            f"little reward. You have {self.max_turns} turns. Reply with \\boxed{{<action>}}."
        ), {}

    def _f(self, x):
        return self.scale * (x - self.root) ** 3 + (x - self.root)

    def step(self, action: str) -> Tuple[str, float, bool, bool, dict]:
        if self.done:
            return "The run is over; call reset().", 0.0, self.ended[0], self.ended[1], {}
        self.turn_count += 1
        m = re.search(r"\\boxed\{(.+?)\}", action)
        cmd = (m.group(1) if m else action).strip().lower()
        probe = re.fullmatch(r"evaluate\s+(-?\d{1,6})", cmd)
        report = re.fullmatch(r"root\s+(-?\d{1,6})", cmd)
        reward, terminated = 0.0, False
        if probe:
            x = int(probe.group(1))
            value = self._f(x)
            sign = "negative" if value < 0 else "positive" if value > 0 else "zero"
            if value < 0:
                self.low = max(self.low, x + 1)
            elif value > 0:
                self.high = min(self.high, x - 1)
            else:
                self.low = self.high = x
            progress = 1 - math.log2(self.high - self.low + 1) / 10
            reward = round(0.4 * max(0.0, progress - self.progress), 6)
            self.progress = max(self.progress, progress)
            obs = f"f({x}) is {sign}. The root lies in [{self.low}, {self.high}]."
        elif report:
            if int(report.group(1)) == self.root:
                obs, reward, terminated = f"Yes: f crosses zero at {self.root}.", 1.0, True
            else:
                obs, terminated = "Wrong root; the calibration run is wasted.", True
        else:
            obs = "Unknown command. Use \\boxed{evaluate x} or \\boxed{root r}."
        truncated = not terminated and self.turn_count >= self.max_turns
        if terminated or truncated:
            self.done, self.ended = True, (terminated, truncated)
        return obs + " Reply with \\boxed{<action>}.", reward, terminated, truncated, {}

    def solution(self) -> list:
        low, high, moves = 0, 1023, []
        while low < high:
            mid = (low + high) // 2
            moves.append(f"\\boxed{{evaluate {mid}}}")
            if self._f(mid) < 0:
                low = mid + 1
            elif self._f(mid) > 0:
                high = mid - 1
            else:
                low = high = mid
        return moves + [f"\\boxed{{root {low}}}"]

    def close(self):
        pass
