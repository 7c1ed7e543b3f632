"""Build a policy from the text people name models with: the one parser of model specs in the toolkit.

``spade-train`` (``[policies]`` in a run configuration) and ``spade-eval --model`` both go through
``resolve_spec``, which accepts what people have at hand and turns it into a canonical spec:

- a server URL, ``http://host:port[/v1][#model-name]``: an OpenAI-compatible server (``/v1`` is added
  when the URL has no path; without ``#name`` the server is asked which model it serves);
- ``openai:URL#model-name``: the same, written out;
- a checkpoint directory, or ``hf:PATH``: a local transformers model (``hf:NAME`` that is not a path is
  a hub id, loadable where a hub is reachable);
- ``vllm:PATH``: vLLM's offline engine in this process;
- ``scripted``: a ``ScriptedPolicy`` (options such as ``responses=[...]`` pass through).

What can be checked without loading anything is checked there (the path is a checkpoint, the server
answers and serves that model), so a mistake fails with one line that names the fix before any work
starts. ``create_policy`` builds the policy a canonical spec names; ``load_policy`` does both and reports
any failure as one line. Options
go to the policy's constructor unchanged, so a wrong option fails there, loudly. Each backend module
imports its heavy dependencies only when a policy is built.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

from spade_envs.errors import SpadeError
from spade_train.policies.base import Policy

SPEC_FORMS = ("http://host:port/v1#model-name", "openai:URL#model-name", "a checkpoint directory",
              "hf:/path/to/model", "vllm:/path/to/model", "scripted")
PROBE_TIMEOUT_S = 10.0


class PolicySpecError(SpadeError, ValueError):
    """A model spec names nothing usable; the message is one line with the fix."""


def resolve_spec(model: str) -> str:
    """The canonical spec (``openai:URL#name``, ``hf:/abs/path``, ``vllm:...``, ``scripted``) ``model`` means."""
    text = model.strip()
    if not text:
        raise PolicySpecError("the model is empty; name a checkpoint directory, a server URL or a policy spec")
    scheme = text.partition(":")[0].lower()
    if scheme in ("http", "https", "openai"):
        target = text if scheme != "openai" else text.partition(":")[2]
        base_url, _, name = target.partition("#")
        base_url = _with_version_prefix(base_url)
        served = served_models(base_url)
        if name and name not in served:
            raise PolicySpecError(
                f"the server at {base_url} serves {', '.join(served)}, not {name!r}; fix the name after '#'")
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
    raise PolicySpecError(f"the model {model!r} is neither a checkpoint directory, an http(s) URL nor a "
                          f"policy spec; expected one of: {', '.join(SPEC_FORMS)}")


def create_policy(spec: str, **options: Any) -> Policy:
    """The policy a canonical ``spec`` names (``resolve_spec``'s result); ``PolicySpecError`` for a spec
    that names none. A constructor's own failure (a missing file, torch not installed) propagates."""
    return _construct(spec, options)


def load_policy(model: str, **options: Any) -> Policy:
    """The policy ``model`` names, in any form ``resolve_spec`` accepts; every failure to build it is a
    ``PolicySpecError`` of one line (what commands show)."""
    spec = resolve_spec(model)
    try:
        return create_policy(spec, **options)
    except PolicySpecError:
        raise
    except (OSError, ValueError, ImportError) as error:
        raise PolicySpecError(f"cannot load {spec}: {_first_line(error)}") from None


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def _construct(spec: str, options: dict[str, Any]) -> Policy:
    scheme, _, target = spec.strip().partition(":")
    scheme = scheme.lower()
    if scheme == "scripted" and not target:
        from spade_train.policies.scripted import ScriptedPolicy

        return ScriptedPolicy(**options)
    if scheme == "openai" and target:
        base_url, _, model = target.partition("#")
        if not base_url or not model:
            raise PolicySpecError(f"an openai spec needs a URL and a model name: openai:URL#model-name, got {spec!r}")
        from spade_train.policies.openai_compat import OpenAICompatiblePolicy

        return OpenAICompatiblePolicy(base_url, model, **options)
    if scheme == "hf" and target:
        from spade_train.policies.transformers_local import TransformersPolicy

        return TransformersPolicy(target, **options)
    if scheme == "vllm" and target:
        from spade_train.policies.vllm_offline import VLLMPolicy

        return VLLMPolicy(target, **options)
    hint = " (resolve a server URL with resolve_spec first)" if scheme in ("http", "https") else ""
    raise PolicySpecError(f"unknown policy spec {spec!r}{hint}; expected one of: {', '.join(SPEC_FORMS)}")


def _checkpoint_dir(path: Path) -> Path:
    resolved = path.resolve()
    if not resolved.exists():
        raise PolicySpecError(f"model path {path} does not exist; pass a checkpoint directory (with config.json)")
    if not resolved.is_dir() or not (resolved / "config.json").is_file():
        raise PolicySpecError(f"{path} is not a checkpoint directory (no config.json in it); pass the directory "
                              "that save_pretrained wrote")
    return resolved


def _with_version_prefix(base_url: str) -> str:
    """``http://host:8000`` -> ``http://host:8000/v1``, as OpenAI-compatible servers mount their API."""
    stripped = base_url.rstrip("/")
    return stripped if urllib.parse.urlsplit(stripped).path else stripped + "/v1"


def served_models(base_url: str) -> list[str]:
    """The models a server lists at ``/models``; ``PolicySpecError`` when it cannot be reached."""
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
        raise PolicySpecError(f"{url} answered HTTP {error.code}; name the model explicitly as URL#model") from None
    except (urllib.error.URLError, TimeoutError, OSError) as error:
        reason = getattr(error, "reason", error)
        raise PolicySpecError(f"cannot reach the server at {base_url} ({reason}); start it or check the "
                              "model's URL") from None
    except (ValueError, KeyError, IndexError, TypeError):
        raise PolicySpecError(f"{url} did not list a model; name it explicitly as URL#model") from None
