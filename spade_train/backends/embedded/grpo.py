"""A GRPO-style policy update for a causal LM, small enough to read in one sitting.

Each training sample is one model completion (a designer's environment, or one agent turn) with the
log-probabilities it was sampled with and a group-normalised advantage (``spade_train.advantages``).
The loss is the clipped surrogate of PPO with the asymmetric clip of the reference recipe
(0.2 below, 0.28 above), averaged over the completion tokens of each mini-batch, no KL term:

    ratio = exp(logp_new - logp_old)
    loss  = -mean_tokens( min(ratio * A, clip(ratio, 1 - 0.2, 1 + 0.28) * A) )

A batch is split into mini-batches with one optimizer step each (``mini_batch``; None: one step per
batch), as PPO does; the importance ratio keeps later steps honest about the policy having moved.

An optional entropy bonus per role (``entropy_bonus``) adds ``coef * entropy`` of the next-token
distribution at each completion token of that role. Self-play needs it for the designer: a designer
whose batch has collapsed onto one design scores every sample alike, so GRPO has no advantage left to
move it with, while the agent memorises that design and regret falls to zero. The bonus applies to a
role's samples whatever their advantage, so it still acts on a collapsed batch.

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
    temperature: float | None = None
    """The temperature the completion was sampled at (None: the trainer's configured one)."""

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
    mini_batch: int | None = None
    """Samples per optimizer step; None takes one step over the whole batch. Smaller mini-batches give
    several clipped steps per batch (as PPO does), which a small model trained briefly needs."""
    micro_batch: int = 8
    """Samples per forward/backward pass (memory only; does not change the update)."""
    max_grad_norm: float = 1.0
    entropy_bonus: tuple[tuple[str, float], ...] = ()
    """(role, coefficient) pairs: reward the entropy of that role's token distributions (see above)."""


class GRPOTrainer:
    """Owns the optimizer; ``step`` applies one update from a batch of samples."""

    def __init__(self, model: Any, config: GRPOConfig, *, pad_token_id: int = 0) -> None:
        self.model = model
        self.config = config
        self.pad_token_id = pad_token_id
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=config.learning_rate, weight_decay=0.0)

    def token_logprobs(self, samples: Sequence[TrainingSample]) -> list[torch.Tensor]:
        """Log-probabilities of each sample's completion tokens under the current model (with grad)."""
        return self._completion_logprobs(samples)[0]

    def _completion_logprobs(self, samples: Sequence[TrainingSample]) -> tuple[list[torch.Tensor], list[torch.Tensor]]:
        """Per sample: the completion tokens' log-probabilities, and the entropy of the distribution
        each was drawn from (both at the sampling temperature, with grad)."""
        sequences = [s.prompt_ids + s.completion_ids for s in samples]
        width = max(len(seq) for seq in sequences)
        ids = torch.full((len(samples), width), self.pad_token_id, dtype=torch.long)
        mask = torch.zeros((len(samples), width), dtype=torch.long)
        for row, seq in enumerate(sequences):
            ids[row, : len(seq)] = torch.tensor(seq, dtype=torch.long)
            mask[row, : len(seq)] = 1
        device = next(self.model.parameters()).device
        ids, mask = ids.to(device), mask.to(device)
        temperatures = torch.tensor([s.temperature or self.config.temperature for s in samples], device=device)
        logits = self.model(input_ids=ids, attention_mask=mask).logits.float() / temperatures.view(-1, 1, 1)
        logprobs = torch.log_softmax(logits[:, :-1], dim=-1)
        picked = logprobs.gather(-1, ids[:, 1:].unsqueeze(-1)).squeeze(-1)
        spans = [slice(len(s.prompt_ids) - 1, len(s.prompt_ids) - 1 + len(s.completion_ids)) for s in samples]
        if not any(self._entropy_coef(s) for s in samples):
            return [picked[row, span] for row, span in enumerate(spans)], []
        entropy = -(logprobs.exp() * logprobs).sum(-1)
        return [picked[row, span] for row, span in enumerate(spans)], [entropy[row, span] for row, span in enumerate(spans)]

    def _entropy_coef(self, sample: TrainingSample) -> float:
        return dict(self.config.entropy_bonus).get(sample.role, 0.0)

    def step(self, samples: Sequence[TrainingSample]) -> dict[str, float]:
        """``epochs`` passes over the batch, one optimizer step per mini-batch; returns training metrics."""
        usable = [s for s in samples if s.completion_ids and (s.advantage != 0.0 or self._entropy_coef(s))]
        if not usable:
            return {"loss": 0.0, "tokens": 0.0, "clip_fraction": 0.0, "grad_norm": 0.0, "samples": 0.0,
                    "optimizer_steps": 0.0}
        size = self.config.mini_batch or len(usable)
        self.model.train()
        losses, clipped, tokens_seen, grad_norm, steps = [], 0, 0, 0.0, 0
        for _ in range(self.config.epochs):
            for start in range(0, len(usable), size):
                loss, clipped_here, tokens = self._update(usable[start : start + size])
                grad_norm = float(torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.config.max_grad_norm))
                self.optimizer.step()
                losses.append(loss)
                clipped += clipped_here
                tokens_seen += tokens
                steps += 1
        self.model.eval()
        return {"loss": sum(losses) / len(losses), "tokens": float(sum(len(s.completion_ids) for s in usable)),
                "clip_fraction": clipped / tokens_seen, "grad_norm": grad_norm, "samples": float(len(usable)),
                "optimizer_steps": float(steps)}

    def _update(self, batch: Sequence[TrainingSample]) -> tuple[float, int, int]:
        """Accumulate the gradient of one mini-batch's loss (token-level mean); returns loss, clipped, tokens."""
        total_tokens = sum(len(s.completion_ids) for s in batch)
        self.optimizer.zero_grad(set_to_none=True)
        total, clipped = 0.0, 0
        for start in range(0, len(batch), self.config.micro_batch):
            chunk = batch[start : start + self.config.micro_batch]
            terms = []
            logprobs, entropies = self._completion_logprobs(chunk)
            for row, (sample, logp) in enumerate(zip(chunk, logprobs)):
                old = torch.tensor(sample.old_logprobs, dtype=torch.float32, device=logp.device)
                ratio = torch.exp(logp - old)
                advantage = torch.full_like(ratio, sample.advantage)
                bounded = torch.clamp(ratio, 1 - self.config.clip_low, 1 + self.config.clip_high)
                surrogate = torch.minimum(ratio * advantage, bounded * advantage)
                clipped += int((ratio != bounded).sum())
                coef = self._entropy_coef(sample)
                terms.append(surrogate.sum() + coef * entropies[row].sum() if coef else surrogate.sum())
            loss = -torch.stack(terms).sum() / total_tokens  # token-level mean over the mini-batch
            loss.backward()
            total += float(loss.detach())
        return total, clipped, total_tokens
