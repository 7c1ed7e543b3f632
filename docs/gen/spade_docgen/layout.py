"""How code blocks sit on a page: the wrapping rules that ``docs/stylesheets/extra.css`` relies on.

Code and output blocks wrap at the block's edge instead of scrolling (a validator finding, a long
command line). A wrapped line reads best when its continuation starts under the line's own text, a
little further in, rather than at the block's left edge: in Python a continuation at column 0 would look
like a new statement. CSS cannot measure a line's indentation, so the hook sets it here: every line
element that pymdownx.highlight writes (``line_spans``) gets ``--hang``, its leading spaces plus
``HANG_EXTRA`` columns, plus the width of its line number in a numbered block (the stylesheet puts
the number inline, at the start of the line, instead of Material's floating column).

``CODE_COLUMNS`` is how many columns a block shows without wrapping in the narrowest content column a
desktop window gets (1,280 px and wider, both sidebars open). Code a reader types or reads as code stays
within it (tests/test_docs.py); output is what the tools print and may wrap.
"""

from __future__ import annotations

import html
import re

CODE_COLUMNS = 76
"""Columns of a code block that fit a 1,280 px window without wrapping, with room for the copy button."""
HANG_EXTRA = 4
"""How much further in than the line's own indentation a wrapped line continues."""

_LINE = re.compile(r'<span id="(__span-[0-9-]+)">([^\n]*)')
_TAG = re.compile(r"<[^>]+>")
_LINE_NUMBER = re.compile(r'<span class="linenos"[^>]*></span>')
_NUMBER_TEXT = re.compile(r'<span class="linenos" data-linenos="([^"]*)"></span>')


def indentation(line_html: str) -> int:
    """The leading spaces of one highlighted line, as the reader sees them (tags and line numbers left
    out, entities decoded; a tab counts as four). A diff's ``+`` or ``-`` column counts as a space."""
    text = html.unescape(_TAG.sub("", _LINE_NUMBER.sub("", line_html))).replace("\t", "    ")
    marker = 1 if text[:1] in ("+", "-") and text[1:2] == " " else 0
    rest = text[marker:]
    return marker + len(rest) - len(rest.lstrip(" "))


def hanging_indents(page_html: str) -> str:
    """Every line element of every code block with its ``--hang`` set."""

    def hang(match: re.Match[str]) -> str:
        number = _NUMBER_TEXT.search(match.group(2))
        columns = indentation(match.group(2)) + HANG_EXTRA + (len(number.group(1)) + 1 if number else 0)
        return f'<span id="{match.group(1)}" style="--hang:{columns}ch">{match.group(2)}'

    return _LINE.sub(hang, page_html)
