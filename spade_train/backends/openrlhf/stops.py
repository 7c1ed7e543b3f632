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


def engine_loss(error: BaseException) -> str | None:
    """Why a Ray actor of the job died, if that is what ``error`` is (or wraps), else None.

    OpenRLHF calls its rollout engines (and its model actors) with a ``ray.get`` that has no try, so the
    death of one (host memory exhausted by vLLM and the sandboxes beside it, a native crash) reaches the
    driver as a Ray error with a remote traceback. OpenRLHF 0.11.2 cannot replace a lost engine mid-run (its
    trainer holds the engines' handles from the start), so the run stops, saying which actor died and why;
    ``--resume`` continues from the last checkpoint.
    """
    try:
        from ray.exceptions import OutOfMemoryError, RayActorError
    except ImportError:
        return None
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, OutOfMemoryError):
            return ("Ray's memory monitor killed a worker on a node out of host memory ("
                    + _first_line(current) + "): lower openrlhf.sandbox_memory_gib, or give the nodes more memory")
        if isinstance(current, RayActorError):
            return "a Ray actor of the job died (" + _first_line(current) + ")"
        cause = getattr(current, "cause", None)
        current = cause if isinstance(cause, BaseException) else (current.__cause__ or current.__context__)
    return None


def _first_line(error: BaseException, limit: int = 300) -> str:
    return " ".join(str(error).split())[:limit] or type(error).__name__
