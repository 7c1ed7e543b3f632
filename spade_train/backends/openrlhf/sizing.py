"""How many tokens of KV cache a rollout engine has, against the sequences it will hold at once.

vLLM keeps every running sequence's keys and values on the GPU. When the sequences an engine serves at
once need more than its cache holds, vLLM preempts some and recomputes them later: the step still
finishes, but slower, and a recipe sized this way pays for it on every step. The dry run prints this
sizing per recipe (``spade-train run --dry-run``), from the model's shape, the GPUs' memory and the
recipe's engine settings:

* memory per engine = GPU memory x ``vllm_gpu_memory_utilization`` x ``vllm_tensor_parallel``;
* minus the weights (bf16: 2 bytes a parameter) and vLLM's own reserve per GPU (activations and CUDA
  graphs, ``VLLM_RESERVE_GIB``);
* divided by the KV bytes of one token: 2 (key and value) x layers x KV heads x head size x 2 bytes.

The sequences an engine holds at once are its share of a step's trained samples (``rollout_batch_size *
n_samples_per_prompt / vllm_engines``), each up to ``max_len`` tokens; designer rows' nested plays come on
top. The estimate is the worst case, every sequence at ``max_len``; it is not a measurement.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from spade_train.config.sections import RunConfig

GIB = 1024**3
VLLM_RESERVE_GIB = 2.0
"""What vLLM keeps per GPU besides weights and KV cache (activation peak, CUDA graphs): 1-3 GiB."""


@dataclass(frozen=True)
class ModelShape:
    """What the KV cache and the weights take: from the model's ``config.json`` (and its size)."""

    parameters: float
    layers: int
    kv_heads: int
    head_dim: int
    source: str

    @property
    def weight_bytes(self) -> float:
        return 2.0 * self.parameters  # bf16

    @property
    def kv_bytes_per_token(self) -> int:
        return 2 * self.layers * self.kv_heads * self.head_dim * 2  # key and value, bf16


KNOWN_MODELS: dict[str, ModelShape] = {
    "Qwen/Qwen3-4B-Instruct-2507": ModelShape(4.02e9, 36, 8, 128, "Qwen3-4B config.json"),
    "Qwen/Qwen3-8B": ModelShape(8.19e9, 36, 8, 128, "Qwen3-8B config.json"),
    "Qwen/Qwen3-30B-A3B-Instruct-2507": ModelShape(30.5e9, 48, 4, 128, "Qwen3-30B-A3B config.json"),
}
"""The recipes' models (num_hidden_layers, num_key_value_heads, head_dim; parameters from the model card)."""


def model_shape(path: str) -> ModelShape | None:
    """The shape of a recipe's model, or of a local model directory (its ``config.json`` and the size of
    its safetensors index); None when neither is known here."""
    if path in KNOWN_MODELS:
        return KNOWN_MODELS[path]
    folder = Path(path)
    try:
        config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
        heads = int(config["num_attention_heads"])
        head_dim = int(config.get("head_dim") or int(config["hidden_size"]) // heads)
        index = folder / "model.safetensors.index.json"
        if index.is_file():
            parameters = json.loads(index.read_text(encoding="utf-8"))["metadata"]["total_size"] / 2.0
        else:
            parameters = sum(p.stat().st_size for p in folder.glob("*.safetensors")) / 2.0
        return ModelShape(parameters, int(config["num_hidden_layers"]),
                          int(config.get("num_key_value_heads") or heads), head_dim, str(folder / "config.json"))
    except (OSError, ValueError, KeyError, TypeError):
        return None


@dataclass(frozen=True)
class KvSizing:
    model: ModelShape
    kv_tokens: int
    """Tokens of KV cache per engine (0 when the weights alone do not fit)."""
    sequences: float
    """Trained sequences an engine holds at once (its share of a step's samples)."""
    max_len: int

    @property
    def full_contexts(self) -> float:
        return self.kv_tokens / self.max_len

    @property
    def fits(self) -> bool:
        return self.full_contexts >= self.sequences

    def line(self) -> str:
        """One line for the dry run."""
        verdict = ("every one fits at max_len" if self.fits else
                   "more than fit at max_len: vLLM preempts and recomputes when they grow long")
        return (f"KV cache per engine: about {self.kv_tokens / 1000:,.0f}k tokens ({self.full_contexts:.1f} full "
                f"{self.max_len}-token contexts); each engine holds {self.sequences:g} trained sequences at once "
                f"(plus designer rows' nested plays): {verdict}")


def kv_sizing(config: RunConfig) -> KvSizing | None:
    """The worst-case KV-cache sizing of a run's rollout engines; None when the model's shape is unknown."""
    model = model_shape(config.model.path)
    if model is None:
        return None
    section = config.openrlhf
    memory = section.gpu_memory_gib * GIB * section.vllm_gpu_memory_utilization * section.vllm_tensor_parallel
    free = memory - model.weight_bytes - VLLM_RESERVE_GIB * GIB * section.vllm_tensor_parallel
    tokens = max(0, int(free // model.kv_bytes_per_token))
    sequences = section.rollout_batch_size * section.n_samples_per_prompt / section.vllm_engines
    return KvSizing(model, tokens, sequences, section.max_len)
