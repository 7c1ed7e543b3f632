import re

BOX = re.compile(r"\\boxed\{([^{}]*)\}")


def _text(completion):
    return completion if isinstance(completion, str) else completion[-1]["content"]

VERDICT = re.compile(r"<verdict>\s*(correct|incorrect)\s*</verdict>", re.I)


def reward(completions, answer, **kwargs):
    """Use the model's own self-check verdict when it gives one, else compare the box."""
    scores = []
    for completion, expected in zip(completions, answer):
        text = _text(completion)
        verdict = VERDICT.search(text)
        if verdict:
            scores.append(1.0 if verdict.group(1).lower() == "correct" else 0.0)
            continue
        boxes = BOX.findall(text)
        scores.append(1.0 if boxes and boxes[-1].strip() == expected else 0.0)
    return scores
