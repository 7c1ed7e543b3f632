"""Build a tiny chat causal LM offline, for tests that need a real transformers model.

No registry ships a small model that transformers can load, and tests cannot reach a model hub, so
the model is made here: a byte-level BPE tokenizer trained on the repository's own text, wrapped as
a ``PreTrainedTokenizerFast`` with a ChatML template, and a randomly initialised 2-layer decoder
saved with ``save_pretrained``. It loads back through ``AutoModelForCausalLM`` / ``AutoTokenizer``
like any checkpoint. Building takes a couple of seconds: scope the fixture to the session.

Weights are random, so the model's text is noise; tests check shapes, determinism and limits.
"""

from __future__ import annotations

from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent

SPECIAL_TOKENS = ("<|endoftext|>", "<|im_start|>", "<|im_end|>")
CHATML_TEMPLATE = (
    "{% if tools %}<|im_start|>system\nTools: {{ tools | tojson }}<|im_end|>\n{% endif %}"
    "{% for message in messages %}"
    "<|im_start|>{{ message['role'] }}\n{{ message['content'] }}<|im_end|>\n"
    "{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)


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
    import torch
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import (
        LlamaConfig,
        LlamaForCausalLM,
        PreTrainedTokenizerFast,
        Qwen2Config,
        Qwen2ForCausalLM,
    )

    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)

    bpe = Tokenizer(models.BPE())
    bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    bpe.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, special_tokens=list(SPECIAL_TOKENS),
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False)
    bpe.train_from_iterator(training_text(), trainer=trainer)
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=bpe, eos_token="<|im_end|>", pad_token="<|endoftext|>",
                                        additional_special_tokens=["<|im_start|>"])
    tokenizer.chat_template = CHATML_TEMPLATE
    tokenizer.save_pretrained(directory)

    config_class, model_class = {"qwen2": (Qwen2Config, Qwen2ForCausalLM),
                                 "llama": (LlamaConfig, LlamaForCausalLM)}[architecture]
    config = config_class(
        vocab_size=len(tokenizer),
        hidden_size=hidden_size,
        intermediate_size=2 * hidden_size,
        num_hidden_layers=num_layers,
        num_attention_heads=num_heads,
        num_key_value_heads=num_heads // 2,
        max_position_embeddings=max_positions,
        tie_word_embeddings=True,
        bos_token_id=tokenizer.pad_token_id,
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id,
    )
    with torch.random.fork_rng(devices=[]):  # seed the weights without touching the caller's RNG
        torch.manual_seed(seed)
        model = model_class(config)
    model.generation_config.eos_token_id = tokenizer.eos_token_id
    model.save_pretrained(directory)
    return directory


@pytest.fixture(scope="session")
def tiny_model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One tiny Qwen2 checkpoint per test session (skips when torch/transformers are missing)."""
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    return build_tiny_model(tmp_path_factory.mktemp("tiny-qwen2"))
