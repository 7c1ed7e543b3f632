"""Reward for single linear equations ("Solve for x: 3x - 7 = 11").

The last boxed answer may be a bare value or "x = value"; the value may be
an integer, an exact decimal, a/b or a LaTeX fraction.  The comparison is
exact, so a rounded decimal for 7/3 is not accepted (the prompt asks for
the exact value).  Boxes holding several candidate values are rejected.
"""
import re
from decimal import Decimal, InvalidOperation
from fractions import Fraction

_MAX_CHARS = 80
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]{1,3})?")
_TEX_FRAC = re.compile(r"([+-]?)\\[dt]?frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}")
_TEX_FRAC_SHORT = re.compile(r"([+-]?)\\[dt]?frac([0-9])([0-9])")
_LHS = re.compile(r"^x\s*=\s*")


def _as_text(completion):
    if isinstance(completion, str):
        return completion
    if isinstance(completion, list) and completion and isinstance(completion[-1], dict):
        content = completion[-1].get("content")
        return content if isinstance(content, str) else ""
    return ""


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


def _decimal(s):
    s = s.strip()
    if not _DECIMAL.fullmatch(s):
        return None
    try:
        return Fraction(Decimal(s))
    except (InvalidOperation, ValueError, OverflowError):
        return None


def _value(s):
    if s is None:
        return None
    s = s.replace("\u2212", "-").replace("$", "")
    for tok in ("\\left", "\\right", "\\,", "\\!", "\\;"):
        s = s.replace(tok, "")
    s = _LHS.sub("", s.strip())
    if not s or len(s) > _MAX_CHARS:
        return None
    m = _TEX_FRAC.fullmatch(s) or _TEX_FRAC_SHORT.fullmatch(s)
    if m:
        num, den = _decimal(m.group(2)), _decimal(m.group(3))
        if num is None or not den:
            return None
        return -(num / den) if m.group(1) == "-" else num / den
    if s.count("/") == 1:
        num_s, den_s = s.split("/")
        num, den = _decimal(num_s), _decimal(den_s)
        return num / den if num is not None and den else None
    return _decimal(s)


def reward(completions, prompts=None, answer=None, **kwargs) -> list[float]:
    answers = list(answer) if answer is not None else []
    scores = []
    for i, completion in enumerate(completions):
        ref = _value(str(answers[i])) if i < len(answers) and answers[i] is not None else None
        pred = _value(_last_boxed(_as_text(completion)))
        scores.append(1.0 if ref is not None and pred is not None and pred == ref else 0.0)
    return scores
