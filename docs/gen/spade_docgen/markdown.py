"""Small Markdown writers shared by the generators: tables, code fences, docstring clean-up."""

from __future__ import annotations

import inspect
import re
from collections.abc import Sequence

_RST_LITERAL = re.compile(r"``(.+?)``")


_MARKDOWN_SPECIAL = re.compile(r"([\\*_\[\]])")
_LITERAL = re.compile(r"``(.+?)``|`([^`]+)`")


def prose(text: object) -> str:
    """Plain text (a message, a help string, a docstring) as Markdown.

    Text between backticks (RST's double or Markdown's single) stays code; everywhere else characters
    that Markdown would read as emphasis, links or HTML tags are escaped.
    """
    value, parts, position = str(text), [], 0
    for match in _LITERAL.finditer(value):
        parts.append(_escape(value[position:match.start()]))
        parts.append(code(match.group(1) or match.group(2)))
        position = match.end()
    parts.append(_escape(value[position:]))
    return "".join(parts)


def _escape(text: str) -> str:
    escaped = _MARKDOWN_SPECIAL.sub(r"\\\1", text)
    return escaped.replace("<", "&lt;").replace(">", "&gt;")


def cell(text: object) -> str:
    """One table cell: a pipe or a line break would end the cell or the row, so both are neutralised."""
    return " ".join(str(text).split()).replace("|", "\\|")


def code(text: object) -> str:
    """Inline code that survives backticks inside the text (Markdown's longer-fence rule)."""
    value = str(text)
    fence = "``" if "`" in value else "`"
    padding = " " if value.startswith("`") or value.endswith("`") else ""
    return f"{fence}{padding}{value}{padding}{fence}"


def table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    lines = ["| " + " | ".join(headers) + " |", "| " + " | ".join("---" for _ in headers) + " |"]
    lines += ["| " + " | ".join(cell(value) for value in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def fence(body: str, language: str = "text", *, attributes: str = "") -> str:
    """A fenced block long enough not to be closed by backticks inside ``body``."""
    longest = max((len(run) for run in re.findall(r"`+", body)), default=0)
    ticks = "`" * max(3, longest + 1)
    header = f"{ticks}{language}" + (f" {attributes}" if attributes else "")
    return f"{header}\n{body.rstrip()}\n{ticks}\n"


def docstring(obj: object) -> str:
    """An object's own docstring (not one inherited from a base class) as Markdown prose.

    RST ``literals`` become Markdown `literals`.
    """
    own = obj.__dict__.get("__doc__") if isinstance(obj, type) else getattr(obj, "__doc__", None)
    return rst_literals(inspect.cleandoc(own)) if isinstance(own, str) else ""


def rst_literals(text: str) -> str:
    return _RST_LITERAL.sub(lambda m: code(m.group(1)), text)


def first_paragraph(text: str) -> str:
    return " ".join(text.strip().split("\n\n", 1)[0].split())


def first_sentence(text: str) -> str:
    paragraph = first_paragraph(text)
    match = re.match(r"(.+?\.)(\s|$)", paragraph)
    return match.group(1) if match else paragraph
