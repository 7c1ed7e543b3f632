"""Atomic file writes: a reader (or a crash) never sees half a file."""

from __future__ import annotations

import contextlib
import errno
import os
import tempfile
from collections.abc import Callable
from pathlib import Path


def write_atomically(path: Path, data: str | bytes) -> None:
    """Write ``data`` to a temporary file beside ``path`` and rename it over ``path``.

    The temporary name includes the process id so that concurrent writers never share one. When the
    write fails (a full disk, a directory in the way), the temporary file is removed: a failed write
    leaves what was there before and nothing else.
    """
    write_through_temporary(path, lambda tmp: tmp.write_text(data, encoding="utf-8") if isinstance(data, str)
                            else tmp.write_bytes(data))


def write_through_temporary(path: Path, write: Callable[[Path], object]) -> None:
    """Have ``write`` write a temporary file beside ``path`` (same suffix, for writers that go by it, as
    matplotlib does), then rename it over ``path``; on failure the temporary file is removed."""
    tmp = path.with_name(f".{path.stem}.{os.getpid()}.tmp{path.suffix}")
    try:
        write(tmp)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


def append_whole(path: Path, data: bytes, *, fsync: bool = False) -> None:
    """Append ``data`` (whole lines) to ``path``, whole or not at all: a write the disk refuses part of is
    cut back off, and a file whose last line was cut short by a kill gets a newline first, so that the
    new lines stay readable. Unbuffered, so nothing is left to flush after a refusal."""
    descriptor = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644)  # read: its last byte
    try:
        size = os.fstat(descriptor).st_size
        if size and os.pread(descriptor, 1, size - 1) != b"\n":
            data = b"\n" + data
        try:
            if os.write(descriptor, data) != len(data):  # only a full disk writes part of a regular file
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
            if fsync:
                os.fsync(descriptor)
        except OSError:
            os.ftruncate(descriptor, size)
            raise
    finally:
        os.close(descriptor)


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


DISK_ERRNOS = (errno.ENOSPC, errno.EDQUOT, errno.EROFS)
"""The disk refusing a write: full, over quota, read-only."""
DISK_MESSAGES = (*(os.strerror(number) for number in DISK_ERRNOS), "os error 28", "database or disk is full",
                 "attempt to write a readonly database")
"""How the libraries the toolkit writes through say the same: safetensors raises its own error with the
system's text in it, SQLite its own words."""


def disk_refused(error: BaseException) -> str | None:
    """Why ``error`` is the disk refusing a write, in words (None: it is something else)."""
    if isinstance(error, OSError) and error.errno in DISK_ERRNOS:
        return error.strerror or os.strerror(error.errno or 0)
    text = str(error)
    return next((message for message in DISK_MESSAGES if message in text), None)
