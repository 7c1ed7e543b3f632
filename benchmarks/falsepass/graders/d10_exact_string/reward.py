import re

BOX = re.compile(r"\\boxed\{([^{}]*)\}")


def _text(completion):
    return completion if isinstance(completion, str) else completion[-1]["content"]

def reward(completions, answer, **kwargs):
    """The boxed answer, character for character."""
    scores = []
    for completion, expected in zip(completions, answer):
        boxes = BOX.findall(_text(completion))
        scores.append(1.0 if boxes and boxes[-1] == expected else 0.0)
    return scores
