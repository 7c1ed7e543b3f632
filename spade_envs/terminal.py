"""Output for people, the same way in every command: colour only on a terminal, lines that fit it.

- Colour when the stream is a terminal, never when it is a file or a pipe, and never with ``NO_COLOR``
  set to anything but the empty string (https://no-color.org). ``FORCE_COLOR`` and other variables rich
  reads are not consulted: whether to colour is decided here, once, from the stream.
- Width: the terminal's columns on a terminal; elsewhere ``COLUMNS`` if it holds a number, else
  ``DEFAULT_WIDTH``, so a log file reads the same from run to run.
- Wrapping: ``wrap`` breaks at spaces only, never between a figure and the word after it ("3.21 s",
  "12 checks"), and indents continuation lines (a hanging indent), so a wrapped finding still reads as
  one item of a list.
- Rich renders what is shown: text is passed as ``rich.text.Text``, never as markup, so square brackets
  in a check name or in what an environment printed are shown as they are. Text an environment chose
  must still go through ``cliutil.printable`` first: rich does not escape control characters.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import TextIO

from rich.console import Console
from rich.text import Text

DEFAULT_WIDTH = 100
MIN_WIDTH = 40
"""Narrower terminals are treated as this wide (a line then wraps in the terminal itself)."""

STYLES: Mapping[str, str] = {
    "ok": "green",
    "fail": "bold red",
    "warning": "yellow",
    "check": "cyan",
    "muted": "dim",
    "figure": "bold",
    "header": "bold",
    "error": "bold red",
}
"""Roles of text and their rich styles; output code names roles, not colours."""


def is_terminal(stream: object) -> bool:
    try:
        return bool(getattr(stream, "isatty", lambda: False)())
    except (ValueError, OSError):  # a closed stream
        return False


def wants_colour(stream: object, environ: Mapping[str, str] | None = None) -> bool:
    """Colour on a terminal unless ``NO_COLOR`` is set (to anything but "")."""
    environ = os.environ if environ is None else environ
    return is_terminal(stream) and not environ.get("NO_COLOR")


def width_of(stream: object, environ: Mapping[str, str] | None = None) -> int:
    """The columns to fit output into (see the module docstring)."""
    environ = os.environ if environ is None else environ
    if is_terminal(stream):
        try:
            return max(MIN_WIDTH, os.get_terminal_size(stream.fileno()).columns)  # type: ignore[attr-defined]
        except (OSError, ValueError, AttributeError):
            pass
    columns = environ.get("COLUMNS", "")
    return max(MIN_WIDTH, int(columns)) if columns.isdigit() else DEFAULT_WIDTH


class Screen:
    """Where a command writes for people, with what it decided about colour and width."""

    def __init__(self, stream: TextIO, *, colour: bool, width: int) -> None:
        self.stream, self.colour, self.width = stream, colour, width
        self._console = Console(file=stream, width=width, color_system="standard" if colour else None,
                                force_terminal=colour, no_color=not colour, highlight=False, markup=False,
                                emoji=False, legacy_windows=False, _environ={})

    @classmethod
    def of(cls, stream: TextIO, environ: Mapping[str, str] | None = None) -> Screen:
        return cls(stream, colour=wants_colour(stream, environ), width=width_of(stream, environ))

    def line(self, text: Text | str) -> None:
        """Write one line as it is (the caller fitted it to the width), styled if this screen colours."""
        self._console.print(text, soft_wrap=True)  # soft_wrap: rich neither wraps nor crops it

    def lines(self, lines: Iterable[Text | str]) -> None:
        for text in lines:
            self.line(text)

    def wrapped(self, text: Text | str, *, indent: int = 0, hang: int = 2) -> None:
        """Write ``text`` wrapped to the width with a hanging indent (``wrap``)."""
        self.lines(wrap(text if isinstance(text, Text) else Text(text), self.width, indent=indent, hang=hang))

    def block(self, text: str) -> None:
        """Multi-line text (an observation): each line wrapped to the width under its own indentation,
        blank lines kept, so text that fits is shown exactly as it is."""
        for line in text.split("\n"):
            if not line.strip():
                self.line("")
                continue
            indent = len(line) - len(line.lstrip(" "))
            self.lines(wrap(Text(line[indent:]), self.width, indent=indent, hang=0))

    def table(self, header: Sequence[str], rows: Iterable[Sequence[Text | str]]) -> None:
        """Write ``rows`` as aligned columns fitted to the width (``table_lines``)."""
        self.lines(table_lines(header, rows, self.width))
        self.stream.flush()

    def markdown(self, text: str) -> None:
        """A Markdown document: rendered (tables drawn, paragraphs wrapped to the width) on a terminal,
        written as it is elsewhere, so ``> report.md`` keeps the Markdown."""
        if not is_terminal(self.stream):
            self.stream.write(text)
            return
        from rich.markdown import Markdown

        self._console.print(Markdown(text, hyperlinks=False))
        self.stream.flush()


def styled(*pieces: tuple[str, str | None] | str) -> Text:
    """Text from pieces: a string (unstyled) or (string, role in ``STYLES``)."""
    text = Text()
    for piece in pieces:
        if isinstance(piece, str):
            text.append(piece)
        else:
            content, role = piece
            text.append(content, style=STYLES.get(role or "", None))
    return text


_KEEP_TOGETHER = re.compile(r"(?<=\d) (?=[A-Za-z%]+(?:/s|\(s\))?(?:[\s,;:.)\]]|$))")
"""The space between a figure and the word after it (its unit: "3.21 s", "4.2 environments/s", "12
checks"): no line breaks there."""


def wrap(text: Text, width: int, *, indent: int = 0, hang: int = 2) -> list[Text]:
    """``text`` in lines of at most ``width`` cells: the first indented by ``indent`` spaces, the rest by
    ``indent + hang``. Breaks fall at spaces (never inside "3.21 s"); a word longer than a line is cut."""
    protected = _KEEP_TOGETHER.sub("\0", text.plain)  # same length: offsets still index ``text``
    lines: list[Text] = []
    start = end = None  # the span of ``text`` on the line being filled

    def room() -> int:
        return max(1, width - (indent if not lines else indent + hang))

    def flush() -> None:
        nonlocal start, end
        if start is not None and end is not None:
            lines.append(Text(" " * (indent if not lines else indent + hang)) + text[start:end])
        start = end = None

    for match in re.finditer(r"[^ ]+", protected):
        word_start, word_end = match.start(), match.end()
        if start is not None and word_end - start > room():  # the line's own spaces count
            flush()
        while start is None and word_end - word_start > room():  # a word longer than a line: cut it
            start, end = word_start, word_start + room()
            word_start = end
            flush()
        if start is None:
            start = word_start
        end = word_end
    flush()
    return lines or [Text(" " * indent)]


LAST_COLUMN_MIN = 24
"""The last column of a table wraps in what the others leave, if that is at least this many cells."""
GAP = 2


def table_lines(header: Sequence[str], rows: Iterable[Sequence[Text | str]], width: int) -> list[Text]:
    """Rows as aligned columns, no line wider than ``width``.

    Every column but the last is as wide as its widest cell and never wraps; the last wraps in what they
    leave, continuing under itself. When that is under ``LAST_COLUMN_MIN`` cells, each row's last cell
    goes on the lines below the others instead, indented, so nothing is squeezed to a sliver.
    """
    cells = [[cell if isinstance(cell, Text) else Text(cell) for cell in row]
             for row in [[styled((name, "header")) for name in header], *rows] if row]
    if not header:
        cells = cells[1:]
    if not cells:
        return []
    count = max(len(row) for row in cells)
    cells = [row + [Text()] * (count - len(row)) for row in cells]
    widths = [max(row[column].cell_len for row in cells) for column in range(count - 1)]
    fixed = sum(widths) + GAP * (count - 1)
    lines: list[Text] = []
    for row in cells:
        lead = Text()
        for cell, column_width in zip(row[:-1], widths):
            lead += cell + " " * (column_width - cell.cell_len + GAP)
        if width - fixed >= LAST_COLUMN_MIN:
            body = wrap(row[-1], width - fixed, hang=0) if row[-1].plain else [Text()]
            lines.append(lead + body[0])
            lines.extend(Text(" " * fixed) + more for more in body[1:])
        else:
            lines.extend(wrap(lead, width, hang=GAP))
            if row[-1].plain:
                lines.extend(wrap(row[-1], width, indent=2 * GAP, hang=0))
    for line in lines:
        line.rstrip()
    return lines


MIN_RATE_ITEMS = 3
MIN_RATE_SECONDS = 1.0


def rate(count: int, seconds: float, unit: str) -> str | None:
    """"4.2 environments/s", or None when the figure would mean nothing: fewer than ``MIN_RATE_ITEMS``
    items or under ``MIN_RATE_SECONDS`` (one file in 4 ms is not 250 files a second)."""
    if count < MIN_RATE_ITEMS or seconds < MIN_RATE_SECONDS:
        return None
    return f"{count / seconds:.1f} {unit}/s"
