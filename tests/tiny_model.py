"""Build a tiny chat causal LM offline, for tests that need a real transformers model.

No registry ships a small model that transformers can load, and tests cannot reach a model hub, so
the model is made here: a byte-level BPE tokenizer trained on the repository's own text, wrapped as
a ``PreTrainedTokenizerFast`` with a ChatML template, and a randomly initialised 2-layer decoder
saved with ``save_pretrained``. It loads back through ``AutoModelForCausalLM`` and
``spade_train.policies.transformers_local.load_tokenizer`` like any checkpoint. Building takes a
couple of seconds: scope the fixture to the session.

Weights are random, so the model's text is noise; tests check shapes, determinism and limits.
"""

from __future__ import annotations

from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent


def training_text() -> list[str]:
    """Local text to train the tokenizer on: the bundled environments and the README."""
    files = sorted((REPO_ROOT / "spade_envs" / "library").glob("*.py")) + [REPO_ROOT / "README.md"]
    return [path.read_text(encoding="utf-8") for path in files if path.is_file()]


def build_tiny_model(
    directory: Path,
    *,
    architecture: str = "qwen2",
    vocab_size: int = 800,
    hidden_size: int = 64,
    num_layers: int = 2,
    num_heads: int = 4,
    max_positions: int = 512,
    seed: int = 0,
) -> Path:
    """Write a tiny ``architecture`` ("qwen2" or "llama") model and its tokenizer to ``directory``."""
    from spade_train.backends.embedded.model import (
        TinyModelConfig,
        build_causal_lm,
        save_checkpoint_files,
        train_bpe_tokenizer,
    )

    tokenizer = train_bpe_tokenizer(training_text(), vocab_size)
    config = TinyModelConfig(architecture=architecture, hidden_size=hidden_size, num_layers=num_layers,
                             num_heads=num_heads, max_positions=max_positions, seed=seed)
    return save_checkpoint_files(build_causal_lm(tokenizer, config), tokenizer, Path(directory))


@pytest.fixture(scope="session")
def tiny_model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One tiny Qwen2 checkpoint per test session (skips when torch/transformers are missing)."""
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    return build_tiny_model(tmp_path_factory.mktemp("tiny-qwen2"))
