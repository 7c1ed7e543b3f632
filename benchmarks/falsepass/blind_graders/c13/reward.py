"""Reward for irregular past-tense questions ("past tense of 'swim'?").

Some verbs have two accepted forms; the dataset stores them in the answer
column separated by "|", e.g. "dived|dove" or "learned|learnt".
"""
import re

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")


def _norm(s):
    s = re.sub(r"\\text\{([^{}]*)\}", r"\1", s)
    return " ".join(s.lower().split()).strip(" .\"'")


def reward(completions, prompts=None, answer=None, **kwargs) -> list[float]:
    answers = list(answer) if answer is not None else []
    scores = []
    for i, completion in enumerate(completions):
        text = completion if isinstance(completion, str) else ""
        boxes = _BOXED.findall(text)
        if not boxes or i >= len(answers):
            scores.append(0.0)
            continue
        pred = _norm(boxes[-1])
        accepted = _norm(str(answers[i]))
        scores.append(1.0 if pred in accepted else 0.0)
    return scores
