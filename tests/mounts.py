"""Directories the kernel refuses writes to: read-only ones, and small file systems that fill up.

``chmod 0o555`` is enough for an ordinary user. Root ignores permission bits, so under root (containers,
CI images) a directory is also bind-mounted read-only onto itself, where the kernel refuses every write
whoever asks (EROFS). A full disk is a small tmpfs mounted for the test (ENOSPC). Where mounting is not
allowed, the test is skipped. Import the fixtures into a test module:
``from tests.mounts import read_only_dir, small_disk``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


def can_create_file(directory: Path) -> bool:
    probe = directory / ".probe"
    try:
        probe.write_bytes(b"")
    except OSError:
        return False
    probe.unlink()
    return True


def _mount(*args: str) -> bool:
    mount = shutil.which("mount")
    return mount is not None and subprocess.run([mount, *args], capture_output=True, timeout=30,
                                                check=False).returncode == 0


def _unmount(directory: Path) -> None:
    umount = shutil.which("umount")
    if umount is not None:
        subprocess.run([umount, "-l", str(directory)], capture_output=True, timeout=30, check=False)


@contextmanager
def read_only(directory: Path) -> Iterator[Path]:
    """``directory`` (and what it holds) made read-only for the block, then writable again."""
    modes = {path: path.stat().st_mode for path in (directory, *directory.rglob("*")) if path.is_dir()}
    for path in modes:
        path.chmod(0o555)
    mounted = False
    try:
        if can_create_file(directory):
            if os.geteuid() != 0:
                pytest.fail(f"{directory} is mode 0o555, yet this user can create files in it")
            mounted = _mount("--bind", str(directory), str(directory))
            if mounted and not _mount("-o", "remount,ro,bind", str(directory)):
                _unmount(directory)
                mounted = False
            if not mounted or can_create_file(directory):
                pytest.skip("running as root, where chmod 0o555 does not stop writes, and a read-only bind "
                            "mount is not allowed here")
        yield directory
    finally:
        if mounted:
            _unmount(directory)
        for path, mode in modes.items():
            path.chmod(mode)  # so that pytest can clean tmp_path up


@pytest.fixture
def read_only_dir(tmp_path: Path) -> Iterator[Path]:
    """An empty directory in which creating a file fails (EACCES or EROFS)."""
    directory = tmp_path / "read-only"
    directory.mkdir()
    with read_only(directory):
        yield directory


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Callable[[int], Path]]:
    """``small_disk(size)``: an empty tmpfs of ``size`` bytes (the same directory each call, resized:
    to free space after a test filled it, call it again with a larger size)."""
    directory = tmp_path / "small-disk"
    directory.mkdir()
    mounted = False

    def mount(size: int) -> Path:
        nonlocal mounted
        if not mounted:
            if not _mount("-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(directory)):
                pytest.skip("mounting a small tmpfs is not allowed here")
            mounted = True
        elif not _mount("-o", f"remount,size={size}", str(directory)):
            pytest.fail(f"could not resize the tmpfs at {directory} to {size} bytes")
        return directory

    try:
        yield mount
    finally:
        if mounted:
            _unmount(directory)
