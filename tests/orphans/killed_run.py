"""``spade-train`` killed with SIGKILL at one named point of one iteration (for ``tests/test_resume.py``).

    python tests/orphans/killed_run.py POINT STEP -- spade-train arguments...

A kill is not an exception: no ``finally`` runs, no file is closed, nothing is flushed but what the code
already wrote. So the point is reached by wrapping the real function and killing the process itself
right after it (or, for ``checkpoint_swap``, between the two renames that swap a checkpoint in):

- ``memory``: the iteration's memory rows are committed; its records and checkpoint are not written;
- ``records``: its metrics, timings and attempts are appended too; its checkpoint is not saved;
- ``checkpoint_swap``: the old checkpoint is renamed to ``previous``, the new one not yet to ``latest``;
- ``warmup``: warm-up step STEP (counted from 0 in the warm-up's first round) is taken.
"""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

POINTS = ("memory", "records", "checkpoint_swap", "warmup")


def _die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def arm(point: str, step: int) -> None:
    """Kill this process when ``point`` of iteration ``step`` is reached."""
    from spade_train.loop import iteration
    from spade_train.run.directory import RunDirectory

    if point == "memory":
        real_remember = iteration.remember

        def remember(memory, summaries, *args, **kwargs):
            summaries = list(summaries)
            real_remember(memory, summaries, *args, **kwargs)
            if summaries and summaries[0].step == step:
                _die()

        iteration.remember = remember
    elif point == "records":
        real_record = RunDirectory.record

        def record(self, result, extra=None):
            row = real_record(self, result, extra)
            if result.step == step:
                _die()
            return row

        RunDirectory.record = record
    elif point == "checkpoint_swap":
        real_rename = Path.rename

        def rename(self, target):
            if self.name == f".staging-{step}":
                _die()
            return real_rename(self, target)

        Path.rename = rename
    elif point == "warmup":
        from spade_train.backends.embedded import warmup

        real_steps = warmup.supervised_steps

        def supervised_steps(*args, on_step=None, **kwargs):
            def step_done(index, loss):
                if on_step is not None:
                    on_step(index, loss)
                if index == step:
                    _die()

            return real_steps(*args, on_step=step_done, **kwargs)

        warmup.supervised_steps = supervised_steps
    else:
        raise SystemExit(f"unknown kill point {point!r}; choose one of {', '.join(POINTS)}")


if __name__ == "__main__":
    point, step, separator, *argv = sys.argv[1:]
    assert separator == "--", "usage: killed_run.py POINT STEP -- spade-train arguments"
    arm(point, int(step))
    from spade_train.cli import main

    sys.exit(main(argv))
