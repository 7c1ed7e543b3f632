"""A local OpenAI-compatible server for tests: the tiny transformers model behind ``PolicyServer``.

Import the fixtures into a test module (``from tests.served_model import served_tiny_model,
tiny_model_dir``) and talk to ``served_tiny_model.url`` over real HTTP, as a user's vLLM server would
be talked to. The server listens on a free loopback port (port 0) for the whole test session.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.tiny_model import tiny_model_dir  # noqa: F401 - the session fixture the server needs


@pytest.fixture(scope="session")
def served_tiny_model(tiny_model_dir) -> Iterator[object]:  # noqa: F811 - the fixture imported above
    """A started ``PolicyServer`` for the tiny model: ``.url`` (with /v1), ``.model_name``, ``.spec``."""
    from spade_train.policies.serve import PolicyServer
    from spade_train.policies.transformers_local import TransformersPolicy

    policy = TransformersPolicy(tiny_model_dir, name="tiny-qwen2")
    with PolicyServer(policy, port=0) as server:
        yield server
