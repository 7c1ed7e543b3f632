"""Per-call limits every backend enforces as far as it can (see each backend's docstring)."""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class ExecutionLimits:
    """Resource limits for one call into an environment.

    The defaults allow a generous puzzle generator (seconds of pure Python) while stopping runaway
    loops long before a training step would stall.
    """

    call_timeout_s: float = 10.0
    """Wall-clock limit for one reset/step/solution call; 0 disables it."""
    memory_mb: int = 256
    """Memory cap for the environment (sandboxed backends)."""
    max_output_bytes: int = 64 * 1024
    """How much of the environment's printed output is kept."""
    max_reply_bytes: int = 1 << 20
    """Largest reply accepted from a sandboxed environment."""

    def __post_init__(self) -> None:
        if not (math.isfinite(self.call_timeout_s) and self.call_timeout_s >= 0):
            raise ValueError(f"call_timeout_s must be a finite number of seconds (0 for no limit), "
                             f"got {self.call_timeout_s}")
        for name in ("memory_mb", "max_reply_bytes"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, got {getattr(self, name)}")
        if self.max_output_bytes < 0:
            raise ValueError(f"max_output_bytes must be 0 or more, got {self.max_output_bytes}")
