"""What every command of the toolkit does the same way: one-line usage errors and exit codes.

A user mistake (a bad option, a missing file) ends with one line on stderr, ``PROG: error: ...``, and
exit code 2, never a traceback. Commands raise ``UsageError``; ``run_command`` turns it into that line.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable

EXIT_OK, EXIT_INVALID, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130


class UsageError(Exception):
    """A mistake in how the command was called or in its input: exit 2 with one line."""


class OneLineParser(argparse.ArgumentParser):
    """argparse, but a parse error is a ``UsageError`` (one line) instead of usage text plus exit."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"{message} (see {self.prog} --help)")


def run_command(prog: str, body: Callable[[], int], *, interrupted: str = "interrupted") -> int:
    """Run a command's body, mapping usage errors and Ctrl-C to their one-line messages and exit codes."""
    try:
        return body()
    except UsageError as error:
        sys.stderr.write(f"{prog}: error: {error}\n")
        return EXIT_USAGE
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
