import re

BOX = re.compile(r"\\boxed\{([^{}]*)\}")


def _text(completion):
    return completion if isinstance(completion, str) else completion[-1]["content"]

from fractions import Fraction


def _value(text):
    text = text.strip().replace(" ", "").replace("$", "")
    try:
        return Fraction(text)
    except (ValueError, ZeroDivisionError):
        return None


def reward(completions, answer, **kwargs):
    """The last boxed answer, compared as a number (14, 14.0 and 28/2 are the same)."""
    scores = []
    for completion, expected in zip(completions, answer):
        boxes = BOX.findall(_text(completion))
        got = _value(boxes[-1]) if boxes else None
        want = _value(expected)
        scores.append(1.0 if got is not None and want is not None and got == want else 0.0)
    return scores
