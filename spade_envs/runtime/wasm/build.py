"""Build the sandbox image once and compile it once per machine.

Two artifacts live in the cache directory:

* ``guest-<build key>.wasm``: the component built by componentize-py from ``guest_app.py``, the
  guest-side SDK modules and the WIT world. The build key hashes everything that goes into it, so a
  changed guest file or tool version rebuilds it and nothing else does.
* ``guest-<build key>-<engine key>.cwasm``: that component compiled by Cranelift for this machine and
  this wasmtime version and engine configuration. Loading it takes milliseconds; compiling takes
  tens of seconds, which is why it is never done per session.

Concurrent first uses (pytest workers, rollout processes) serialise on a lock file, and every file is
written under a temporary name and renamed, so a reader never sees half an artifact.
"""

from __future__ import annotations

import fcntl
import hashlib
import importlib.metadata
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
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
    "contract/tool_use.py",
    "runtime/guest.py",
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


def engine_key(config_description: str) -> str:
    """Hash of what makes compiled code machine- and configuration-specific."""
    version = importlib.metadata.version("wasmtime")
    digest = hashlib.sha256(f"{version}|{config_description}|{sys.platform}|{os.uname().machine}".encode())
    return digest.hexdigest()[:16]


@contextmanager
def _locked(cache_dir: Path) -> Iterator[None]:
    cache_dir.mkdir(parents=True, exist_ok=True)
    with open(cache_dir / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


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
        completed = subprocess.run(command, cwd=staging, capture_output=True, text=True)
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
