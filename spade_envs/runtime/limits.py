"""Per-call limits every backend enforces as far as it can (see each backend's docstring).

A call's time limit is a budget of *work*, not of seconds on whatever clock the machine has. The
designer is trained on the validator's verdicts, so a verdict that changed with the load of the node it
ran on would be a noisy reward, and would reject good environments on a busy machine. The WebAssembly
sandbox therefore counts the instructions the guest executes (wasmtime's fuel): ``call_timeout_s`` is
converted into an instruction budget at ``REFERENCE_INSTRUCTIONS_PER_S``, the same on every machine and
under any load. The wall clock remains as a backstop only (``backstop_s``), with a wide margin: it fires
for a guest that is stuck where instructions are not counted, or on a machine many times slower than
the reference, and its finding says so. The ``process`` and ``inprocess`` backends cannot count guest
instructions and use ``call_timeout_s`` as wall-clock time.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

REFERENCE_INSTRUCTIONS_PER_S = 10_000_000_000
"""Guest wasm instructions one reference second stands for: what the bundled environments execute per
second on the project's 2-core reference VM (9.2-11.9 x 10^9, measured on each of them and on a tight loop;
``benchmarks/guest_cost_bench.py`` counts instructions per request)."""
MAX_CALL_INSTRUCTIONS = 1 << 62
"""wasmtime's fuel counter is a 64-bit integer; budgets are capped well inside it."""


@dataclass(frozen=True)
class ExecutionLimits:
    """Resource limits for one call into an environment.

    The defaults allow a generous puzzle generator (seconds of pure Python) while stopping runaway
    loops long before a training step would stall.
    """

    call_timeout_s: float = 10.0
    """The work one reset/step/solution call may do, in reference seconds (0: no limit). The sandbox
    counts it as ``call_timeout_s * REFERENCE_INSTRUCTIONS_PER_S`` guest instructions, whatever the
    machine's speed or load; the other backends time it on the wall clock."""
    memory_mb: int = 256
    """Memory cap for the environment (sandboxed backends)."""
    max_output_bytes: int = 64 * 1024
    """How much of the environment's printed output is kept."""
    max_reply_bytes: int = 1 << 20
    """Largest reply accepted from a sandboxed environment."""
    backstop_factor: float = 8.0
    """The wall-clock backstop of a call that counts instructions: this many times ``call_timeout_s``
    (at least ``backstop_floor_s``), so that only a machine many times slower than the reference, or a
    guest stuck where instructions are not counted, ever reaches it."""
    backstop_floor_s: float = 30.0

    def __post_init__(self) -> None:
        if not (math.isfinite(self.call_timeout_s) and self.call_timeout_s >= 0):
            raise ValueError(f"call_timeout_s must be a finite number of seconds (0 for no limit), "
                             f"got {self.call_timeout_s}")
        for name in ("memory_mb", "max_reply_bytes"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, got {getattr(self, name)}")
        if self.max_output_bytes < 0:
            raise ValueError(f"max_output_bytes must be 0 or more, got {self.max_output_bytes}")
        if not (math.isfinite(self.backstop_factor) and self.backstop_factor >= 1):
            raise ValueError(f"backstop_factor must be at least 1, got {self.backstop_factor}")
        if not (math.isfinite(self.backstop_floor_s) and self.backstop_floor_s > 0):
            raise ValueError(f"backstop_floor_s must be a positive number of seconds, got {self.backstop_floor_s}")

    @property
    def call_instructions(self) -> int | None:
        """The instruction budget of one call (None: no limit)."""
        if self.call_timeout_s <= 0:
            return None
        return min(MAX_CALL_INSTRUCTIONS, max(1, int(self.call_timeout_s * REFERENCE_INSTRUCTIONS_PER_S)))

    @property
    def backstop_s(self) -> float:
        """Wall-clock seconds after which a call that counts instructions is stopped anyway."""
        if self.call_timeout_s <= 0:
            return 3600.0
        return max(self.backstop_floor_s, self.backstop_factor * self.call_timeout_s)


def work_seconds(instructions: int | None, wall_seconds: float) -> float:
    """How long a call took, in reference seconds of work where its instructions were counted.

    The checker sizes its batches (and judges slow steps) by this, so that with the sandbox the batches,
    and so the verdicts, are the same on every machine and under any load; a backend that cannot count
    instructions reports ``None`` and its wall-clock time is used.
    """
    if instructions is None:
        return wall_seconds
    return instructions / REFERENCE_INSTRUCTIONS_PER_S
