"""Exact-value reward for the integer arithmetic set.

The model evaluates an expression and puts the result in \\boxed{}.  Only
the last boxed expression counts.  Equivalent spellings of the same number
are accepted: "1,234", "1234.0", "1.234e3", LaTeX thin spaces, a leading
"+" and the unicode minus sign.
"""
import re
from decimal import Decimal, InvalidOperation
from fractions import Fraction

_MAX_CHARS = 64
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]{1,3})?")
_GROUPED = re.compile(r"[+-]?[0-9]{1,3}(?:,[0-9]{3})+(?:\.[0-9]+)?")
_TEXT_CMD = re.compile(r"\\(?:text|mathrm|mathbf|textbf)\s*\{([^{}]*)\}")


def _as_text(completion):
    """Plain-string completions or a conversational message list."""
    if isinstance(completion, str):
        return completion
    if isinstance(completion, list) and completion and isinstance(completion[-1], dict):
        content = completion[-1].get("content")
        return content if isinstance(content, str) else ""
    return ""


def _last_boxed(text):
    """Contents of the last \\boxed{...} with balanced braces, else None."""
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


def _clean(s):
    s = s.replace("\u2212", "-")
    s = _TEXT_CMD.sub(r"\1", s)
    for tok in ("\\,", "\\!", "\\;", "\\ ", "$", "~"):
        s = s.replace(tok, "")
    return s.strip().rstrip(".").strip()


def _to_fraction(s):
    s = _clean(s)
    if not s or len(s) > _MAX_CHARS:
        return None
    if _GROUPED.fullmatch(s):
        s = s.replace(",", "")
    if not _DECIMAL.fullmatch(s):
        return None
    try:
        return Fraction(Decimal(s))
    except (InvalidOperation, ValueError, OverflowError):
        return None


def reward(completions, prompts=None, answer=None, **kwargs) -> list[float]:
    """1.0 when the last boxed value equals the reference exactly, else 0.0."""
    answers = list(answer) if answer is not None else []
    scores = []
    for i, completion in enumerate(completions):
        ref = _to_fraction(str(answers[i])) if i < len(answers) and answers[i] is not None else None
        box = _last_boxed(_as_text(completion))
        pred = _to_fraction(box) if box is not None else None
        scores.append(1.0 if ref is not None and pred is not None and pred == ref else 0.0)
    return scores
