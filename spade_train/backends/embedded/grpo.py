"""A GRPO-style policy update for a causal LM, small enough to read in one sitting.

Each training sample is one model completion (a designer's environment, or one agent turn) with the
log-probabilities it was sampled with and a group-normalised advantage (``spade_train.advantages``).
The turns of one episode are read from one shared row (``pack_sequences``): each is a prefix of the next.
The loss is the clipped surrogate of PPO with the asymmetric clip of the reference recipe
(0.2 below, 0.28 above), averaged over the completion tokens of each mini-batch:

    ratio = exp(logp_new - logp_old)
    loss  = -mean_tokens( min(ratio * A, clip(ratio, 1 - 0.2, 1 + 0.28) * A) )

A batch is split into mini-batches with one optimizer step each (``mini_batch``; None: one step per
batch), as PPO does; the importance ratio keeps later steps honest about the policy having moved. The
trainer reads its settings from the run configuration's ``[grpo]`` section as they are.

Two optional regularisers per role act on every completion token of that role, whatever its advantage:

- ``kl_to_reference``: ``coef * KL(policy || reference)`` over the whole next-token distribution, where
  the reference is a frozen copy of the model (the embedded run takes it after the warm-up);
- ``entropy_bonus``: ``- coef * entropy`` of the next-token distribution.

Self-play needs one of them for the designer: a designer whose batch has collapsed onto one design
scores every sample alike, so GRPO has no advantage left to move it with, while the agent memorises that
design and regret falls to zero. Both keep it spread; the KL term also keeps it in its reply format,
because the reference puts no mass where a malformed reply goes, while an entropy bonus spreads mass
over every token, including the ones that end a reply early (measured: a run with the bonus drifted out
of format for its last ten iterations).

Log-probabilities are computed at the sampling temperature, because that is the distribution the
tokens were drawn from (``TransformersPolicy`` records "processed" log-probabilities).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import torch

from spade_train.config.sections import GRPOSection


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
class Packing:
    """The sequences one forward pass computes for a list of samples: ``rows`` (token ids), the
    temperature of each row, and for each sample the row that holds its prompt and completion."""

    rows: list[list[int]]
    temperatures: list[float]
    row_of: list[int]


def pack_sequences(samples: Sequence[TrainingSample], default_temperature: float) -> Packing:
    """Share one row among the samples whose whole sequence (prompt and completion) is a prefix of a longer
    sample's at the same temperature: the turns of one episode, where each turn's prompt is the previous
    turn's prompt and completion with the next observation after it.

    A causal model's log-probabilities at a position depend only on the tokens before it, so a sample's
    completion read from inside a longer row is the same as read from a row of its own, and an episode of
    T turns costs one forward over its last turn instead of T forwards over ever-longer prefixes (measured
    on the embedded default, 2-core VM: an iteration's update went from about 4.5 s to 1.8 s). Samples that
    are nobody's prefix get a row of their own, so any list of samples packs correctly.
    """
    order = sorted(range(len(samples)), key=lambda i: -(len(samples[i].prompt_ids) + len(samples[i].completion_ids)))
    rows: list[list[int]] = []
    temperatures: list[float] = []
    row_of = [0] * len(samples)
    for index in order:
        sample = samples[index]
        sequence = sample.prompt_ids + sample.completion_ids
        temperature = sample.temperature or default_temperature
        for row, (candidate, row_temperature) in enumerate(zip(rows, temperatures)):
            if row_temperature == temperature and len(candidate) >= len(sequence) \
                    and candidate[: len(sequence)] == sequence:
                row_of[index] = row
                break
        else:
            row_of[index] = len(rows)
            rows.append(sequence)
            temperatures.append(temperature)
    return Packing(rows, temperatures, row_of)


class GRPOTrainer:
    """Owns the optimizer; ``step`` applies one update from a batch of samples.

    ``temperature`` is the one log-probabilities are computed at for samples that do not carry their own.
    """

    def __init__(self, model: Any, config: GRPOSection, *, temperature: float = 0.6, pad_token_id: int = 0,
                 reference: Any | None = None) -> None:
        if config.kl_to_reference and reference is None:
            raise ValueError("kl_to_reference needs a reference model (pass reference=...)")
        self.model = model
        self.config = config
        self.temperature = temperature
        self.pad_token_id = pad_token_id
        self.reference = reference
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=config.learning_rate, weight_decay=0.0)

    def token_logprobs(self, samples: Sequence[TrainingSample]) -> list[torch.Tensor]:
        """Log-probabilities of each sample's completion tokens under the current model (with grad)."""
        return self._completion_logprobs(samples)[0]

    def _completion_logprobs(
        self, samples: Sequence[TrainingSample]
    ) -> tuple[list[torch.Tensor], list[torch.Tensor | None], list[torch.Tensor | None]]:
        """Per sample: the completion tokens' log-probabilities, the regularisers' penalty per token (None
        for a role without any), both at the sampling temperature, with grad, and the per-token KL to the
        reference (None for a role without ``kl_to_reference``), which the trainer reports."""
        packing = pack_sequences(samples, self.temperature)
        width = max(len(seq) for seq in packing.rows)
        ids = torch.full((len(packing.rows), width), self.pad_token_id, dtype=torch.long)
        mask = torch.zeros((len(packing.rows), width), dtype=torch.long)
        for row, seq in enumerate(packing.rows):
            ids[row, : len(seq)] = torch.tensor(seq, dtype=torch.long)
            mask[row, : len(seq)] = 1
        device = next(self.model.parameters()).device
        ids, mask = ids.to(device), mask.to(device)
        temperatures = torch.tensor(packing.temperatures, device=device)
        logits = self.model(input_ids=ids, attention_mask=mask).logits.float() / temperatures.view(-1, 1, 1)
        logprobs = torch.log_softmax(logits[:, :-1], dim=-1)
        picked = logprobs.gather(-1, ids[:, 1:].unsqueeze(-1)).squeeze(-1)
        rows = packing.row_of
        spans = [slice(len(s.prompt_ids) - 1, len(s.prompt_ids) - 1 + len(s.completion_ids)) for s in samples]
        regularised = [self._regularised(s) for s in samples]
        if not any(regularised):
            return ([picked[rows[i], span] for i, span in enumerate(spans)], [None] * len(samples),
                    [None] * len(samples))
        # Each position of a row belongs to at most one sample's completion (or to identical copies of it),
        # whose role sets its coefficients; a position outside every completion is never read.
        entropy_coef = torch.zeros_like(picked)
        kl_coef = torch.zeros_like(picked)
        for i, (sample, span) in enumerate(zip(samples, spans)):
            entropy_coef[rows[i], span] = self._coef(sample, self.config.entropy_bonus)
            kl_coef[rows[i], span] = self._coef(sample, self.config.kl_to_reference)
        penalty = torch.zeros_like(picked)
        if bool(entropy_coef.any()):
            entropy = -(logprobs.exp() * logprobs).sum(-1)
            penalty = penalty - entropy_coef * entropy
        divergence = None
        if bool(kl_coef.any()):
            with torch.no_grad():
                reference = self.reference(input_ids=ids, attention_mask=mask).logits.float()
                reference = torch.log_softmax(reference[:, :-1] / temperatures.view(-1, 1, 1), dim=-1)
            divergence = (logprobs.exp() * (logprobs - reference)).sum(-1)
            penalty = penalty + kl_coef * divergence
        return ([picked[rows[i], span] for i, span in enumerate(spans)],
                [penalty[rows[i], span] if regularised[i] else None for i, span in enumerate(spans)],
                [divergence[rows[i], span] if divergence is not None and self._coef(s, self.config.kl_to_reference)
                 else None for i, (s, span) in enumerate(zip(samples, spans))])

    @staticmethod
    def _coef(sample: TrainingSample, weights: Mapping[str, float]) -> float:
        return weights.get(sample.role, 0.0)

    def _regularised(self, sample: TrainingSample) -> bool:
        """Whether a regulariser acts on this sample's role (it is then trained even at advantage 0)."""
        return bool(self._coef(sample, self.config.entropy_bonus) or self._coef(sample, self.config.kl_to_reference))

    def step(self, samples: Sequence[TrainingSample]) -> dict[str, float | None]:
        """``epochs`` passes over the batch (``role_epochs`` for its role, where set), one optimizer step per
        mini-batch; returns training metrics."""
        usable = [s for s in samples if s.completion_ids and (s.advantage != 0.0 or self._regularised(s))]
        if not usable:  # no update: nothing was measured (None, a gap in the curves), not a loss of 0
            return {"loss": None, "tokens": 0.0, "clip_fraction": None, "grad_norm": None, "kl": None,
                    "samples": 0.0, "optimizer_steps": 0.0}
        size = self.config.mini_batch or len(usable)
        self.model.train()
        losses, clipped, tokens_seen, grad_norm, steps = [], 0, 0, 0.0, 0
        kl_total, kl_tokens = 0.0, 0
        for _ in range(self._epochs(usable)):
            for start in range(0, len(usable), size):
                update = self._update(usable[start : start + size])
                grad_norm = float(torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.config.max_grad_norm))
                self.optimizer.step()
                losses.append(update.loss)
                clipped += update.clipped
                tokens_seen += update.tokens
                kl_total += update.kl_sum
                kl_tokens += update.kl_tokens
                steps += 1
        self.model.eval()
        return {"loss": sum(losses) / len(losses), "tokens": float(sum(len(s.completion_ids) for s in usable)),
                "clip_fraction": clipped / tokens_seen, "grad_norm": grad_norm,
                "kl": kl_total / kl_tokens if kl_tokens else None, "samples": float(len(usable)),
                "optimizer_steps": float(steps)}

    def _epochs(self, samples: Sequence[TrainingSample]) -> int:
        """The passes over a batch: its role's ``role_epochs``, else ``epochs``. The trainer updates one
        role at a time; a batch mixing roles that are given different passes is refused."""
        passes = {self.config.role_epochs.get(sample.role, self.config.epochs) for sample in samples}
        if len(passes) > 1:
            raise ValueError(f"a batch mixes roles with different grpo.role_epochs ({sorted(passes)}); "
                             "update one role at a time")
        return passes.pop()

    def _update(self, batch: Sequence[TrainingSample]) -> _Update:
        """Accumulate the gradient of one mini-batch's loss (token-level mean)."""
        total_tokens = sum(len(s.completion_ids) for s in batch)
        self.optimizer.zero_grad(set_to_none=True)
        total, clipped, kl_sum, kl_tokens = 0.0, 0, 0.0, 0
        for start in range(0, len(batch), self.config.micro_batch):
            chunk = batch[start : start + self.config.micro_batch]
            terms = []
            logprobs, penalties, divergences = self._completion_logprobs(chunk)
            for divergence in divergences:
                if divergence is not None:
                    kl_sum += float(divergence.detach().sum())
                    kl_tokens += divergence.numel()
            for sample, logp, penalty in zip(chunk, logprobs, penalties):
                old = torch.tensor(sample.old_logprobs, dtype=torch.float32, device=logp.device)
                ratio = torch.exp(logp - old)
                advantage = torch.full_like(ratio, sample.advantage)
                bounded = torch.clamp(ratio, 1 - self.config.clip_low, 1 + self.config.clip_high)
                surrogate = torch.minimum(ratio * advantage, bounded * advantage)
                clipped += int((ratio != bounded).sum())
                terms.append(surrogate.sum() if penalty is None else surrogate.sum() - penalty.sum())
            loss = -torch.stack(terms).sum() / total_tokens  # token-level mean over the mini-batch
            loss.backward()
            total += float(loss.detach())
        return _Update(total, clipped, total_tokens, kl_sum, kl_tokens)


@dataclass(frozen=True)
class _Update:
    """What one mini-batch's update measured."""

    loss: float
    clipped: int
    """Completion tokens whose importance ratio was clipped."""
    tokens: int
    kl_sum: float
    """KL(policy || reference) summed over the completion tokens of roles with ``kl_to_reference``."""
    kl_tokens: int
