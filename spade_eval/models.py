"""Turn ``--model`` into a policy and a stable identity for the results and the generation cache.

``--model`` accepts what people have at hand: a checkpoint directory (loaded with transformers), the
URL of an OpenAI-compatible server (the served model is asked for at ``/v1/models`` when the URL does
not name one after ``#``), or any explicit ``spade_train.policies`` spec (``hf:``, ``openai:``,
``vllm:``). Problems the user can fix (a path that is not a checkpoint, a server that does not answer)
raise ``ModelError`` with one line that names the fix, before any benchmark starts.

The identity matters because cached generations are keyed on it: a retrained checkpoint in the same
directory must not reuse the old model's answers, so a directory's identity includes a fingerprint of
its files (names, sizes and a hash of each file's first and last MiB: cheap on multi-GB weights, and
changed by any training step, which rewrites every tensor).
"""

from __future__ import annotations

import hashlib
import json
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spade_train.policies.base import Policy

FINGERPRINT_CHUNK = 1 << 20
PROBE_TIMEOUT_S = 10.0


class ModelError(Exception):
    """``--model`` names nothing usable; the message is one line with the fix."""


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


def resolve_spec(model: str) -> str:
    """The policy spec ``--model`` means, checking what can be checked without loading anything."""
    text = model.strip()
    if not text:
        raise ModelError("--model is empty; pass a checkpoint directory, a server URL or a policy spec")
    scheme = text.partition(":")[0].lower()
    if scheme in ("http", "https", "openai"):
        target = text if scheme != "openai" else text.partition(":")[2]
        base_url, _, name = target.partition("#")
        base_url = _with_version_prefix(base_url)
        served = served_models(base_url)
        if name and name not in served:
            raise ModelError(
                f"the server at {base_url} serves {', '.join(served)}, not {name!r}; fix the name after '#'"
            )
        return f"openai:{base_url}#{name or served[0]}"
    if scheme in ("hf", "vllm"):
        path_text = text.partition(":")[2]
        path = Path(path_text).expanduser()
        if path.exists() or path_text.startswith((".", "/", "~")):
            return f"{scheme}:{_checkpoint_dir(path)}"
        return text  # a hub id: loadable where a hub is reachable
    if scheme == "scripted":
        return text
    path = Path(text).expanduser()
    if path.exists() or "/" in text or text.startswith("."):
        return f"hf:{_checkpoint_dir(path)}"
    raise ModelError(
        f"--model {model!r} is neither a checkpoint directory, an http(s) URL nor a policy spec "
        "(hf:PATH, openai:URL#model, vllm:PATH)"
    )


def load_model(model: str, **policy_options: Any) -> ModelHandle:
    """Resolve ``--model`` and build its policy (loading weights for local checkpoints)."""
    from spade_train.policies.factory import create_policy

    spec = resolve_spec(model)
    kind = spec.partition(":")[0]
    try:
        policy = create_policy(spec, **policy_options)
    except (OSError, ValueError, ImportError) as error:
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise ModelError(f"cannot load {spec}: {first}") from None
    return ModelHandle(
        policy=policy, spec=spec, kind=kind, name=policy.name, fingerprint=_fingerprint(spec, kind)
    )


def _checkpoint_dir(path: Path) -> Path:
    resolved = path.resolve()
    if not resolved.exists():
        raise ModelError(f"model path {path} does not exist; pass a checkpoint directory (with config.json)")
    if not resolved.is_dir() or not (resolved / "config.json").is_file():
        raise ModelError(
            f"{path} is not a checkpoint directory (no config.json in it); pass the directory "
            "that save_pretrained wrote"
        )
    return resolved


def _with_version_prefix(base_url: str) -> str:
    """``http://host:8000`` -> ``http://host:8000/v1``, as OpenAI-compatible servers mount their API."""
    stripped = base_url.rstrip("/")
    return stripped if urllib.parse.urlsplit(stripped).path else stripped + "/v1"


def served_models(base_url: str) -> list[str]:
    """The models a server lists at ``/models``; ``ModelError`` when it cannot be reached."""
    url = base_url.rstrip("/") + "/models"
    host = urllib.parse.urlsplit(url).hostname or ""
    opener = (
        urllib.request.build_opener(urllib.request.ProxyHandler({}))
        if host in ("localhost", "::1") or host.startswith("127.")
        else urllib.request.build_opener()
    )
    try:
        with opener.open(url, timeout=PROBE_TIMEOUT_S) as response:
            listing = json.loads(response.read())
        names = [str(entry["id"]) for entry in listing["data"]]
        if not names:
            raise ValueError("empty listing")
        return names
    except urllib.error.HTTPError as error:
        raise ModelError(
            f"{url} answered HTTP {error.code}; name the model explicitly as URL#model"
        ) from None
    except (urllib.error.URLError, TimeoutError, OSError) as error:
        reason = getattr(error, "reason", error)
        raise ModelError(
            f"cannot reach the server at {base_url} ({reason}); start it or check --model"
        ) from None
    except (ValueError, KeyError, IndexError, TypeError):
        raise ModelError(f"{url} did not list a model; name it explicitly as URL#model") from None


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
