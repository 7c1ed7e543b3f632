"""Reward for the world-capitals set.

Two components, as in our other short-answer tasks:
  * format  (0.6): the reply ends its reasoning with a \\boxed{} answer
  * correct (0.4): the last boxed answer names the reference city
"""
import re
import unicodedata

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")
FORMAT_WEIGHT = 0.6
CORRECT_WEIGHT = 0.4


def _norm(s):
    s = re.sub(r"\\text\{([^{}]*)\}", r"\1", s)
    s = unicodedata.normalize("NFKD", s)
    s = "".join(ch for ch in s if not unicodedata.combining(ch))
    return " ".join(s.casefold().split()).strip(" .")


def reward(completions, prompts=None, answer=None, **kwargs) -> list[float]:
    answers = list(answer) if answer is not None else []
    scores = []
    for i, completion in enumerate(completions):
        text = completion if isinstance(completion, str) else ""
        boxes = _BOXED.findall(text)
        if not boxes:
            scores.append(0.0)
            continue
        score = FORMAT_WEIGHT
        ref = _norm(str(answers[i])) if i < len(answers) else ""
        if ref and _norm(boxes[-1]) == ref:
            score += CORRECT_WEIGHT
        scores.append(score)
    return scores
