"""Bounded capture of what environment code prints (host-side backends; the wasm guest has its own)."""

from __future__ import annotations

import io


class BoundedWriter(io.StringIO):
    """Keeps the first ``limit`` characters written and silently drops the rest.

    An environment that prints in a loop must not be able to fill the host's memory or a log.
    """

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit

    def write(self, text: str) -> int:
        room = self.limit - self.tell()
        if room > 0:
            super().write(str(text)[:room])
        return len(text)

    def take(self) -> str:
        """Everything captured since the last call, then start afresh."""
        text = self.getvalue()
        self.seek(0)
        self.truncate()
        return text
