"""The forms an answer can take, and the candidates a copying agent could lift from a text.

Two questions come up again and again in the checks: *is this text the answer, written some other
way?* (``answer_key``: one canonical key per answer) and *what could an agent that only copies play
after reading this text?* (``text_candidates``: every number, fraction, spelled number, letter, word,
phrase, quoted or boxed string, and the forms that need one step of undoing: digits reversed,
numerator and denominator named apart, a decimal rounded from a simple fraction).

A candidate whose key equals the answer's key is a *predicted* win. The checks never stop there:
they play it, and only a real win is evidence (a leak is proven by a copy policy that wins, not by
string matching). Everything here reads hostile text, so it is linear in the text, caps what it
builds, and parses numbers only up to ``MAX_NUMBER_DIGITS`` digits.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import math
import re
from fractions import Fraction
from typing import Any, NamedTuple

from spade_envs.contract.actions import ANSWER_PATTERN, BOXED_PREFIX, boxed_spans

MAX_SCAN_CHARS = 20_000
"""Text beyond this many characters (head and tail kept) is not scanned for candidates."""
MAX_NUMBER_DIGITS = 60
"""Longer digit strings are compared as text, never converted to numbers."""
MAX_CANDIDATES_PER_KIND = 300
POSITIONS = 8
"""Copy policies by position look at the first and last this many candidates of each kind."""

_SMALL = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
          "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]
_TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
_SCALES = {"hundred": 100, "thousand": 1_000, "million": 1_000_000, "billion": 1_000_000_000}
_WORD_VALUES = {word: value for value, word in enumerate(_SMALL)} | {w: 10 * i for i, w in enumerate(_TENS) if w}

_NUMBER = re.compile(r"(?<![\w.])-?\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\w])|(?<![\w.])-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?(?![\w])")
_FRACTION = re.compile(r"(?<![\w./])(-?\d+)\s*/\s*(\d+)(?![\w/])")
_LATEX_FRACTION = re.compile(r"\\[dt]?frac\{\s*(-?\d+)\s*\}\{\s*(\d+)\s*\}")
_WORD = re.compile(r"[A-Za-z][A-Za-z'_-]*")
_CODE = re.compile(r"(?<![\w-])[A-Za-z0-9]+(?:[-_.:/][A-Za-z0-9]+)+(?![\w-])|(?<![\w-])(?=[A-Za-z]*\d)(?=\d*[A-Za-z])"
                   r"[A-Za-z0-9]{2,}(?![\w-])")
"""Identifiers: letters and digits with inner separators (KX-4821, B-14-C, /home/ann) or mixed (A7F3)."""
_TUPLE = re.compile(r"(?<![\w,.])-?\d{1,6}(?:,-?\d{1,6}){1,5}(?![\w,]|\.\d)")
"""Numbers joined by commas without spaces (``6,6``, ``3,7,2``): a square, a coordinate, a short list."""
_QUOTED = re.compile(r"'([^'\n]{1,40})'|\"([^\"\n]{1,40})\"")
_NUMBER_WORDS = sorted(_SMALL + [t for t in _TENS if t] + list(_SCALES), key=len, reverse=True)
_SPELLED = re.compile(r"\b(?:(?:minus|negative)\s+)?(?:(?:" + "|".join(_NUMBER_WORDS)
                      + r")(?![a-z])(?:[\s-]+(?:and\s+)?)?)+", re.IGNORECASE)


# ---------------------------------------------------------------------- what an answer is
_CONTROL = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[@-_]|[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e"
                      r"\u2066-\u2069\ufeff]")
"""Terminal escape sequences, control characters and invisible marks: a model reads the text around them,
so they must not hide a number from the checks (``\x1b[8m343\x1b[0m`` is 343)."""


def clean_control(text: str) -> str:
    """``text`` with escape sequences, control characters and invisible marks replaced by spaces."""
    return _CONTROL.sub(" ", text) if _CONTROL.search(text) else text


def _clip(text: str) -> str:
    if _CONTROL.search(text):
        text = _CONTROL.sub(" ", text)
    if len(text) <= MAX_SCAN_CHARS:
        return text
    half = MAX_SCAN_CHARS // 2
    return text[:half] + " \n " + text[-half:]


def parse_number(text: str) -> Fraction | None:
    """A plain integer, decimal, scientific number, ``a/b`` or ``\\frac{a}{b}``; None for anything else.

    Bounded: more than ``MAX_NUMBER_DIGITS`` digits or an exponent beyond 100 is not a number here.
    """
    text = text.strip().replace(" ", "")
    if not text or len(text) > MAX_NUMBER_DIGITS + 8:
        return None
    latex = _LATEX_FRACTION.fullmatch(text)
    if latex:
        top, bottom = int(latex.group(1)), int(latex.group(2))
        return Fraction(top, bottom) if bottom else None
    if text.count("/") == 1:
        top_text, bottom_text = text.split("/")
        top, bottom = parse_number(top_text), parse_number(bottom_text)
        return top / bottom if top is not None and bottom else None
    if re.fullmatch(r"-?\d{1,3}(,\d{3})+(\.\d+)?", text):
        text = text.replace(",", "")
    match = re.fullmatch(r"[-+]?(\d+(?:\.\d*)?|\.\d+)(?:[eE]([-+]?\d+))?", text)
    if match is None or len(re.sub(r"\D", "", match.group(1))) > MAX_NUMBER_DIGITS:
        return None
    if match.group(2) is not None and abs(int(match.group(2))) > 100:
        return None
    try:
        return Fraction(text)
    except (ValueError, ZeroDivisionError):
        return None


def number_key(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def answer_key(answer: Any) -> str:
    """One canonical key per answer: numbers by value ('0.5', '1/2' and '\\frac{1}{2}' share '1/2'),
    text lower-cased with spaces collapsed and a final full stop dropped."""
    text = str(answer)[:2_000]
    return _remembered_key(text) if len(text) <= KEY_CACHE_CHARS else _text_key(text)


KEY_CACHE_CHARS = 256
"""Keys of texts up to this long are remembered: the probes ask for the keys of the same candidates,
answers and moves many times over (a hundred thousand calls in one validation), and nearly all are short.
Longer texts (guest output, up to 2,000 characters) are not kept, so the cache stays a few MB."""


def _text_key(text: str) -> str:
    fast = _integer_key(text)
    if fast is not None:
        return fast
    inner = _unwrap(text) if ("\\" in text or "<" in text) else text.strip()
    value = parse_number(inner) if any(c.isdigit() for c in inner) else None
    if value is not None:
        return number_key(value)
    return " ".join(inner.lower().split()).removesuffix(".").strip()


_remembered_key = functools.lru_cache(maxsize=1 << 15)(_text_key)


def _integer_key(text: str) -> str | None:
    """The key of a plain integer or a fraction of two integers, without building Fractions (hot path)."""
    body = text[1:] if text[:1] == "-" else text
    if body.isdigit() and len(body) <= MAX_NUMBER_DIGITS:
        return str(int(text))
    top, slash, bottom = text.partition("/")
    top_body = top[1:] if top[:1] == "-" else top
    if slash and top_body.isdigit() and bottom.isdigit() and len(top) + len(bottom) <= MAX_NUMBER_DIGITS:
        numerator, denominator = int(top), int(bottom)
        if denominator == 0:
            return None
        divisor = math.gcd(numerator, denominator)
        numerator, denominator = numerator // divisor, denominator // divisor
        return str(numerator) if denominator == 1 else f"{numerator}/{denominator}"
    return None


def _unwrap(text: str) -> str:
    """The content of an action: ``\\boxed{x}`` or ``<answer>x</answer>`` -> ``x``."""
    stripped = text.strip()
    if BOXED_PREFIX in stripped:
        spans = boxed_spans(stripped)
        if spans:
            start, end = max(spans)
            return stripped[start:end].strip()
    match = None
    for match in ANSWER_PATTERN.finditer(stripped):
        pass
    return match.group(1).strip() if match else stripped


def action_content(action: str) -> str:
    """What an action says, without its ``\\boxed{}`` or ``<answer>`` wrapper."""
    return _unwrap(action)


# ---------------------------------------------------------------------- spelled numbers
def number_words(value: int) -> str | None:
    """English words for 0 .. 999,999,999 ('four hundred twenty-one')."""
    if not 0 <= value < 1_000_000_000:
        return None
    if value < 20:
        return _SMALL[value]
    if value < 100:
        tens, ones = divmod(value, 10)
        return _TENS[tens] + (f"-{_SMALL[ones]}" if ones else "")
    if value < 1000:
        hundreds, rest = divmod(value, 100)
        return f"{_SMALL[hundreds]} hundred" + (f" {number_words(rest)}" if rest else "")
    for scale, size in (("million", 1_000_000), ("thousand", 1_000)):
        if value >= size:
            high, rest = divmod(value, size)
            return f"{number_words(high)} {scale}" + (f" {number_words(rest)}" if rest else "")
    return None


def parse_number_words(text: str) -> int | None:
    """The value of a spelled number ('minus forty-two', 'four hundred and twenty one'); None if not one."""
    words = [w for w in re.split(r"[\s-]+", text.lower().strip()) if w and w != "and"]
    if not words:
        return None
    sign = 1
    if words[0] in ("minus", "negative"):
        sign, words = -1, words[1:]
    total = current = 0
    seen = False
    for word in words[:20]:
        if word in _WORD_VALUES:
            current += _WORD_VALUES[word]
            seen = True
        elif word == "hundred" and seen:
            current *= 100
        elif word in _SCALES and seen:
            total += current * _SCALES[word]
            current = 0
        else:
            return None
    return sign * (total + current) if seen else None


def _spelled(text: str) -> list[tuple[str, int, int]]:
    """(words, value, position) of every spelled number; a run of single digits ("seven two four") is read
    digit by digit, as such runs are meant."""
    found = []
    for match in _SPELLED.finditer(text):
        words = match.group().strip(" -")
        parts = [w for w in re.split(r"[\s-]+", words.lower()) if w and w != "and"]
        if len(parts) >= 2 and all(w in _SMALL[:10] for w in parts):
            found.append((words, int("".join(str(_SMALL.index(w)) for w in parts[:MAX_NUMBER_DIGITS])), match.start()))
            continue
        value = parse_number_words(words) if words else None
        if value is not None:
            found.append((words, value, match.start()))
    return found


def spelled_numbers(text: str) -> list[tuple[str, int]]:
    """(the words as written, their value) for every spelled number in ``text``."""
    return [(words, value) for words, value, _ in _spelled(_clip(text))]


# ---------------------------------------------------------------------- candidates a copying agent could play
class Candidate(NamedTuple):
    """Something a copying agent could play, with where it came from.

    ``kind`` groups candidates a policy picks among (numbers, letters, words, ...); ``index`` and
    ``from_end`` are its position among the candidates of its kind; ``anchor`` is the word just before it
    (so that "the number after 'target'" is a policy too). A named tuple: texts yield hundreds of these.
    """

    text: str
    kind: str
    index: int
    from_end: int
    anchor: str | None
    key: str


_TEXT_KINDS = frozenset({"letter", "word", "reversed_word", "phrase"})


def _with_positions(kind: str, items: list[tuple[str, str | None]]) -> list[Candidate]:
    items = items[:MAX_CANDIDATES_PER_KIND]
    count = len(items)
    # Words never parse as numbers, so the number parser is skipped for them; and a word (or two joined by
    # one space) has no whitespace to collapse and no full stop to drop, so its key is its lower case.
    key = str.lower if kind in _TEXT_KINDS else answer_key
    return [Candidate(text, kind, i, count - 1 - i, anchor, key(text)) for i, (text, anchor) in enumerate(items)]


class _Anchors:
    """The word just before any position of a text, found by bisecting the words' end positions."""

    def __init__(self, words: list[re.Match[str]]) -> None:
        self._ends = [m.end() for m in words]
        self._words = [m.group().lower() for m in words]

    def before(self, position: int) -> str | None:
        index = bisect.bisect_right(self._ends, position) - 1
        return self._words[index] if index >= 0 and position - self._ends[index] <= 40 else None


def text_candidates(text: str, *, reversed_words: bool = True) -> list[Candidate]:
    """Every candidate a copying agent could lift from ``text`` (bounded, in order of appearance)."""
    text = _clip(text)
    word_matches = list(_WORD.finditer(text))
    anchors = _Anchors(word_matches)
    numbers = [(m.group(), anchors.before(m.start())) for m in _NUMBER.finditer(text)]
    candidates: list[Candidate] = _with_positions("number", numbers)
    fractions = [(f"{m.group(1)}/{m.group(2)}", anchors.before(m.start()))
                 for m in list(_FRACTION.finditer(text)) + list(_LATEX_FRACTION.finditer(text))]
    candidates += _with_positions("fraction", fractions)
    integers = [n for n, _ in numbers if re.fullmatch(r"-?\d{1,12}", n)]
    pairs = [(f"{a}/{b}", None) for a, b in itertools.pairwise(integers) if b.lstrip("-") not in ("0", "")]
    candidates += _with_positions("number_pair", pairs)
    rounded = []
    for number, anchor in numbers:
        places = len(number.split(".")[1]) if "." in number else 0
        if 2 <= places <= 6 and len(number) <= 20:
            value = parse_number(number)
            if value is not None:
                half = Fraction(1, 2 * 10**places)
                simple = simplest_fraction(value - half, value + half)
                if simple is not None and 1 < simple.denominator <= 1000 and simple != value:
                    rounded.append((number_key(simple), anchor))
    candidates += _with_positions("rounded_decimal", rounded)
    reversed_numbers = [(n.lstrip("-")[::-1], a) for n, a in numbers if len(n.lstrip("-")) >= 2
                        and n.lstrip("-").isdigit() and n.lstrip("-")[::-1] != n.lstrip("-")]
    candidates += _with_positions("reversed_number", reversed_numbers)
    spelled = [(str(value), anchors.before(start)) for _, value, start in _spelled(text)]
    candidates += _with_positions("spelled_number", spelled)
    words = [(m.group(), anchors.before(m.start())) for m in word_matches]
    candidates += _with_positions("letter", [(w, a) for w, a in words if len(w) == 1 and w.isupper()])
    long_words = [(w, a) for w, a in words if len(w) >= 2]
    candidates += _with_positions("word", long_words)
    if reversed_words:
        candidates += _with_positions("reversed_word", [(w[::-1], a) for w, a in long_words if len(w) >= 3
                                                        and w[::-1].lower() != w.lower()])
    plain = [w for w, _ in long_words]
    candidates += _with_positions("phrase", [(" ".join(plain[i:i + 2]), None) for i in range(len(plain) - 1)])
    codes = [(m.group(), anchors.before(m.start())) for m in _CODE.finditer(text)
             if not m.group().isalpha() and parse_number(m.group()) is None]
    candidates += _with_positions("code", codes)
    tuples = [(m.group(), anchors.before(m.start())) for m in _TUPLE.finditer(text)]
    candidates += _with_positions("tuple", tuples)
    quoted = [(m.group(1) or m.group(2), anchors.before(m.start())) for m in _QUOTED.finditer(text)]
    candidates += _with_positions("quoted", quoted)
    boxes = [(text[start:end], None) for start, end in boxed_spans(text) if end - start <= 200]
    candidates += _with_positions("boxed", boxes)
    return candidates


def simplest_fraction(low: Fraction, high: Fraction) -> Fraction | None:
    """The fraction with the smallest denominator in [low, high] (what a value rounded from it came from)."""
    if low > high:
        return None
    if low <= 0 <= high:
        return Fraction(0)
    if high < 0:
        found = simplest_fraction(-high, -low)
        return -found if found is not None else None
    # One continued-fraction step per call: the recursion is as deep as the interval is narrow, about
    # 2.5 levels per decimal place for the few-place decimals this is used on.
    whole = low.numerator // low.denominator
    if whole == low:
        return Fraction(whole)
    if whole + 1 <= high:
        return Fraction(whole + 1)
    inner = simplest_fraction(1 / (high - whole), 1 / (low - whole))
    return whole + 1 / inner if inner else None


def squeeze(text: str) -> str:
    """Lower-case letters and digits only: the form in which move sequences are compared."""
    return re.sub(r"[^0-9a-z]+", "", text.lower())
