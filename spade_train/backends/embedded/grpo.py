"""A GRPO-style policy update for a causal LM, small enough to read in one sitting.

Each training sample is one model completion (a designer's environment, or one agent turn) with the
log-probabilities it was sampled with and a group-normalised advantage (``spade_train.advantages``).
The loss is the clipped surrogate of PPO with the asymmetric clip of the reference recipe
(0.2 below, 0.28 above), averaged over all completion tokens in the batch, no KL term:

    ratio = exp(logp_new - logp_old)
    loss  = -mean_tokens( min(ratio * A, clip(ratio, 1 - 0.2, 1 + 0.28) * A) )

Log-probabilities are computed at the sampling temperature, because that is the distribution the
tokens were drawn from (``TransformersPolicy`` records "processed" log-probabilities).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import torch


@dataclass(frozen=True)
class TrainingSample:
    prompt_ids: list[int]
    completion_ids: list[int]
    old_logprobs: list[float]
    advantage: float
    role: str = "agent"

    def __post_init__(self) -> None:
        if len(self.completion_ids) != len(self.old_logprobs):
            raise ValueError("completion_ids and old_logprobs must have the same length")


@dataclass(frozen=True)
class GRPOConfig:
    learning_rate: float = 1e-6
    clip_low: float = 0.2
    clip_high: float = 0.28
    temperature: float = 0.6
    epochs: int = 1
    micro_batch: int = 8
    max_grad_norm: float = 1.0


class GRPOTrainer:
    """Owns the optimizer; ``step`` applies one update from a batch of samples."""

    def __init__(self, model: Any, config: GRPOConfig, *, pad_token_id: int = 0) -> None:
        self.model = model
        self.config = config
        self.pad_token_id = pad_token_id
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=config.learning_rate, weight_decay=0.0)

    def token_logprobs(self, samples: Sequence[TrainingSample]) -> list[torch.Tensor]:
        """Log-probabilities of each sample's completion tokens under the current model (with grad)."""
        sequences = [s.prompt_ids + s.completion_ids for s in samples]
        width = max(len(seq) for seq in sequences)
        ids = torch.full((len(samples), width), self.pad_token_id, dtype=torch.long)
        mask = torch.zeros((len(samples), width), dtype=torch.long)
        for row, seq in enumerate(sequences):
            ids[row, : len(seq)] = torch.tensor(seq, dtype=torch.long)
            mask[row, : len(seq)] = 1
        logits = self.model(input_ids=ids, attention_mask=mask).logits.float() / self.config.temperature
        logprobs = torch.log_softmax(logits[:, :-1], dim=-1)
        picked = logprobs.gather(-1, ids[:, 1:].unsqueeze(-1)).squeeze(-1)
        return [
            picked[row, len(s.prompt_ids) - 1 : len(s.prompt_ids) - 1 + len(s.completion_ids)]
            for row, s in enumerate(samples)
        ]

    def step(self, samples: Sequence[TrainingSample]) -> dict[str, float]:
        """One optimisation pass (``epochs`` times over the batch); returns training metrics."""
        usable = [s for s in samples if s.completion_ids and s.advantage != 0.0]
        if not usable:
            return {"loss": 0.0, "tokens": 0.0, "clip_fraction": 0.0, "grad_norm": 0.0, "samples": 0.0}
        total_tokens = sum(len(s.completion_ids) for s in usable)
        self.model.train()
        losses, clipped, grad_norm = [], 0, 0.0
        for _ in range(self.config.epochs):
            self.optimizer.zero_grad(set_to_none=True)
            for start in range(0, len(usable), self.config.micro_batch):
                chunk = usable[start : start + self.config.micro_batch]
                new = self.token_logprobs(chunk)
                loss = torch.zeros(())
                for sample, logp in zip(chunk, new):
                    old = torch.tensor(sample.old_logprobs, dtype=torch.float32)
                    ratio = torch.exp(logp - old)
                    advantage = torch.full_like(ratio, sample.advantage)
                    bounded = torch.clamp(ratio, 1 - self.config.clip_low, 1 + self.config.clip_high)
                    surrogate = torch.minimum(ratio * advantage, bounded * advantage)
                    clipped += int((ratio != bounded).sum())
                    loss = loss - surrogate.sum() / total_tokens  # token-level mean over the whole batch
                loss.backward()
                losses.append(float(loss.detach()))
            grad_norm = float(torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.config.max_grad_norm))
            self.optimizer.step()
        self.model.eval()
        return {"loss": sum(losses) / self.config.epochs, "tokens": float(total_tokens),
                "clip_fraction": clipped / (total_tokens * self.config.epochs), "grad_norm": grad_norm,
                "samples": float(len(usable))}
