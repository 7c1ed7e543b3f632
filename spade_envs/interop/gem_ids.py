"""Readable GEM ids for pool environments: ``spade:POOL/HanoiTower-v0``, as GEM names its own games.

GEM's ids read as ``CATEGORY:Name-vN`` (``game:GuessTheNumber-v0``, with variants after the version:
``game:Mastermind-v0-hard``). A pool environment's id is built the same way from things that do not
change between runs or machines: the pool's name (from its manifest) and the environment's class name
without its ``Env`` suffix. Self-play pools often hold several versions of one class (the designer
rewrites an environment, keeping its class name); those each get the start of their code hash as a
variant, ``spade:POOL/SignalGame-v0-77455105``, eight hex digits unless more are needed to tell them
apart. So an id is unique within its pool and depends only on the pool's contents, never on their order.

The hash ids of earlier releases (``spade/env-774551059215e633``) stay valid: ``legacy_id`` gives an
environment's, and ``register_pool`` registers it as an alias of the readable one.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence

from spade_envs.interop.pool_env import PoolEnvironment

VERSION = "v0"
"""Every id's version: a changed environment is a new environment (a new hash), not a new version."""
MIN_HASH_DIGITS = 8
_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]+")


def pool_slug(name: str) -> str:
    """The pool's name as it appears in an id: runs of characters other than letters, digits, ``_.-``
    become one ``-`` (``:`` and ``/`` separate an id's parts)."""
    return _UNSAFE.sub("-", name).strip("-.") or "pool"


def readable_ids(environments: Sequence[PoolEnvironment], pool_name: str, prefix: str = "spade") -> dict[str, PoolEnvironment]:
    """``{id: environment}`` for every environment of a pool, in the pool's order.

    ``prefix`` is the id's category (``spade``); a prefix with ``:`` or ``/`` would make ids ambiguous and
    is a ``ValueError``.
    """
    if not prefix or _UNSAFE.search(prefix):
        raise ValueError(f"a GEM id prefix is letters, digits, '_', '.' and '-' only; got {prefix!r}")
    by_class: dict[str, list[PoolEnvironment]] = defaultdict(list)
    for environment in environments:
        by_class[environment.spec.class_name].append(environment)
    variants = {environment.id: _variant(environment, by_class[environment.spec.class_name])
                for environment in environments}
    slug = pool_slug(pool_name)
    return {f"{prefix}:{slug}/{environment.spec.class_name.removesuffix('Env')}-{VERSION}{variants[environment.id]}":
            environment for environment in environments}


def legacy_id(environment: PoolEnvironment, prefix: str = "spade") -> str:
    """The id earlier releases registered the environment under: ``PREFIX/ENV_ID``, its code's hash."""
    return f"{prefix}/{environment.id}"


def _variant(environment: PoolEnvironment, same_class: list[PoolEnvironment]) -> str:
    """``""`` for the only environment of its class, else ``-`` and the shortest start of its hash (at least
    ``MIN_HASH_DIGITS`` digits) that no other environment of the class shares."""
    if len(same_class) == 1:
        return ""
    digest = environment.id.removeprefix("env-")
    others = [other.id.removeprefix("env-") for other in same_class if other.id != environment.id]
    digits = MIN_HASH_DIGITS
    while any(other.startswith(digest[:digits]) for other in others) and digits < len(digest):
        digits += 1
    return f"-{digest[:digits]}"
