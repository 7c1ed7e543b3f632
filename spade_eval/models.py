"""Turn ``--model`` into a policy and a stable identity for the results and the generation cache.

``--model`` accepts what people have at hand, read by the toolkit's one model-spec parser
(``spade_train.policies.factory.resolve_spec``, which ``spade-train``'s ``[policies]`` use too): a
checkpoint directory (loaded with transformers), the URL of an OpenAI-compatible server (the served model
is asked for at ``/v1/models`` when the URL does not name one after ``#``), or any explicit policy spec
(``hf:``, ``openai:``, ``vllm:``). Problems the user can fix (a path that is not a checkpoint, a server
that does not answer) raise ``ModelError`` with one line that names the fix, before any benchmark starts.

The identity matters because cached generations are keyed on it: a retrained checkpoint in the same
directory must not reuse the old model's answers, so a directory's identity includes a fingerprint of
its files (names, sizes and a hash of each file's first and last MiB: cheap on multi-GB weights, and
changed by any training step, which rewrites every tensor).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spade_train.policies.base import Policy
from spade_train.policies.factory import PolicySpecError, create_policy, resolve_spec, served_models

FINGERPRINT_CHUNK = 1 << 20

ModelError = PolicySpecError
"""``--model`` names nothing usable (the model-spec parser's error); the message is one line with the fix."""

__all__ = ["ModelError", "ModelHandle", "load_model", "resolve_spec", "served_models"]


@dataclass(frozen=True)
class ModelHandle:
    policy: Policy
    spec: str
    """The ``create_policy`` spec that was used (``hf:/abs/path``, ``openai:URL#name``, ...)."""
    kind: str
    """``hf``, ``openai``, ``vllm`` or ``scripted``."""
    name: str
    fingerprint: str
    """What the generation cache keys on: the spec plus the checkpoint's file fingerprint."""


def load_model(model: str, **policy_options: Any) -> ModelHandle:
    """Resolve ``--model`` and build its policy (loading weights for local checkpoints)."""
    spec = resolve_spec(model)
    kind = spec.partition(":")[0]
    try:
        policy = create_policy(spec, **policy_options)
    except ModelError:
        raise
    except (OSError, ValueError, ImportError) as error:
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise ModelError(f"cannot load {spec}: {first}") from None
    return ModelHandle(
        policy=policy, spec=spec, kind=kind, name=policy.name, fingerprint=_fingerprint(spec, kind)
    )


def _fingerprint(spec: str, kind: str) -> str:
    digest = hashlib.sha256(spec.encode())
    if kind in ("hf", "vllm"):
        directory = Path(spec.partition(":")[2])
        if directory.is_dir():
            for file in sorted(p for p in directory.rglob("*") if p.is_file() and not p.name.startswith(".")):
                size = file.stat().st_size
                digest.update(f"{file.relative_to(directory)}:{size}".encode())
                with file.open("rb") as handle:
                    if size <= 2 * FINGERPRINT_CHUNK:
                        digest.update(handle.read())
                    else:
                        digest.update(handle.read(FINGERPRINT_CHUNK))
                        handle.seek(size - FINGERPRINT_CHUNK)
                        digest.update(handle.read(FINGERPRINT_CHUNK))
    return digest.hexdigest()[:16]
