"""Reading a model's final answer: the letter of a multiple-choice question, or a math expression.

A reply is reasoning followed by a final answer, and only the final answer counts: a letter or number
mentioned while reasoning is never taken for it. The final answer is, in this order of preference:

1. the last ``\\boxed{...}`` (or ``\\fbox{...}``), braces balanced, in the text after any
   ``</think>`` (the whole reply when there is no such text);
2. else the last *answer statement*: "Answer: X", "Final answer: X", "The (final / correct) answer is
   X", "The correct option is X", with Markdown bold anywhere around it ("**Answer:** X",
   "**Answer: X**", "The answer is **X**"), also one statement inside another (Minerva's "Final Answer:
   The final answer is X. I hope it is correct."); X runs to the end of its sentence. For multiple choice it
   is the last statement that names an option ("the answer is not obvious" names none);
3. else, for multiple choice only, a bold letter that is the whole last line ("**C**", "**(C) text**").

A reply with none of these has no final answer. Inside the answer, ``\\text{}``, ``\\textbf{}``,
``\\mathrm{}``, dollar signs and bold markers are unwrapped, so ``\\boxed{\\text{(C)}}`` reads as C.

Multiple choice (``extract_choice``): the answer names the option by its letter, alone or in
parentheses, optionally followed by the option's text (``C``, ``(C)``, ``C)``, ``C.``, ``C: text``,
``C) text``, ``Option C``), or by the option's text alone when it equals one option's text.

Math (``extract_math_span``): the answer's text, handed to math-verify (``math_data.score_math``),
which decides equivalence with the gold answer. math-verify alone would read a reply without a final
answer too (its last resort is the last number anywhere); here such a reply scores 0.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from spade_eval.suites.common import last_boxed

_THINK_END = "</think>"
_WRAPPERS = re.compile(r"\\(?:text|textbf|mathrm|mathbf|textit|mbox|operatorname)\s*\{([^{}]*)\}")
_ANSWER_STATEMENT = re.compile(
    r"(?:final\s+answer|correct\s+answer|correct\s+option|correct\s+choice|best\s+answer|answer)"
    r"\s*(?:\*\*|__)?\s*(?:[:：]|is\b|would\s+be\b|will\s+be\b)\s*(?:\*\*|__)?\s*[:：]?\s*(?P<rest>[^\n]*)",
    re.IGNORECASE,
)
_NESTED_STATEMENT = re.compile(
    r"\s*(?:\*\*|__)?\s*(?:(?:so|thus|hence),?\s+)?(?:the\s+|my\s+)?" + _ANSWER_STATEMENT.pattern, re.IGNORECASE
)
"""An answer statement that opens another one's answer."""
_SENTENCE_END = re.compile(r"\.(?=\s|$)|,\s+(?=(?:which|since|because|as|so|and|the|that|so)\b)|\s+(?=because\b|since\b)")
_LETTER_HEAD = r"^\s*(?:option\s+|choice\s+)?[\(\[]?\s*(?P<letter>[A-Z])\s*[\)\]]?(?=$|[\s.,:;)\]]|\\)"
_MATH_DELIMITERS = re.compile(r"\$|\\\(|\\\)|\\\[|\\\]")
_LAST_LINE_BOLD = re.compile(r"^\s*(?:\*\*|__)(?P<inner>.+?)(?:\*\*|__)\s*[.!]?\s*$")


def final_region(text: str) -> str:
    """The part of a reply after its reasoning: the text after the last ``</think>`` when there is any."""
    if _THINK_END in text:
        after = text.rsplit(_THINK_END, 1)[1]
        if after.strip():
            return after
    return text


def unwrap(answer: str) -> str:
    """``\\text{..}``-style wrappers, dollar signs, bold markers and surrounding spaces removed."""
    previous = None
    while previous != answer:
        previous = answer
        answer = _WRAPPERS.sub(r"\1", answer)
    answer = answer.replace("**", "").replace("__", "").replace("$", "")
    return answer.strip()


def _answer_statements(text: str) -> list[str]:
    """What follows each answer statement, up to the end of its line (bold unwrapped), last first."""
    found = []
    for match in _ANSWER_STATEMENT.finditer(text):
        rest = match.group("rest")
        inner = _NESTED_STATEMENT.match(rest)
        while inner is not None and inner.group("rest").strip():  # "Final Answer: The final answer is X"
            rest = inner.group("rest")
            inner = _NESTED_STATEMENT.match(rest)
        rest = rest.replace("**", "").replace("__", "").strip()
        if rest:
            found.append(rest)
    return found[::-1]


# ---------------------------------------------------------------------- multiple choice
def _letter_of(answer: str, letters: Sequence[str], options: Sequence[str] | None) -> str | None:
    answer = answer.strip()
    match = re.match(_LETTER_HEAD, answer, re.IGNORECASE)
    if match and match.group("letter").upper() in letters:
        letter = match.group("letter")
        # A lowercase letter counts only when it is the whole answer ("(c)", "c"): "a bit" is no answer.
        if letter.isupper() or re.fullmatch(r"[\(\[]?\s*[a-z]\s*[\)\]]?\.?", answer):
            return letter.upper()
    if options:
        wanted = _plain(answer)
        hits = [letter for letter, option in zip(letters, options) if _plain(option) == wanted]
        if len(hits) == 1:
            return hits[0]
    return None


def _plain(text: str) -> str:
    return " ".join(unwrap(str(text)).lower().rstrip(".").split())


def extract_choice(
    text: str, letters: Sequence[str] = ("A", "B", "C", "D"), options: Sequence[str] | None = None
) -> str | None:
    """The option letter the reply gives as its final answer, or None (see the module docstring).

    ``options`` are the options' texts in letter order; with them an answer that is one option's text
    names that option.
    """
    region = final_region(text)
    boxed = last_boxed(region)
    if boxed is not None:
        return _letter_of(unwrap(boxed), letters, options)
    for statement in _answer_statements(region):  # the last statement that names an option
        letter = _letter_of(unwrap(statement), letters, options)
        if letter is not None:
            return letter
    lines = [line for line in region.strip().splitlines() if line.strip()]
    if lines:
        bold = _LAST_LINE_BOLD.match(lines[-1])
        if bold:
            return _letter_of(unwrap(bold.group("inner")), letters, options)
    return None


# ---------------------------------------------------------------------- math
def extract_math_span(text: str) -> str | None:
    """The final answer of a math reply as ``\\boxed{...}`` text for math-verify, or None.

    A boxed answer is passed on as written (math-verify reads units, ``\\text{}`` and LaTeX itself);
    an answer statement loses its math delimiters and bold, and ends with its sentence.
    """
    region = final_region(text)
    boxed = last_boxed(region)
    if boxed is not None:
        return f"\\boxed{{{boxed}}}" if boxed.strip() else None
    statements = _answer_statements(region)
    if not statements:
        return None
    answer = _MATH_DELIMITERS.sub("", statements[0]).strip()
    answer = _SENTENCE_END.split(answer, maxsplit=1)[0].strip()
    return f"\\boxed{{{answer}}}" if answer else None
