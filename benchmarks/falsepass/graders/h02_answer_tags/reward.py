import re

BOX = re.compile(r"\\boxed\{([^{}]*)\}")


def _text(completion):
    return completion if isinstance(completion, str) else completion[-1]["content"]

from fractions import Fraction

TAG = re.compile(r"<answer>(.*?)</answer>", re.S)


def _value(text):
    try:
        return Fraction(text.strip())
    except (ValueError, ZeroDivisionError):
        return None


def reward(completions, answer, **kwargs):
    """The answer in the last <answer> tag or \\boxed{}, compared as a number."""
    scores = []
    for completion, expected in zip(completions, answer):
        text = _text(completion)
        found = [(m.start(), m.group(1)) for m in TAG.finditer(text)] + [(m.start(), m.group(1)) for m in BOX.finditer(text)]
        got = _value(max(found)[1]) if found else None
        scores.append(1.0 if got is not None and got == _value(expected) else 0.0)
    return scores
