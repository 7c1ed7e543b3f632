"""Build a policy from a one-line spec, as command lines and config files name models.

Specs:

- ``openai:http://host:port/v1#model-name``: an OpenAI-compatible server (the part after ``#`` is
  the served model name);
- ``hf:/path/to/model``: a local transformers model (a hub id works where a hub is reachable);
- ``vllm:/path/to/model``: vLLM's offline engine in this process;
- ``scripted``: a ``ScriptedPolicy`` (options such as ``responses=[...]`` pass through).

``options`` go to the policy's constructor unchanged, so a wrong option fails there, loudly. Each
backend module imports its heavy dependencies only when a policy is built.
"""

from __future__ import annotations

from typing import Any

from spade_train.policies.base import Policy

SPEC_FORMS = ("openai:http://host:port/v1#model-name", "hf:/path/to/model", "vllm:/path/to/model", "scripted")


def create_policy(spec: str, **options: Any) -> Policy:
    """The policy that ``spec`` names; ``ValueError`` for a spec that names none."""
    scheme, _, target = spec.strip().partition(":")
    scheme = scheme.lower()
    if scheme == "scripted" and not target:
        from spade_train.policies.scripted import ScriptedPolicy

        return ScriptedPolicy(**options)
    if scheme == "openai" and target:
        base_url, _, model = target.partition("#")
        if not base_url or not model:
            raise ValueError(f"an openai spec needs a URL and a model name: {SPEC_FORMS[0]}, got {spec!r}")
        from spade_train.policies.openai_compat import OpenAICompatiblePolicy

        return OpenAICompatiblePolicy(base_url, model, **options)
    if scheme == "hf" and target:
        from spade_train.policies.transformers_local import TransformersPolicy

        return TransformersPolicy(target, **options)
    if scheme == "vllm" and target:
        from spade_train.policies.vllm_offline import VLLMPolicy

        return VLLMPolicy(target, **options)
    hint = " (for a server, write openai:URL#model)" if scheme in ("http", "https") else ""
    raise ValueError(f"unknown policy spec {spec!r}{hint}; expected one of: {', '.join(SPEC_FORMS)}")
