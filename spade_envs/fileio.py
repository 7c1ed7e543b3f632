"""Atomic file writes: a reader (or a crash) never sees half a file."""

from __future__ import annotations

import contextlib
import errno
import os
import tempfile
from pathlib import Path


def write_atomically(path: Path, data: str | bytes) -> None:
    """Write ``data`` to a temporary file beside ``path`` and rename it over ``path``.

    The temporary name includes the process id so that concurrent writers never share one. When the
    write fails (a full disk, a directory in the way), the temporary file is removed: a failed write
    leaves what was there before and nothing else.
    """
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        if isinstance(data, str):
            tmp.write_text(data, encoding="utf-8")
        else:
            tmp.write_bytes(data)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


def check_writable_directory(directory: Path) -> None:
    """Raise ``OSError`` unless a file can be created in ``directory``, or in the nearest existing
    directory above it when it does not exist yet (where it would be created).

    Commands call this before hours of work whose result goes there. Permission bits cannot answer
    the question (root ignores them, a read-only mount overrides them), so it creates an empty file
    and removes it again.
    """
    existing = directory
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(existing))
    descriptor, name = tempfile.mkstemp(prefix=".spade-write-probe-", dir=existing)
    os.close(descriptor)
    os.unlink(name)
