"""The root of the toolkit's errors: what a command reports as one line instead of a traceback.

Every package of the toolkit (the SDK, ``spade_train``, ``spade_eval``) raises subclasses of
``SpadeError`` for problems a person can act on: a configuration key that does not exist, a pool whose
files do not match, a model that cannot be reached, a run whose every model call failed. Their messages
are one line that names the fix. The commands (``spade_envs.cliutil.run_command``) print such an error as
``PROG: error: MESSAGE`` and exit with its ``exit_code``; anything else is a bug and keeps its traceback.
"""

from __future__ import annotations


class SpadeError(Exception):
    """A problem the user can fix, described in one line; the commands exit with ``exit_code``."""

    exit_code: int = 2
    """2: what the command was given cannot be used (the same code as a usage error); subclasses for
    work that started and then failed use 1."""
