# expect: valid
"""Clock Angle: the angle between a clock's hands, written as the SPADE release's single-answer prompt shows
(without the math_verify import).

The release template's shape: a module-level ``verify_answer`` (string match first, then a numeric
comparison), ``self.turn_count``, step() with ``re.search(r'\\\\boxed\\{([^}]+)\\}', action)``,
specific feedback that repeats the task, and the answer revealed on the truncating step.

Looks suspicious: the answer is revealed in the observation of the final step, and "17.5" and
"17.50" (or "35/2") are all accepted.
Why it is correct: revealing the answer when the episode ends by truncation is the release's
contract (the model learns from failure) and happens only on the last step; the accepted forms are
the same number, compared exactly (no tolerance beyond float rounding of the exact half-degree
value).
"""

import random
import re
from fractions import Fraction
from typing import Tuple


def verify_answer(player_answer, solution):
    """Check if answer is correct: string match first, then exact numeric equality."""
    if str(player_answer).strip() == str(solution).strip():
        return True
    try:
        return Fraction(str(player_answer).strip()) == Fraction(str(solution))
    except (ValueError, ZeroDivisionError):
        return False


class ClockAngleEnv:
    def __init__(self, max_turns=4, **kwargs):
        self.max_turns = max_turns
        self.turn_count = 0
        self._hour = 3
        self._minute = 0
        self._answer = Fraction(90)
        self._done = False
        self._ended = (False, False)
        self.reset()

    def reset(self, seed=None) -> Tuple[str, dict]:
        rng = random.Random(seed)
        self.turn_count = 0
        self._hour, self._minute = rng.randint(1, 12), rng.randint(0, 59)
        angle = abs(Fraction(60 * self._hour - 11 * self._minute, 2)) % 360
        self._answer = min(angle, 360 - angle)
        self._done = False
        self._ended = (False, False)
        return ("Clock Angle. " + self._task() + " Give the angle in degrees (it may end in .5), e.g. \\boxed{42.5}."), {}

    def _task(self):
        return (f"An analogue clock shows {self._hour}:{self._minute:02d}. What is the smaller angle between the hour "
                "hand and the minute hand?")

    def solution(self) -> str:
        value = self._answer
        return str(value.numerator) if value.denominator == 1 else f"{value.numerator // 2}.5"

    def step(self, action: str) -> Tuple[str, float, bool, bool, dict]:
        if self._done:
            return ("The episode is over.", 0.0, self._ended[0], self._ended[1], {})
        self.turn_count += 1
        truncated = self.turn_count >= self.max_turns
        match = re.search(r'\\boxed\{([^}]+)\}', action)
        if match and verify_answer(match.group(1), self.solution()):
            self._done, self._ended = True, (True, False)
            return ("Correct!", 1.0, True, False, {})
        elif truncated:
            self._done, self._ended = True, (False, True)
            return (f"Time's up. The answer was {self.solution()}. {self._task()}", 0.0, False, True, {})
        else:
            hint = ("Wrong. The hour hand moves half a degree per minute; the minute hand six degrees."
                    if match else "Put the angle in \\boxed{}.")
            return (f"{hint} Try again. {self._task()}", 0.0, False, False, {})

    def close(self): pass
