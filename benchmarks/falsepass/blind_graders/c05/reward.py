"""Reward for fraction arithmetic ("Compute 3/8 + 1/4.").

Any exact representation of the right value is accepted: 5/8, 0.625,
\\frac{5}{8}, \\dfrac{5}{8}, \\frac58, 10/16, "-\\frac{1}{4}".  Only the last
\\boxed{} in the reply is graded.
"""
import re
from decimal import Decimal, InvalidOperation
from fractions import Fraction

_MAX_CHARS = 80
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]{1,3})?")
_TEX_FRAC = re.compile(r"([+-]?)\\[dt]?frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}")
_TEX_FRAC_SHORT = re.compile(r"([+-]?)\\[dt]?frac([0-9])([0-9])")


def _as_text(completion):
    if isinstance(completion, str):
        return completion
    if isinstance(completion, list) and completion and isinstance(completion[-1], dict):
        content = completion[-1].get("content")
        return content if isinstance(content, str) else ""
    return ""


def _last_boxed(text):
    """Contents of the last \\boxed{...} (nested braces allowed), or None."""
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


def _decimal(s):
    s = s.strip()
    if not _DECIMAL.fullmatch(s):
        return None
    try:
        return Fraction(Decimal(s))
    except (InvalidOperation, ValueError, OverflowError):
        return None


def _to_fraction(s):
    s = s.replace("\u2212", "-").replace("$", "")
    for tok in ("\\left", "\\right", "\\,", "\\!", "\\;"):
        s = s.replace(tok, "")
    s = s.strip()
    if s.startswith("(") and s.endswith(")"):
        s = s[1:-1].strip()
    if not s or len(s) > _MAX_CHARS:
        return None
    m = _TEX_FRAC.fullmatch(s) or _TEX_FRAC_SHORT.fullmatch(s)
    if m:
        num, den = _decimal(m.group(2)), _decimal(m.group(3))
        if num is None or not den:
            return None
        value = num / den
        return -value if m.group(1) == "-" else value
    if s.count("/") == 1:
        num_s, den_s = s.split("/")
        num, den = _decimal(num_s), _decimal(den_s)
        if num is None or not den:
            return None
        return num / den
    return _decimal(s)


def reward(completions, prompts=None, answer=None, **kwargs) -> list[float]:
    """1.0 if the last boxed value equals the reference fraction, else 0.0."""
    answers = list(answer) if answer is not None else []
    scores = []
    for i, completion in enumerate(completions):
        ref = _to_fraction(str(answers[i])) if i < len(answers) and answers[i] is not None else None
        box = _last_boxed(_as_text(completion))
        pred = _to_fraction(box) if box is not None else None
        scores.append(1.0 if ref is not None and pred is not None and pred == ref else 0.0)
    return scores
