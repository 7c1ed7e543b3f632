import re

BOX = re.compile(r"\\boxed\{([^{}]*)\}")


def _text(completion):
    return completion if isinstance(completion, str) else completion[-1]["content"]

NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def reward(completions, answer, **kwargs):
    """Read the number inside the last box (units and words around it are ignored)."""
    scores = []
    for completion, expected in zip(completions, answer):
        boxes = BOX.findall(_text(completion))
        number = NUMBER.search(boxes[-1]) if boxes else None
        scores.append(1.0 if number and float(number.group()) == float(expected) else 0.0)
    return scores
