"""What every command of the toolkit does the same way: one-line usage errors, exit codes, safe output.

A user mistake (a bad option, a missing file) ends with one line on stderr, ``PROG: error: ...``, and
exit code 2, never a traceback. Commands raise ``UsageError``, libraries raise their own subclasses of
the toolkit's error root ``spade_envs.errors.SpadeError``; ``run_command`` turns either into that line,
with the error's exit code. The disk refusing a write (full, read-only) is one line and exit 1 too.
Option values are checked by the argparse types here (``positive_int``, ``positive_seconds``), and text
an environment chose is escaped with ``printable`` before it is shown to a person.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Callable

from spade_envs.errors import SpadeError
from spade_envs.fileio import disk_refused
from spade_envs.terminal import Screen, styled

EXIT_OK, EXIT_INVALID, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130


class UsageError(SpadeError):
    """A mistake in how the command was called or in its input: exit 2 with one line."""

    exit_code = EXIT_USAGE


class OneLineParser(argparse.ArgumentParser):
    """argparse, but a parse error is a ``UsageError`` (one line) instead of usage text plus exit."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"{message} (see {self.prog} --help)")


def run_command(prog: str, body: Callable[[], int], *, interrupted: str = "interrupted",
                disk_refused_advice: str = "run the command again") -> int:
    """Run a command's body, mapping the toolkit's errors and Ctrl-C to their one-line messages and exit codes.
    ``disk_refused_advice`` ends the line of a write the disk refused: what to do once there is room."""
    try:
        return body()
    except SpadeError as error:
        first_line = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        Screen.of(sys.stderr).line(styled((f"{prog}: error:", "error"), f" {first_line}"))
        return error.exit_code
    except KeyboardInterrupt:
        sys.stderr.write(f"{prog}: {interrupted}\n")
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader went away (``spade-envs list | head``): not an error of ours. Point stdout at
        # devnull so the interpreter's final flush does not raise again on the closed pipe.
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):  # stdout is not a file descriptor (captured, redirected in-process)
            pass
        return EXIT_OK
    except Exception as error:
        refused = disk_refused(error)  # a full or read-only disk is the machine's state, not a bug
        if refused is None:
            raise
        where = f" ({error.filename})" if isinstance(error, OSError) and error.filename else ""
        Screen.of(sys.stderr).line(styled((f"{prog}: error:", "error"), f" {refused}{where}: the disk refused a "
                                          "write; files are written whole or not at all: make room (or make it "
                                          f"writable) and {disk_refused_advice}"))
        return EXIT_INVALID


# ---------------------------------------------------------------------- option values
def positive_int(limit: int) -> Callable[[str], int]:
    """An argparse type: a whole number from 1 to ``limit``; anything else is a one-line usage error."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number from 1 to {limit}, got {text!r}") from None
        if not 1 <= value <= limit:
            raise argparse.ArgumentTypeError(f"must be from 1 to {limit}, got {value}")
        return value

    parse.__name__ = "positive_int"
    return parse


def int_in_range(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high``; anything else is a one-line usage error."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number from {low} to {high}, got {text!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be from {low} to {high}, got {value}")
        return value

    parse.__name__ = "int_in_range"
    return parse


def positive_seconds(limit: float) -> Callable[[str], float]:
    """An argparse type: a number of seconds above 0 and at most ``limit``."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
        if not 0 < value <= limit:  # also rejects nan
            raise argparse.ArgumentTypeError(f"must be more than 0 and at most {limit:g} seconds, got {text}")
        return value

    parse.__name__ = "positive_seconds"
    return parse


# ---------------------------------------------------------------------- text chosen by environments
_UNSAFE_CHARACTERS = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\ufff9-\ufffb\ud800-\udfff]"
)
"""Characters that make a terminal do something instead of showing a glyph: C0 and C1 controls (ANSI
escape sequences start with ESC, \\x1b), carriage return, bidirectional overrides and isolates,
zero-width and invisible formatting characters, and lone surrogates."""


def printable(text: object, *, multiline: bool = False) -> str:
    """``text`` safe to write to a terminal: every unsafe character shown as an escape (``\\x1b``, ``\\u202e``).

    Anything an environment chose (a class name, an exception message, an observation) goes through
    this before it reaches human output, so it can neither move the cursor, rewrite a line nor reorder
    text. Tabs and, with ``multiline``, newlines are kept; a newline is escaped otherwise.
    """
    escaped = _UNSAFE_CHARACTERS.sub(_escape, str(text))
    return escaped if multiline else escaped.replace("\n", "\\n")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
