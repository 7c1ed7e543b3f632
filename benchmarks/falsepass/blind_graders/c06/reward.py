"""Reward for fraction multiplication ("Compute 2/3 x 3/4.").

Reference answers are stored reduced to lowest terms ("1/2", "3", "5/12").
"""
import re

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")


def _canon(s):
    # drop math delimiters and spacing so " 1 / 2 " and "$1/2$" compare equal
    s = s.replace("$", "").replace("\\,", "").replace("\u2212", "-")
    return "".join(s.split())


def reward(completions, prompts=None, answer=None, **kwargs) -> list[float]:
    """1.0 if the last boxed answer equals the reference fraction, else 0.0."""
    answers = list(answer) if answer is not None else []
    scores = []
    for i, completion in enumerate(completions):
        text = completion if isinstance(completion, str) else ""
        boxes = _BOXED.findall(text)
        if not boxes or i >= len(answers):
            scores.append(0.0)
            continue
        pred, ref = _canon(boxes[-1]), _canon(str(answers[i]))
        scores.append(1.0 if pred and pred == ref else 0.0)
    return scores
