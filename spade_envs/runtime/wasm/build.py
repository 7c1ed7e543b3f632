"""Build the sandbox image once and compile it once per machine.

Two artifacts live in the cache directory:

* ``guest-<build key>.wasm``: the component built by componentize-py from ``guest_app.py``, the
  guest-side SDK modules and the WIT world. The build key hashes everything that goes into it, so a
  changed guest file or tool version rebuilds it and nothing else does.
* ``guest-<build key>-<engine key>.cwasm``: that component compiled by Cranelift for this machine and
  this wasmtime version and engine configuration. Loading it takes milliseconds; compiling takes
  tens of seconds, which is why it is never done per session.

Concurrent first uses (pytest workers, rollout processes) serialise on a lock file, and every file is
written under a temporary name and renamed, so a reader never sees half an artifact. The lock is
``flock`` where the file system has it; where it does not (network and FUSE mounts raise ENOSYS,
EOPNOTSUPP or ENOLCK) it is a lock file created with ``O_EXCL``, which a process that died holding it
leaves behind: such a file older than ``STALE_LOCK_S`` is taken over.

The engine key includes the CPU's feature flags, not only its architecture: Cranelift compiles for the
features of the machine it runs on, so nodes of one cluster with different CPUs each keep their own
compiled file instead of recompiling over each other's.
"""

from __future__ import annotations

import errno
import fcntl
import hashlib
import importlib.metadata
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import wasmtime
from wasmtime import component

from spade_envs.fileio import write_atomically

PACKAGE_ROOT = Path(__file__).resolve().parents[2]  # the spade_envs package directory
WASM_DIR = Path(__file__).resolve().parent
WORLD = "env-host"

GUEST_MODULES: tuple[str, ...] = (
    "contract/__init__.py",
    "contract/actions.py",
    "contract/allowlist.py",
    "contract/episode.py",
    "contract/fuzz_actions.py",
    "contract/math_verify_shim.py",
    "contract/probes.py",
    "contract/tool_use.py",
    "runtime/guest.py",
    "runtime/guest_modules.py",
    "runtime/programs.py",
)
"""SDK files the guest needs, relative to ``spade_envs/``. They are standard-library only by design."""


class SandboxBuildError(RuntimeError):
    """The sandbox image could not be built or compiled; the message says what to install or fix."""


def default_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "spade-toolkit" / "wasm"


def _componentize_version() -> str:
    try:
        return importlib.metadata.version("componentize-py")
    except importlib.metadata.PackageNotFoundError:
        raise SandboxBuildError(
            "componentize-py is not installed; install it with: pip install 'componentize-py==0.25.1'"
        ) from None


def build_key() -> str:
    """Hash of every input of the component build."""
    digest = hashlib.sha256(_componentize_version().encode())
    for path in [WASM_DIR / "world.wit", WASM_DIR / "guest_app.py"] + [PACKAGE_ROOT / m for m in GUEST_MODULES]:
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


STALE_LOCK_S = 900.0
"""A fallback lock file older than this is left over by a dead process (a build takes about a minute)."""
_NO_FLOCK = {errno.ENOSYS, errno.EOPNOTSUPP, errno.ENOLCK, errno.EINVAL}
"""What ``flock`` raises on file systems that do not support it."""


def cpu_features(cpuinfo: Path = Path("/proc/cpuinfo")) -> str:
    """The CPU's feature flags (``flags`` on x86, ``Features`` on Arm), sorted; "" where unknown."""
    try:
        text = cpuinfo.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""
    for line in text.splitlines():
        name, _, value = line.partition(":")
        if name.strip() in ("flags", "Features"):
            return " ".join(sorted(set(value.split())))
    return ""


def engine_key(config_description: str, features: str | None = None) -> str:
    """Hash of what makes compiled code machine- and configuration-specific (the CPU features included)."""
    version = importlib.metadata.version("wasmtime")
    features = cpu_features() if features is None else features
    digest = hashlib.sha256(
        f"{version}|{config_description}|{sys.platform}|{os.uname().machine}|{features}".encode())
    return digest.hexdigest()[:16]


@contextmanager
def _locked(cache_dir: Path, *, flock: Callable[[object, int], None] = fcntl.flock,
            stale_s: float = STALE_LOCK_S, poll_s: float = 0.2) -> Iterator[None]:
    """Hold the cache directory's lock: ``flock`` on ``.lock``, or the ``.lock.excl`` file where flock
    is not supported (see the module docstring)."""
    cache_dir.mkdir(parents=True, exist_ok=True)
    with open(cache_dir / ".lock", "w") as lock:
        try:
            flock(lock, fcntl.LOCK_EX)
        except OSError as error:
            if error.errno not in _NO_FLOCK:
                raise
        else:
            try:
                yield
            finally:
                flock(lock, fcntl.LOCK_UN)
            return
    with _exclusive_file(cache_dir / ".lock.excl", stale_s=stale_s, poll_s=poll_s):
        yield


@contextmanager
def _exclusive_file(path: Path, *, stale_s: float, poll_s: float) -> Iterator[None]:
    """A lock that needs only atomic ``O_CREAT | O_EXCL`` (which NFS v3+ and FUSE file systems have)."""
    while True:
        try:
            handle = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
        except FileExistsError:
            try:
                age = time.time() - path.stat().st_mtime
            except FileNotFoundError:
                continue  # released between our open and stat: try again at once
            if age > stale_s:
                # Its holder died. Two waiters taking it over at once may both get in; that only duplicates
                # work, since every artifact is written under a temporary name and renamed.
                path.unlink(missing_ok=True)
                continue
            time.sleep(poll_s)
            continue
        try:
            os.write(handle, f"{os.uname().nodename} {os.getpid()}\n".encode())
        finally:
            os.close(handle)
        break
    try:
        yield
    finally:
        path.unlink(missing_ok=True)


def _stage_guest(staging: Path) -> None:
    """Lay out the guest's Python files: the guest modules under empty package ``__init__`` files.

    The real ``spade_envs/__init__.py`` imports pydantic and friends, which the guest neither has nor
    needs; empty package files keep the import paths identical without them.
    """
    for package in ("spade_envs", "spade_envs/runtime"):
        (staging / package).mkdir(parents=True, exist_ok=True)
        (staging / package / "__init__.py").write_text("")
    for module in GUEST_MODULES:
        target = staging / "spade_envs" / module
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(PACKAGE_ROOT / module, target)
    shutil.copyfile(WASM_DIR / "guest_app.py", staging / "guest_app.py")


def build_component(target: Path) -> None:
    """Run componentize-py to build the guest component into ``target``."""
    _componentize_version()
    with tempfile.TemporaryDirectory(prefix="spade-guest-") as tmp:
        staging = Path(tmp)
        _stage_guest(staging)
        output = staging / "guest.wasm"
        command = [
            sys.executable, "-c", "import sys; from componentize_py import script; sys.exit(script())",
            "-d", str(WASM_DIR / "world.wit"), "-w", WORLD, "componentize", "guest_app",
            "-p", str(staging), "-o", str(output),
        ]
        completed = subprocess.run(command, check=False, cwd=staging, capture_output=True, text=True)
        if completed.returncode != 0 or not output.exists():
            tail = (completed.stderr or completed.stdout).strip().splitlines()[-5:]
            raise SandboxBuildError("componentize-py failed to build the sandbox guest: " + " | ".join(tail))
        write_atomically(target, output.read_bytes())


def load_compiled_component(
    engine: wasmtime.Engine, config_description: str, cache_dir: Path | None = None
) -> component.Component:
    """The compiled guest component for ``engine``: from the cache, or built and compiled now."""
    cache_dir = cache_dir or default_cache_dir()
    key = build_key()
    wasm_path = cache_dir / f"guest-{key}.wasm"
    compiled_path = cache_dir / f"guest-{key}-{engine_key(config_description)}.cwasm"
    if compiled_path.exists():
        try:
            return component.Component.deserialize_file(engine, str(compiled_path))
        except wasmtime.WasmtimeError:
            pass  # written by another wasmtime build: recompile below
    with _locked(cache_dir):
        if compiled_path.exists():  # another process finished while we waited for the lock
            try:
                return component.Component.deserialize_file(engine, str(compiled_path))
            except wasmtime.WasmtimeError:
                compiled_path.unlink()
        if not wasm_path.exists():
            build_component(wasm_path)
        compiled = component.Component.from_file(engine, str(wasm_path))
        write_atomically(compiled_path, bytes(compiled.serialize()))
        return compiled
