import re

BOX = re.compile(r"\\boxed\{([^{}]*)\}")


def _text(completion):
    return completion if isinstance(completion, str) else completion[-1]["content"]

def _norm(text):
    text = text.strip().strip("$").replace(" ", "").lower()
    if text.endswith(".0"):
        text = text[:-2]
    return text


def reward(completions, answer, **kwargs):
    """The last boxed answer after light normalisation (spaces, dollars, a trailing .0)."""
    scores = []
    for completion, expected in zip(completions, answer):
        boxes = BOX.findall(_text(completion))
        scores.append(1.0 if boxes and _norm(boxes[-1]) == _norm(expected) else 0.0)
    return scores
