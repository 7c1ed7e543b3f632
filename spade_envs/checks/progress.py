"""A progress line for long validations: files done, environments per second, time left.

On a terminal it redraws one line in place; elsewhere (a log file, CI) it writes a line now and then, so
logs stay short. Files skipped because a results file already held them count as done, but not toward
the rate, which is shown only once it means something (``spade_envs.terminal.rate``).
"""

from __future__ import annotations

import time
from typing import TextIO

from spade_envs.terminal import rate


def _duration(seconds: float) -> str:
    seconds = int(max(0.0, seconds))
    if seconds >= 3600:
        return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"
    return f"{seconds // 60}m{seconds % 60:02d}s" if seconds >= 60 else f"{seconds}s"


class Progress:
    """``advance()`` once per finished file; ``close()`` ends the line."""

    def __init__(self, total: int, stream: TextIO, *, already_done: int = 0, every_s: float = 10.0,
                 width: int = 30) -> None:
        self.total, self.stream, self.width = total, stream, width
        self.done = already_done
        self._skipped = already_done
        self._started = time.monotonic()
        self._last_line = 0.0
        self._every_s = every_s
        self._live = bool(getattr(stream, "isatty", lambda: False)())
        self.invalid = 0

    @property
    def rate(self) -> float:
        """Environments validated per second in this run."""
        elapsed = time.monotonic() - self._started
        return (self.done - self._skipped) / elapsed if elapsed > 0 else 0.0

    def advance(self, ok: bool = True) -> None:
        self.done += 1
        self.invalid += not ok
        now = time.monotonic()
        if self._live or now - self._last_line >= self._every_s or self.done == self.total:
            self._last_line = now
            self._write()

    def line(self) -> str:
        """The bar, the count, and the rate and time left once they mean something (``terminal.rate``)."""
        filled = int(self.width * self.done / self.total) if self.total else self.width
        bar = "=" * filled + (">" if filled < self.width else "") + " " * max(0, self.width - filled - 1)
        counted = self.done - self._skipped
        shown_rate = rate(counted, time.monotonic() - self._started, "envs")
        left = (self.total - self.done) / self.rate if shown_rate and self.rate > 0 else None
        return (f"[{bar}] {self.done:>{len(str(self.total))}}/{self.total} envs"
                + (f"  {shown_rate}" if shown_rate else "") + f"  {self.invalid} invalid"
                + (f"  eta {_duration(left)}" if left is not None and self.done < self.total else ""))

    def _write(self) -> None:
        if self._live:
            self.stream.write("\r" + self.line())
        else:
            self.stream.write(self.line() + "\n")
        self.stream.flush()

    def close(self) -> None:
        if self._live:
            self.stream.write("\n")
            self.stream.flush()
