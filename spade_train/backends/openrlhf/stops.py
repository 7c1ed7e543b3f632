"""Why an OpenRLHF run stops on purpose: the errors that leave the executor's fault barrier.

The barrier (``executor.py``) turns every failure of a sample into a dropped placeholder, so that one bad
environment or one slow call never ends a job that trains for days. A failure that every later sample
will share is different: once the shared-state actor is gone for good (Ray used up its restarts, or it
was killed), every sample faults in no time, dynamic filtering swaps each dropped group for a new row,
and the run burns through its data training nothing. Such a failure stops the run instead: it leaves
``execute``, OpenRLHF's ``ray.get`` on the rollout raises it, and the driver (``driver.py``) ends the job
with one line naming the cause and the checkpoint to resume from.
"""

from __future__ import annotations

from spade_envs.errors import SpadeError


class RunStopped(SpadeError):
    """A failure every later sample would share: the run stops rather than train on nothing."""

    exit_code = 1


class StateLost(RunStopped):
    """The shared-state actor is gone and Ray will not bring it back."""


def stop_cause(error: BaseException) -> RunStopped | None:
    """The ``RunStopped`` behind ``error``, as raised where it happened, or None.

    Ray hands a remote error on as a ``RayTaskError`` that is also an instance of the original class but
    prints the remote traceback; the original is its ``cause``. Python's own chain (``__cause__``,
    ``__context__``) is followed too, as far as OpenRLHF's trainer wrapped it.
    """
    seen: set[int] = set()
    found: RunStopped | None = None
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, RunStopped):
            found = current
        cause = getattr(current, "cause", None)
        current = cause if isinstance(cause, BaseException) else (current.__cause__ or current.__context__)
    return found
