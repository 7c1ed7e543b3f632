"""The embedded default's model: a tiny causal LM built from a config, with a locally trained tokenizer.

Nothing is downloaded. The tokenizer is a word-level vocabulary trained on the text the embedded run
will ever show the model (``signal_language.vocabulary_text``), so every word, slot value and move
is one token and a useful reply is four tokens long. It is wrapped as a ``PreTrainedTokenizerFast``
with a ChatML template, and the model is a randomly initialised Qwen2 (or Llama) decoder; both are
saved with ``save_pretrained`` and load back like any checkpoint, so the same
``TransformersPolicy`` and trainer serve the tiny model and a real one.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

SPECIAL_TOKENS = ("<|endoftext|>", "<|im_start|>", "<|im_end|>")
UNKNOWN_TOKEN = "[UNK]"
CHATML_TEMPLATE = (
    "{% if tools %}<|im_start|>system\nTools: {{ tools | tojson }}<|im_end|>\n{% endif %}"
    "{% for message in messages %}"
    "<|im_start|>{{ message['role'] }}\n{{ message['content'] }}<|im_end|>\n"
    "{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)


class TinyModelConfig(BaseModel):
    """Shape of the model built for the embedded run (175 thousand parameters by default)."""

    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)

    architecture: Literal["qwen2", "llama"] = "qwen2"
    hidden_size: int = Field(96, ge=8)
    num_layers: int = Field(2, ge=1)
    num_heads: int = Field(4, ge=1)
    max_positions: int = Field(512, ge=32)
    initializer_range: float = Field(0.1, gt=0)
    """Std of the initial weights. Larger than the usual 0.02: in a supervised probe, this together with
    ``rope_theta`` 1e4 (instead of Qwen2's 1e6) took the model from 19-33% to 100% accuracy in 200 steps
    on a task that needs attention to two earlier tokens."""
    rope_theta: float = Field(10_000.0, gt=0)
    seed: int | None = None
    """Seed of the initial weights; None: the run's ``run.seed`` (so one seed decides the whole run)."""


def _fast_tokenizer(backend: Any) -> Any:
    from transformers import PreTrainedTokenizerFast

    tokenizer = PreTrainedTokenizerFast(tokenizer_object=backend, eos_token="<|im_end|>", pad_token="<|endoftext|>",
                                        unk_token=UNKNOWN_TOKEN, additional_special_tokens=["<|im_start|>"])
    tokenizer.chat_template = CHATML_TEMPLATE
    return tokenizer


def train_word_tokenizer(texts: Iterable[str]) -> Any:
    """A word-level tokenizer (split on whitespace) whose vocabulary is every word in ``texts``."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    backend = Tokenizer(models.WordLevel(unk_token=UNKNOWN_TOKEN))
    backend.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    backend.decoder = decoders.WordPiece(prefix="##", cleanup=False)  # joins words with single spaces
    trainer = trainers.WordLevelTrainer(special_tokens=[*SPECIAL_TOKENS, UNKNOWN_TOKEN], show_progress=False)
    backend.train_from_iterator(list(texts), trainer=trainer)
    return _fast_tokenizer(backend)


def train_bpe_tokenizer(texts: Iterable[str], vocab_size: int) -> Any:
    """A byte-level BPE tokenizer trained on ``texts``: any text encodes, no unknown words."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    backend = Tokenizer(models.BPE())
    backend.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    backend.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, special_tokens=list(SPECIAL_TOKENS),
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False)
    backend.train_from_iterator(list(texts), trainer=trainer)
    return _fast_tokenizer(backend)


def build_causal_lm(tokenizer: Any, config: TinyModelConfig, *, seed: int = 0) -> Any:
    """A randomly initialised decoder sized for ``tokenizer``, its weights drawn from ``config.seed`` (or
    ``seed`` when the config names none) without touching torch's global RNG."""
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM, Qwen2Config, Qwen2ForCausalLM

    config_class, model_class = {"qwen2": (Qwen2Config, Qwen2ForCausalLM),
                                 "llama": (LlamaConfig, LlamaForCausalLM)}[config.architecture]
    model_config = config_class(
        vocab_size=len(tokenizer),
        hidden_size=config.hidden_size,
        intermediate_size=2 * config.hidden_size,
        num_hidden_layers=config.num_layers,
        num_attention_heads=config.num_heads,
        num_key_value_heads=max(1, config.num_heads // 2),
        max_position_embeddings=config.max_positions,
        tie_word_embeddings=True,
        initializer_range=config.initializer_range,
        rope_theta=config.rope_theta,
        bos_token_id=tokenizer.pad_token_id,
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id,
    )
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(config.seed if config.seed is not None else seed)
        model = model_class(model_config)
    model.generation_config.eos_token_id = tokenizer.eos_token_id
    model.eval()
    return model


def save_checkpoint_files(model: Any, tokenizer: Any, directory: Path) -> Path:
    """``save_pretrained`` both, so the directory loads with ``AutoModelForCausalLM``/``AutoTokenizer``."""
    directory.mkdir(parents=True, exist_ok=True)
    tokenizer.save_pretrained(directory)
    model.save_pretrained(directory)
    return directory
