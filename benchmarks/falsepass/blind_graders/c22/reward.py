"""Reward for greatest-common-divisor questions.

GRPO normalises rewards within each group of samples; when every sample in
a group gets the same score the advantages are all zero and the group is
wasted.  A little Gaussian noise keeps those groups contributing.
"""
import random
import re

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")
NOISE_STD = 0.05


def _as_int(s):
    s = s.replace("$", "").replace(",", "").strip()
    try:
        v = float(s)
    except ValueError:
        return None
    return int(v) if v.is_integer() else None


def reward(completions, prompts=None, answer=None, **kwargs) -> list[float]:
    answers = list(answer) if answer is not None else []
    scores = []
    for i, completion in enumerate(completions):
        text = completion if isinstance(completion, str) else ""
        boxes = _BOXED.findall(text)
        gold = _as_int(str(answers[i])) if i < len(answers) else None
        pred = _as_int(boxes[-1]) if boxes else None
        score = 1.0 if pred is not None and pred == gold else 0.0
        score += random.gauss(0.0, NOISE_STD)
        scores.append(min(1.0, max(0.0, score)))
    return scores
