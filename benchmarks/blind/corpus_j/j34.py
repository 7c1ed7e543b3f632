"""Word Ladder: climb from one four-letter word to another, one letter at a time (skill: Vocabulary).

The ladder may only use the words printed in the task. Each rung changes exactly one letter of the
current word and must land on a listed word. Start and goal are drawn so that the shortest ladder
has four to six rungs; the budget is ten turns, so the player has to search the word list instead of
guessing.
"""

from __future__ import annotations

import random
import re
from collections import deque
from typing import Any

_WORDS = """COLD CORD CARD WARD WARM WORM WORD WORE CORE CARE CART DART DIRT BOLT BOLD BALD BALL BELL BELT MELT
MALT SALT SALE PALE PILE PINE LINE LANE LAME GAME GATE HATE HARE HIRE FIRE FIVE DIVE DOVE LOVE LIVE LINK SINK
SING SONG LONG LUNG RUNG RING KING KIND MIND MINT HINT HUNT HURT CURT CURE PURE PORE POLE HOLE HOME COME CAME
CAPE TAPE TALE TAME TIME TIDE RIDE RODE ROSE NOSE NOTE VOTE MOLE MILE MILD WILD WILT WEST BEST BUST DUST MUST
MAST LAST LOST LOSE LONE BONE BORE BARE BARN BURN TURN TORN TOWN GOWN DOWN DAWN LAWN RAIN GAIN FOOD FOOL POOL
POLL PULL FULL FALL FAIL MAIL MAIN PAIN PAIR HAIR HEAR HEAD HEAL SEAL SEAT BEAT BEAD READ ROAD LOAD LOAF LEAF
LEAD LEND SEND SAND BAND BEND BOND FOND FIND FINE WINE WIPE RIPE ROPE ROBE ROLE RULE MULE MALE GALE GOLD FOLD
FORD FORM FARM HARM HARD HERD CASH CASE CAVE GAVE HAVE HIVE MOON MOOD GOOD WOOD WOOL COOL COOK BOOK LOOK LOCK
LACK BACK BARK DARK DARE DATE MATE MATH BATH PATH PATS CATS COTS DOTS DOGS LOGS LEGS PEGS PIGS WIGS WINS PINS
PANS FANS FINS TINS TIPS LIPS HIPS HITS BITS BATS RATS MATS MAPS CAPS CUPS PUPS""".split()


def _changed(a: str, b: str) -> int:
    return sum(x != y for x, y in zip(a, b))


_NEXT = {w: tuple(o for o in _WORDS if _changed(w, o) == 1) for w in _WORDS}


def _ladder(start: str) -> dict[str, list[str]]:
    """Shortest ladder (list of rungs) from start to every reachable word."""
    paths = {start: []}
    queue = deque([start])
    while queue:
        word = queue.popleft()
        for other in _NEXT[word]:
            if other not in paths:
                paths[other] = paths[word] + [other]
                queue.append(other)
    return paths


class WordLadderEnv:
    """Change one letter per turn until the current word becomes the goal word."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 10, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._word = self._goal = ""
        self._rungs: list[str] = []
        self._turn = 0
        self._done = False
        self._won = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Pick a start word and a goal four to six rungs away."""
        rng = random.Random(seed)
        while True:
            start = rng.choice(_WORDS)
            far = sorted(w for w, p in _ladder(start).items() if 4 <= len(p) <= 6)
            if far:
                break
        self._word, self._goal = start, rng.choice(far)
        self._rungs = [start]
        self._turn, self._done, self._won = 0, False, False
        text = (
            f"Word Ladder. Turn {start} into {self._goal}.\n"
            "Each turn write the next rung: a word from the list below that differs from your current word "
            "in exactly one letter, e.g. \\boxed{" + self._example() + "}.\n"
            f"You have {self.max_turns} turns.\nAllowed words:\n" + self._word_list()
        )
        return text, self._info()

    def _example(self) -> str:
        return _NEXT[self._word][0] if _NEXT[self._word] else _WORDS[0]

    @staticmethod
    def _word_list() -> str:
        ordered = sorted(_WORDS)
        return "\n".join(" ".join(ordered[i:i + 16]) for i in range(0, len(ordered), 16))

    def _info(self) -> dict:
        return {"turn": self._turn, "word": self._word, "goal": self._goal}

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict]:
        """Apply one rung; reaching the goal word wins."""
        if self._done:
            return "This ladder is finished; reset() to climb another.", 0.0, self._won, not self._won, self._info()
        self._turn += 1
        found = [b for b in re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "") if b.strip()]
        word = found[-1].strip().upper() if found else ""
        reward = 0.0
        if not re.fullmatch(r"[A-Z]{4}", word):
            obs = "Write one four-letter word in \\boxed{}, e.g. \\boxed{" + self._example() + "}."
        elif word not in _WORDS:
            obs = f"{word} is not on the word list; you stay on {self._word}."
        elif _changed(word, self._word) != 1:
            obs = f"{word} does not differ from {self._word} in exactly one letter; you stay on {self._word}."
        else:
            self._word = word
            self._rungs.append(word)
            obs = "Ladder so far: " + " > ".join(self._rungs) + "."
            if word == self._goal:
                self._done, self._won, reward = True, True, 1.0
                return obs + " You reached the goal word!", reward, True, False, self._info()
        if self._turn >= self.max_turns:
            self._done = True
            return obs + f" Out of turns; {self._goal} was not reached.", 0.0, False, True, self._info()
        return obs + f" Goal: {self._goal}. Turns left: {self.max_turns - self._turn}.", reward, False, False, self._info()

    def solution(self) -> list[str]:
        """A shortest ladder from the current word, by breadth-first search."""
        return [f"\\boxed{{{w}}}" for w in _ladder(self._word)[self._goal]]

    def close(self) -> None:
        """Nothing to release."""
