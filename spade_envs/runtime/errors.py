"""Errors raised when environment code misbehaves, one type per kind of failure.

Callers (the checker, rollouts, the designer's repair loop) branch on the type; the message is one
plain sentence a person or a designer model can act on.
"""

from __future__ import annotations


class EnvRuntimeError(Exception):
    """Base class: something went wrong while running environment code."""


class EnvCodeError(EnvRuntimeError):
    """The environment's own code raised an exception.

    ``traceback`` holds only the environment's frames, with their source lines, so a designer model
    can see exactly which of its lines failed.
    """

    def __init__(self, phase: str, exc_type: str, message: str, traceback: str = "", line: int | None = None):
        self.phase = phase
        self.exc_type = exc_type
        self.exc_message = message
        self.traceback = traceback
        self.line = line
        where = f" at line {line}" if line else ""
        super().__init__(f"{phase} raised {exc_type}{where}: {message}")


class EnvLoadError(EnvRuntimeError):
    """The source could not be turned into an environment class (no *Env class, several, ...)."""


class EnvTimeoutError(EnvRuntimeError):
    """A call into the environment ran past its time limit (in the sandbox: its instruction budget)."""


class EnvBackstopError(EnvTimeoutError):
    """A call was stopped by the wall-clock backstop, not by its instruction budget.

    The sandbox decides time limits by counting guest instructions, so that a verdict does not depend on
    the machine's load; the wall clock only stops a call that is stuck where instructions are not counted,
    or that runs on a machine many times slower than the reference. Findings say which limit fired.
    """


class EnvMemoryError(EnvRuntimeError):
    """The environment exhausted its memory limit."""


class EnvCrashError(EnvRuntimeError):
    """The execution backend itself failed (the sandbox trapped or the child process died)."""


class ContractViolation(EnvRuntimeError):
    """The environment returned something the contract forbids (a 4-tuple, a non-str observation, ...).

    ``check`` is the stable name of the check that was violated.
    """

    def __init__(self, check: str, message: str):
        self.check = check
        super().__init__(message)
