"""Reward for the arith_v2 export (expressions like "17 x 4 - 11").

Exact integer match on the last \\boxed{} answer.  Accepts "57", "57.0",
"+57", "$57$" and thousands separators.
"""
import math
import re

_TEXT_CMD = re.compile(r"\\(?:text|mathrm)\{([^{}]*)\}")


def _last_boxed(text):
    start = text.rfind("\\boxed")
    if start < 0:
        return None
    i = start + len("\\boxed")
    while i < len(text) and text[i].isspace():
        i += 1
    if i >= len(text) or text[i] != "{":
        return None
    depth = 0
    for j in range(i, len(text)):
        if text[j] == "{":
            depth += 1
        elif text[j] == "}":
            depth -= 1
            if depth == 0:
                return text[i + 1:j]
    return None


def _number(s):
    if s is None or len(s) > 40:
        return None
    s = _TEXT_CMD.sub(r"\1", s).replace("$", "").replace("\\,", "").replace("\u2212", "-")
    s = s.strip().rstrip(".")
    if re.fullmatch(r"[+-]?\d{1,3}(?:,\d{3})+", s):
        s = s.replace(",", "")
    if not re.fullmatch(r"[+-]?\d+(?:\.\d*)?", s):
        return None
    v = float(s)
    return v if math.isfinite(v) else None


def reward(completions, prompts=None, answer=None, **kwargs) -> list[float]:
    answers = list(answer) if answer is not None else []
    scores = []
    for i, completion in enumerate(completions):
        text = completion if isinstance(completion, str) else ""
        gold = _number(str(answers[i])) if i < len(answers) else None
        pred = _number(_last_boxed(text))
        scores.append(1.0 if pred is not None and gold is not None and pred == gold else 0.0)
    return scores
