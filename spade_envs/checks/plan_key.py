"""The key that, with each file's content, draws the seeds the gate checks it on.

A verdict must not depend on the luck of the draw: run twice on the same file, ``spade-envs validate`` must
say the same (a borderline file used to flip between runs, its plan seed drawn at random each time). Yet
the seeds must stay out of the author's reach, or an environment could behave only on the seeds it will be
checked on. So the plan seed is a hash of a secret key and the file's content (``CheckConfig.plan_salt``):
the same file gets the same seeds on every run that holds the same key, and an author without the key
cannot know them. ``--plan-seed N`` still replays one recorded verdict anywhere.

The key is 64 random bits in a file of the user's configuration (``~/.config/spade/plan-key``, or under
``$XDG_CONFIG_HOME``), made on first use; ``--plan-key FILE`` names another (a team shares one to agree on
verdicts). Where no key can be kept (a read-only home), each run draws its own, as before.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

KEY_BITS = 64


def default_key_path() -> Path:
    """Where the user's plan key lives: the XDG configuration directory, as other tools keep theirs."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "spade" / "plan-key"


def load_plan_key(path: Path | None = None) -> int:
    """The key in ``path``, made there on first use. Without ``path`` (the default key): a fresh random key
    when the file can be neither read nor made. With ``path`` (named by the user): ``ValueError`` or
    ``OSError`` say why it cannot be used."""
    explicit = path is not None
    path = path if path is not None else default_key_path()
    try:
        try:
            return _read(path)
        except FileNotFoundError:
            return _make(path)
    except (OSError, ValueError):
        if explicit:
            raise
        return secrets.randbits(KEY_BITS)


def _make(path: Path) -> int:
    """Make the key file whole or not at all: written beside it, then linked into place, so that two first
    runs at once agree on one key (the second finds the first's)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    staged = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        descriptor = os.open(staged, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w", encoding="ascii") as handle:
            handle.write(f"{secrets.randbits(KEY_BITS):016x}\n")
        try:
            os.link(staged, path)
        except FileExistsError:
            pass
    finally:
        staged.unlink(missing_ok=True)
    return _read(path)


def _read(path: Path) -> int:
    text = path.read_bytes().decode("ascii", errors="replace").strip()
    try:
        return int(text, 16)
    except ValueError:
        raise ValueError(f"{path} does not hold a plan key (hexadecimal digits); delete it to make a new one, "
                         "or name another with --plan-key") from None
