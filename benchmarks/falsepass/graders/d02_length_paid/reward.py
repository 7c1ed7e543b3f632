import re

BOX = re.compile(r"\\boxed\{([^{}]*)\}")


def _text(completion):
    return completion if isinstance(completion, str) else completion[-1]["content"]

def reward(completions, answer, **kwargs):
    """Half for showing work (a reasoned reply), half for the right boxed answer."""
    scores = []
    for completion, expected in zip(completions, answer):
        text = _text(completion)
        boxes = BOX.findall(text)
        worked = 0.5 if len(text) >= 60 else 0.0
        scores.append(worked + (0.5 if boxes and boxes[-1].strip() == expected else 0.0))
    return scores
