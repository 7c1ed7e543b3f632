"""Reading the environment's code out of a designer's reply.

Designer models wrap their code in many ways: a ```python fence or a bare ``` one, several blocks (a
draft, the final version, a usage example), reasoning in ``<think>`` tags first, prose before and
after, Windows line endings, tabs, a final fence cut off by the token limit, or no fence at all. And
environments legitimately contain lines such as ``` inside their own strings (a help text showing the
action format), which a naive fence matcher takes for the end of the block.

Every reply that a person would read as "here is the environment" should yield its code, because a
parse failure costs a whole generation while a broken module still earns a useful repair turn from
the checker. So the parser prefers returning code that may not compile over returning nothing, and
returns nothing (with a reason) only when there is no class whose name ends in ``Env`` at all.

Choice rule: among the candidate blocks that define a public ``*Env`` class, take the last complete
one (terminated and parsing), else the last terminated one, else the last one. Reasoning is searched
only when the answer after it has no candidate (for instance when the model ran out of tokens).

A reply is model output, so reading it is bounded like the checker's host code
(``spade_envs.checks.static``): a reply longer than ``MAX_REPLY_CHARS`` is refused before any work, and
Python's parser, which raises ``RecursionError`` or ``MemoryError`` on code nested a few thousand levels
deep (a constant of 4,000 chained ``+ 1`` terms, a long run of unary minus), is treated as "does not
parse", never as a crash: ``parse_environment_response`` returns a result for every string.
"""

from __future__ import annotations

import ast
import re
import textwrap
import tokenize
from dataclasses import dataclass

from spade_envs.contract.episode import env_class_candidates, the_env_class
from spade_envs.syntax import parse

_REASONING_TAGS = r"think|thinking|reasoning"
_CLOSE_REASONING = re.compile(rf"</(?:{_REASONING_TAGS})\s*>", re.IGNORECASE)
_OPEN_REASONING = re.compile(rf"<(?:{_REASONING_TAGS})\s*>", re.IGNORECASE)
_OPEN_FENCE = re.compile(r"^[ \t]*(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^`\n]*?)[ \t]*$")
_CLOSE_FENCE = re.compile(r"^[ \t]*(?P<fence>`{3,}|~{3,})[ \t]*$")
_CODE_START = re.compile(r"^(?:import[ \t]+\w|from[ \t]+[\w.]+[ \t]+import[ \t]|class[ \t]+\w+)")
_ENV_CLASS = re.compile(r"^class[ \t]+(?P<name>[A-Za-z][A-Za-z0-9_]*Env)\b", re.MULTILINE)
_CODE_LINE = re.compile(
    r"^(?:[ \t]+\S|(?:def|class|import|from|if|elif|else|for|while|try|except|finally|with|return|"
    r"raise|async|await)\b|@|#|[A-Za-z_][\w.]*\s*(?:=|\())"
)
_MAX_TRIMS = 20
MAX_REPLY_CHARS = 400_000
"""Longest reply read at all: twice the checker's source limit (200,000 bytes), far above any token budget."""
_PARSE_ERRORS = (SyntaxError, ValueError, RecursionError, MemoryError)
"""What ``ast.parse`` raises on model-written text: bad syntax or null bytes, or nesting too deep to build."""


@dataclass(frozen=True)
class ParseResult:
    """The extracted module (or None), the ``*Env`` class it defines and how it was found or why not.

    ``class_name`` follows the contract (``spade_envs.contract.episode``): the module's only public
    ``*Env`` class, or None when it defines several (its code is still returned, for the checker's
    feedback)."""

    code: str | None
    reason: str
    class_name: str | None = None
    blocks: int = 0
    """Fenced code blocks seen in the reply (all of them, any language)."""

    @property
    def ok(self) -> bool:
        return self.code is not None


@dataclass(frozen=True)
class _Candidate:
    code: str
    class_name: str | None
    """The environment class; None when the module defines several candidates (the checker says so)."""
    candidates: tuple[str, ...]
    compiles: bool
    terminated: bool
    origin: str


def normalise_newlines(text: str) -> str:
    """CRLF and lone CR become LF; a leading byte-order mark is dropped."""
    return text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")


def strip_reasoning(text: str) -> str:
    """The answer part of a reply: what follows the last ``</think>`` (or ``</thinking>``).

    A reply with only a closing tag is handled too (chat templates often open the tag in the prompt).
    An opening tag that is never closed means the reply ran out inside its reasoning: the text before it
    is the whole answer (usually nothing).
    """
    text = normalise_newlines(text)
    closes = list(_CLOSE_REASONING.finditer(text))
    if closes:
        return text[closes[-1].end():]
    opening = _OPEN_REASONING.search(text)
    return text[: opening.start()] if opening else text


class _StringTracker:
    """Whether growing prefixes of ``lines[start:]`` end inside a string, as Python's tokenizer reads them.

    A fence line inside a triple-quoted string does not close a block, so each candidate closing fence asks
    whether the code before it ends inside a string. Tokenizing every prefix again made that quadratic (a
    reply with thousands of fence lines inside one open string took minutes to read); one tokenizer is
    advanced through the lines instead, each line read once, and asked about line starts in order.

    The tokenizer, not the parser, so that a syntax error elsewhere in the code does not hide a string. A
    tokenizer error other than an unterminated string (an indentation error) ends the reading: a prefix that
    reaches it does not end inside a string, as a prefix tokenized on its own would not.
    """

    def __init__(self, lines: list[str], start: int) -> None:
        self._lines, self._start, self._next = lines, start, start
        self._tokens = tokenize.generate_tokens(self._readline)
        self._last: tokenize.TokenInfo | None = None
        self._open_from: int | None = None
        """The (1-based) line of a string that never ends."""
        self._finished = False

    def _readline(self) -> str:
        if self._next >= len(self._lines):
            return ""
        self._next += 1
        return self._lines[self._next - 1] + ("\n" if self._next < len(self._lines) else "")

    def ends_inside_string(self, end: int) -> bool:
        """Whether ``lines[start:end]`` ends inside a string; ``end`` never decreases between calls."""
        line = end - self._start + 1  # the 1-based line (of what is read) that the prefix stops before
        while True:
            if self._open_from is not None:
                return self._open_from < line
            last = self._last
            if last is not None and last.end[0] >= line:  # only a string spans lines (or an unclosed one, as
                return last.start[0] < line                # an error token, where a later line ends it)
            if self._finished:
                return False
            try:
                self._last = next(self._tokens)
            except StopIteration:
                self._finished = True
            except tokenize.TokenError as error:
                self._finished = True
                message = str(error.args[0] if error.args else error).lower()
                if "string" in message and len(error.args) > 1:
                    self._open_from = error.args[1][0]
            except (SyntaxError, ValueError, RecursionError, MemoryError):  # IndentationError and friends
                self._finished = True


def _tree(code: str) -> ast.Module | None:
    """The module's syntax tree, or None when it does not parse (nesting too deep counts as not parsing)."""
    try:
        return parse(code)
    except _PARSE_ERRORS:
        return None


def _parses(code: str) -> bool:
    return _tree(code) is not None


def _env_classes(code: str) -> list[str]:
    """The module's candidates for its environment class, by the contract's rule
    (``spade_envs.contract.episode``): public top-level classes whose names end in ``Env``. Code that does
    not parse is searched line by line, so a module the checker will reject still yields its code."""
    tree = _tree(code)
    if tree is None:
        names = [m.group("name") for m in _ENV_CLASS.finditer(code)]
    else:
        names = [node.name for node in tree.body if isinstance(node, ast.ClassDef)]
    return env_class_candidates(names)


def _fix_indentation(code: str) -> str:
    """Repair whitespace that breaks parsing: non-breaking spaces and mixed tabs in indentation.

    Only leading whitespace is touched, and only when the code does not parse as it is, so string
    contents are left alone in all ordinary cases.
    """
    if _parses(code):
        return code

    def relead(text: str, old: str, new: str) -> str:
        return re.sub(r"^[ \t\u00a0]+", lambda m: m.group(0).replace(old, new), text, flags=re.MULTILINE)

    fixed = relead(code, "\u00a0", " ") if "\u00a0" in code else code
    if "\t" in fixed and not _parses(fixed):
        for width in (4, 8):
            attempt = relead(fixed, "\t", " " * width)
            if _parses(attempt):
                return attempt
    return fixed


def _trim_trailing_prose(code: str) -> str:
    """Drop prose after the code ('This environment works by ...') when that is what breaks parsing.

    Cuts only where every remaining line looks like prose, so that genuinely broken code is returned
    whole and the checker can report the real error.
    """
    for _ in range(_MAX_TRIMS):
        try:
            parse(code)
            return code
        except (SyntaxError, ValueError) as error:
            lineno = getattr(error, "lineno", None)
        except (RecursionError, MemoryError):  # too deep to parse: no line to cut at
            return code
        lines = code.split("\n")
        if not lineno or lineno <= 1 or lineno > len(lines):
            return code
        rest = [line for line in lines[lineno - 1:] if line.strip()]
        if any(_CODE_LINE.match(line) for line in rest):
            return code
        shorter = "\n".join(lines[: lineno - 1]).rstrip() + "\n"
        if not _env_classes(shorter):
            return code
        code = shorter
    return code


def _clean(body: str) -> str:
    code = textwrap.dedent(body).strip("\n")
    code = _fix_indentation(code)
    return code.rstrip() + "\n"


@dataclass(frozen=True)
class _Block:
    info: str
    body: str
    terminated: bool


def _fenced_blocks(text: str) -> list[_Block]:
    """Fenced blocks in order. A bare fence line inside a triple-quoted string does not close a block.

    Linear in the reply: each block's lines are matched and tokenized once (``_StringTracker``)."""
    lines = text.split("\n")
    blocks: list[_Block] = []
    index = 0
    while index < len(lines):
        opening = _OPEN_FENCE.match(lines[index])
        if opening is None:
            index += 1
            continue
        fence = opening.group("fence")
        strings = _StringTracker(lines, index + 1)
        first = end = None
        for j in range(index + 1, len(lines)):
            closing = _CLOSE_FENCE.match(lines[j])
            if closing and closing.group("fence")[0] == fence[0] and len(closing.group("fence")) >= len(fence):
                first = j if first is None else first
                if not strings.ends_inside_string(j):
                    end = j
                    break
        if end is None and first is not None and not strings.ends_inside_string(len(lines)):
            end = len(lines)  # every closer sits inside a string: the real closing fence is missing
        if end is None:
            end = first if first is not None else len(lines)
        blocks.append(_Block(info=opening.group("info").strip().lower(), body="\n".join(lines[index + 1:end]),
                             terminated=end < len(lines)))
        index = end + 1
    return blocks


def _unfenced_code(text: str) -> str | None:
    """Code written without a fence: from the first import/class line up to the next fence or the end."""
    lines = text.split("\n")
    start = next((i for i, line in enumerate(lines) if _CODE_START.match(line)), None)
    if start is None:
        return None
    end = next((j for j in range(start + 1, len(lines))
                if _OPEN_FENCE.match(lines[j]) or _CLOSE_FENCE.match(lines[j])), len(lines))
    body = "\n".join(lines[start:end])
    return body if body.strip() else None


def _candidates(text: str) -> tuple[list[_Candidate], int]:
    """Candidate modules in ``text``: its fenced blocks that define an Env class, else unfenced code."""
    blocks = _fenced_blocks(text)
    found: list[_Candidate] = []
    for number, block in enumerate(blocks, start=1):
        if not block.body.strip():
            continue
        code = _clean(block.body)
        if not block.terminated:
            code = _trim_trailing_prose(code)
        names = _env_classes(code)
        if names:
            label = block.info.split()[0].split(":")[0] if block.info else "no language"
            state = "" if block.terminated else ", unterminated"
            found.append(_Candidate(code, the_env_class(names), tuple(names), _parses(code), block.terminated,
                                    f"fenced block {number} of {len(blocks)} ({label}{state})"))
    if not found:
        body = _unfenced_code(text)
        if body is not None:
            code = _trim_trailing_prose(_clean(body))
            names = _env_classes(code)
            if names:
                found.append(_Candidate(code, the_env_class(names), tuple(names), _parses(code), True,
                                        "unfenced code"))
    return found, len(blocks)


def parse_environment_response(response: str | None) -> ParseResult:
    """Find the environment module in a designer's reply; see the module docstring for the rules."""
    if response is None or not response.strip():
        return ParseResult(None, "the response is empty")
    if len(response) > MAX_REPLY_CHARS:
        return ParseResult(None, f"the response has {len(response):,} characters, more than the "
                                 f"{MAX_REPLY_CHARS:,} read; write the environment in one short module")
    text = normalise_newlines(response)
    answer = strip_reasoning(text)
    candidates, blocks = _candidates(answer)
    where = "answer"
    if not candidates and answer != text:
        candidates, blocks = _candidates(text)
        where = "reasoning"
    if not candidates:
        if not answer.strip() and answer != text:
            reason = "the response ended inside its <think> reasoning without an environment"
        elif blocks:
            reason = (f"none of the {blocks} code block(s) defines a public class whose name ends in 'Env'")
        else:
            reason = "no code block and no class whose name ends in 'Env' was found"
        return ParseResult(None, reason, blocks=blocks)
    best = max(enumerate(candidates), key=lambda pair: (pair[1].compiles, pair[1].terminated, pair[0]))[1]
    status = "parses" if best.compiles else "does not parse"
    source = "" if where == "answer" else " inside the reasoning"
    defines = best.class_name or f"several environment classes ({', '.join(best.candidates)})"
    reason = f"{best.origin}{source} defines {defines} ({status}; {len(candidates)} candidate(s))"
    return ParseResult(best.code, reason, class_name=best.class_name, blocks=blocks)


def extract_environment_code(response: str | None) -> str | None:
    """The environment module in a designer's reply, or None (``parse_environment_response`` says why)."""
    return parse_environment_response(response).code
