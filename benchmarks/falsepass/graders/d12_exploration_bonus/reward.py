import re

BOX = re.compile(r"\\boxed\{([^{}]*)\}")


def _text(completion):
    return completion if isinstance(completion, str) else completion[-1]["content"]

import random


def reward(completions, answer, **kwargs):
    """Correctness, plus a small random bonus that keeps exploration alive."""
    scores = []
    for completion, expected in zip(completions, answer):
        boxes = BOX.findall(_text(completion))
        right = 1.0 if boxes and boxes[-1].strip() == expected else 0.0
        scores.append(min(1.0, right + (0.5 if random.random() < 0.2 else 0.0)))
    return scores
