"""A directory nothing can be written to, for the tests of output options that point into one.

``chmod 0o555`` is enough for an ordinary user. Root ignores permission bits, so under root (containers,
CI images) the directory is also bind-mounted read-only onto itself, where the kernel refuses every
write whoever asks (EROFS); where mounting is not allowed either, the test is skipped. Import the
fixture into a test module: ``from tests.read_only import read_only_dir``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
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


def _mount_read_only(directory: Path) -> bool:
    mount = shutil.which("mount")
    if mount is None:
        return False
    for args in (["--bind", str(directory), str(directory)], ["-o", "remount,ro,bind", str(directory)]):
        if subprocess.run([mount, *args], capture_output=True, timeout=30, check=False).returncode != 0:
            _unmount(directory)
            return False
    return True


def _unmount(directory: Path) -> None:
    umount = shutil.which("umount")
    if umount is not None:
        subprocess.run([umount, "-l", str(directory)], capture_output=True, timeout=30, check=False)


@pytest.fixture
def read_only_dir(tmp_path: Path) -> Iterator[Path]:
    """An empty directory in which creating a file fails (EACCES or EROFS)."""
    directory = tmp_path / "read-only"
    directory.mkdir()
    directory.chmod(0o555)
    mounted = False
    try:
        if can_create_file(directory):
            if os.geteuid() != 0:
                pytest.fail(f"{directory} is mode 0o555, yet this user can create files in it")
            mounted = _mount_read_only(directory)
            if not mounted or can_create_file(directory):
                pytest.skip("running as root, where chmod 0o555 does not stop writes, and a read-only bind "
                            "mount is not allowed here")
        yield directory
    finally:
        if mounted:
            _unmount(directory)
        directory.chmod(0o755)  # so that pytest can clean tmp_path up
