"""Reward for day-offset questions in 2023 ("What date is 10 days after March 1?").

References look like "March 11".  Replies vary in capitalisation, spacing
and punctuation ("march 11", "March 11.", "\\text{March 11}"), so both
sides are normalised before comparing.
"""
import re

_BOXED = re.compile(r"\\boxed\{((?:[^{}]|\{[^{}]*\})*)\}")
_TEXT_CMD = re.compile(r"\\(?:text|mathrm|textbf)\{([^{}]*)\}")


def _norm(s):
    s = _TEXT_CMD.sub(r"\1", s)
    return re.sub(r"[^a-z]+", "", s.lower())


def reward(completions, prompts=None, answer=None, **kwargs) -> list[float]:
    answers = list(answer) if answer is not None else []
    scores = []
    for i, completion in enumerate(completions):
        text = completion if isinstance(completion, str) else ""
        boxes = _BOXED.findall(text)
        ref = _norm(str(answers[i])) if i < len(answers) else ""
        if not boxes or not ref:
            scores.append(0.0)
            continue
        scores.append(1.0 if _norm(boxes[-1]) == ref else 0.0)
    return scores
