"""Per-call limits every backend enforces as far as it can (see each backend's docstring)."""

from __future__ import annotations

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
