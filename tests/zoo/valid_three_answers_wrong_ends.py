# expect: valid
"""Junction: which way leads home, left, right or straight (skill: Spatial Reasoning).

Looks suspicious: only three answers exist, the checker reads the first box that holds one of them
(skipping anything else it cannot read), and a wrong answer ends the episode at once.

Why it is correct: the way home follows from the map's headings, which the seed draws; a blind guess
wins one time in three, and a wrong guess costs the whole episode, so listing two directions in two
boxes is read as the first one and loses when it is wrong. Reading one legal answer among malformed
boxes (``\\boxed{left} \\boxed{leftx}``) is what a careful grader does, not a leak.
"""

import random
import re

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")
_TURNS = {"left": -1, "straight": 0, "right": 1}
_HEADINGS = ["north", "east", "south", "west"]


class JunctionEnv:
    """Facing one heading, which turn points at home?"""

    def __init__(self, max_turns=1, **kwargs):
        self.max_turns = max_turns
        self._facing = 0
        self._home = 0
        self._answer = "straight"
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        self._facing = rng.randrange(4)
        self._answer = rng.choice(sorted(_TURNS))
        self._home = (self._facing + _TURNS[self._answer]) % 4
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        return (f"You stand at a junction facing {_HEADINGS[self._facing]}. Home lies to the "
                f"{_HEADINGS[self._home]}. Which way do you go: left, right or straight? Reply in \\boxed{{}}, "
                "e.g. \\boxed{left}. A wrong turn ends the walk."), {}

    def step(self, action):
        if self._done:
            return "The walk is over; call reset().", 0.0, self._ended[0], self._ended[1], {}
        self._turn += 1
        action = action if isinstance(action, str) else str(action)
        legal = [box.strip().lower() for box in _BOXED.findall(action)]
        legal = [box for box in legal if box in _TURNS]
        if not legal:
            truncated = self._turn >= self.max_turns
            if truncated:
                self._done, self._ended = True, (False, True)
            return "Answer left, right or straight in \\boxed{}.", 0.0, False, truncated, {}
        self._done = True
        if legal[0] == self._answer:
            self._ended = (True, False)
            return "You are home!", 1.0, True, False, {}
        self._ended = (True, False)
        return f"That way leads away from home; the way was {self._answer}.", 0.0, True, False, {}

    def solution(self):
        return self._answer

    def close(self):
        pass
