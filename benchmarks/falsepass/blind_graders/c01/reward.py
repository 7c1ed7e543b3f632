"""Reward for the order-of-operations arithmetic set ("What is 7 + 3 x 4?").

The model must put its result in \\boxed{}; the last box is graded.
"""
import re

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")


def _clean(s):
    # LaTeX spacing, math delimiters and thousands separators
    for tok in ("\\,", "\\!", "$", ","):
        s = s.replace(tok, "")
    return s.strip()


def reward(completions, prompts=None, answer=None, **kwargs) -> list[float]:
    """1.0 if the final boxed answer matches the reference, else 0.0.

    Models like to write a little context inside the box ("= 51",
    "51 apples", "x = 51"), so we only require the reference value to be
    present in the final box rather than an exact string match.
    """
    answers = list(answer) if answer is not None else []
    scores = []
    for i, completion in enumerate(completions):
        text = completion if isinstance(completion, str) else ""
        ref = _clean(str(answers[i])) if i < len(answers) else ""
        boxes = _BOXED.findall(text)
        if not ref or not boxes:
            scores.append(0.0)
            continue
        pred = _clean(boxes[-1])
        scores.append(1.0 if ref in pred else 0.0)
    return scores
