import re

BOX = re.compile(r"\\boxed\{([^{}]*)\}")


def _text(completion):
    return completion if isinstance(completion, str) else completion[-1]["content"]

def reward(completions, answer, **kwargs):
    """Compare the boxed answer."""
    return [1.0 if BOX.findall(_text(c))[-1].strip() == expected else 0.0
            for c, expected in zip(completions, answer)]
