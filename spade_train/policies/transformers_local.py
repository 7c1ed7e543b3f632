"""A local transformers model as a policy: the default backend without a GPU serving stack.

Generation is a small sampling loop over the model's KV cache rather than ``model.generate``, for
three reasons: a per-request ``torch.Generator`` makes a seeded request reproducible without
touching torch's global RNG (which ``generate`` needs re-seeding); the log-probability of every
sampled token comes out of the same step that drew it, so the trainer's ``completion_logprobs`` line
up with ``completion_token_ids`` by construction; and it depends only on ``model(input_ids,
past_key_values=...)``, which is stable across transformers releases where ``generate``'s options
are not.

torch and transformers are imported when a policy is built, not when this module is imported, so
``import spade_train.policies`` works on an SDK-only install.

Requests that arrive together can be generated as one batch (``generate_batch``, prompts padded on the
left): a tiny model's forward pass costs the same for one row as for a dozen, so lock-step rollouts
(``spade_train.rollout``) batch the turns of an environment's concurrent episodes.

Thread-safety: the model runs one batch at a time. ``generate`` hands the work to a thread
(``asyncio.to_thread``) so the event loop keeps serving environments, and that thread holds
``self.lock`` while it uses the model; concurrent requests wait for it (each waiting one occupies a
thread of the default executor). A trainer that shares the model object must hold ``policy.lock``
while it changes the weights. For throughput, serve the model with vLLM instead.
"""

from __future__ import annotations

import asyncio
import inspect
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from spade_train.policies.base import Generation, GenerationRequest, SamplingParams

if TYPE_CHECKING:
    import torch

LogprobsMode = Literal["processed", "raw"]
INSTALL_HINT = 'TransformersPolicy needs torch and transformers: pip install "spade-toolkit[train]"'


def _import_torch_and_transformers() -> tuple[Any, Any]:
    try:
        import torch
        import transformers
    except ImportError as error:
        raise ImportError(f"{INSTALL_HINT} ({error})") from None
    return torch, transformers


GENERIC_TOKENIZER_CLASSES = ("TokenizersBackend", "PreTrainedTokenizerFast")


def load_tokenizer(path: str | Path) -> Any:
    """The tokenizer saved at ``path``, loaded as it was saved.

    A checkpoint whose tokenizer is a plain ``tokenizers`` pipeline (the embedded model's word-level
    vocabulary, for instance) must be loaded as ``PreTrainedTokenizerFast``: ``AutoTokenizer`` in
    transformers 5 would pick the tokenizer class of the model's architecture (``Qwen2Tokenizer``)
    and replace the saved pre-tokenizer and decoder with that family's, silently changing every
    token id. Model-specific tokenizers (a released Qwen checkpoint's) load through ``AutoTokenizer``.
    """
    _, transformers = _import_torch_and_transformers()
    config_file = Path(path) / "tokenizer_config.json"
    if config_file.is_file():
        import json

        declared = json.loads(config_file.read_text(encoding="utf-8")).get("tokenizer_class")
        if declared in GENERIC_TOKENIZER_CLASSES:
            return transformers.PreTrainedTokenizerFast.from_pretrained(str(path))
    return transformers.AutoTokenizer.from_pretrained(str(path))


class TransformersPolicy:
    """Chat generation with a causal LM loaded by transformers (or handed over as an object).

    ``model_path_or_model`` is a local directory or hub id (loaded with ``AutoModelForCausalLM``) or
    an already-built model; ``tokenizer`` likewise (default: load it from the model path). It must
    have a chat template: the request's messages (and ``tools``) go through
    ``tokenizer.apply_chat_template(..., add_generation_prompt=True)``.

    ``device``: where a loaded model goes (default "cpu"); a model object stays where it is unless a
    device is given. ``dtype`` is passed to ``from_pretrained`` (e.g. "bfloat16").

    Sampling follows the request: ``temperature`` (0 means greedy), then ``top_k``, then ``top_p``;
    ``seed`` makes a request reproducible; ``max_tokens`` is capped by the model's context length.
    Generation stops at an end-of-sequence token (kept in ``completion_token_ids``, dropped from
    ``text``) or when the decoded text contains a ``stop`` string: ``text`` then ends before it, as
    OpenAI-compatible servers return it, while the token ids and log-probabilities keep every token
    that was sampled (they are what the trainer scores).

    ``logprobs_mode``: "processed" (default) gives each token's log-probability under the
    distribution it was drawn from (after temperature, top-k and top-p; vLLM's
    ``processed_logprobs``); "raw" gives the unmodified model's. Greedy decoding reports raw ones.
    """

    def __init__(
        self,
        model_path_or_model: str | Path | Any,
        tokenizer: str | Path | Any | None = None,
        *,
        device: str | None = None,
        dtype: str | None = None,
        name: str | None = None,
        logprobs_mode: LogprobsMode = "processed",
    ) -> None:
        torch, transformers = _import_torch_and_transformers()
        if logprobs_mode not in ("processed", "raw"):
            raise ValueError(f"logprobs_mode must be 'processed' or 'raw', got {logprobs_mode!r}")
        loaded_from_path = isinstance(model_path_or_model, (str, Path))
        if loaded_from_path:
            kwargs = {"dtype": dtype} if dtype else {}
            model = transformers.AutoModelForCausalLM.from_pretrained(str(model_path_or_model), **kwargs)
        else:
            model = model_path_or_model
        if tokenizer is None:
            if not loaded_from_path:
                raise ValueError("pass a tokenizer when the model is given as an object")
            tokenizer = str(model_path_or_model)
        if isinstance(tokenizer, (str, Path)):
            tokenizer = load_tokenizer(tokenizer)
        if device is not None or loaded_from_path:
            model = model.to(device or "cpu")
        model.eval()

        self.model = model
        self.tokenizer = tokenizer
        self.device = next(model.parameters()).device
        self.name = name or str(getattr(model, "name_or_path", "") or "transformers")
        self.logprobs_mode: LogprobsMode = logprobs_mode
        self.lock = threading.Lock()
        """Held while the model generates; hold it yourself to change the weights safely."""
        self.max_positions: int | None = getattr(model.config, "max_position_embeddings", None)
        self.eos_token_ids = _eos_token_ids(model, tokenizer)
        # transformers 5.x renamed the KV-cache argument ``past_key_values`` to ``cache``.
        forward_parameters = inspect.signature(model.forward).parameters
        self._cache_argument = "cache" if "cache" in forward_parameters else "past_key_values"
        self._torch = torch

    async def generate(self, request: GenerationRequest) -> Generation:
        return await asyncio.to_thread(self.generate_blocking, request)

    async def generate_batch(self, requests: Sequence[GenerationRequest]) -> list[Generation]:
        """Several requests in one batched pass over the model (``BatchPolicy``): what lock-step
        rollouts send (``spade_train.rollout.LockstepBatcher``)."""
        return await asyncio.to_thread(self.generate_batch_blocking, list(requests))

    def generate_blocking(self, request: GenerationRequest) -> Generation:
        """The synchronous generation behind ``generate``; safe to call from any thread. Never raises."""
        return self.generate_batch_blocking([request])[0]

    def generate_batch_blocking(self, requests: Sequence[GenerationRequest]) -> list[Generation]:
        """The synchronous generation behind ``generate_batch``; safe to call from any thread. Never raises.

        A batch is a deterministic function of its requests in their order, so a caller that forms the
        same batches (lock-step rollouts do) gets the same generations; a request's reply in a batch may
        differ from its reply alone in the last bits of its log-probabilities (kernels over other shapes)."""
        start = time.monotonic()
        try:
            with self.lock:
                generations = self._generate(list(requests))
        except Exception as error:  # noqa: BLE001 - a policy reports failures, it never raises them
            failed = Generation(text="", finish_reason="error", error=f"{type(error).__name__}: {error}")
            generations = [failed] * len(requests)
        latency = time.monotonic() - start
        return [replace(generation, latency_s=latency) for generation in generations]

    # ------------------------------------------------------------------ generation
    def render_prompt(self, request: GenerationRequest) -> list[int]:
        """The prompt's token ids: the chat template with a generation prompt, no extra specials."""
        text = self.tokenizer.apply_chat_template(
            request.messages, tools=request.tools, add_generation_prompt=True, tokenize=False)
        return list(self.tokenizer(text, add_special_tokens=False)["input_ids"])

    def _generate(self, requests: list[GenerationRequest]) -> list[Generation]:
        """Sample every request's completion in one loop over the batch: prompts padded on the left, one
        forward per new token for all rows still going, each row drawn from its own seeded generator."""
        torch = self._torch
        results: dict[int, Generation] = {}
        rows: list[_Row] = []
        for index, request in enumerate(requests):
            prompt_ids = self.render_prompt(request)
            max_new = max(0, request.sampling.max_tokens)
            if self.max_positions is not None:
                if len(prompt_ids) >= self.max_positions:
                    results[index] = Generation(
                        text="", finish_reason="error", prompt_token_ids=prompt_ids,
                        error=f"prompt of {len(prompt_ids)} tokens does not fit the model's context of "
                              f"{self.max_positions}")
                    continue
                max_new = min(max_new, self.max_positions - len(prompt_ids))
            generator = torch.Generator(device=self.device)
            if request.sampling.seed is None:
                generator.seed()  # fresh entropy: unseeded requests differ
            else:
                generator.manual_seed(request.sampling.seed)
            rows.append(_Row(index, request.sampling, prompt_ids, max_new, generator))
        if rows:
            self._sample_rows(rows)
        for row in rows:
            text = row.text if row.text is not None else self._decode(row.completion)
            results[row.index] = Generation(text=text, finish_reason=row.finish_reason,
                                            prompt_token_ids=row.prompt_ids, completion_token_ids=row.completion,
                                            completion_logprobs=row.logprobs)
        return [results[index] for index in range(len(requests))]

    def _sample_rows(self, rows: list[_Row]) -> None:
        torch = self._torch
        width = max(len(row.prompt_ids) for row in rows)
        pad = self.tokenizer.pad_token_id if self.tokenizer.pad_token_id is not None else 0
        ids = torch.full((len(rows), width), pad, dtype=torch.long)
        mask = torch.zeros((len(rows), width), dtype=torch.long)
        for r, row in enumerate(rows):
            ids[r, width - len(row.prompt_ids):] = torch.tensor(row.prompt_ids, dtype=torch.long)
            mask[r, width - len(row.prompt_ids):] = 1
        ids, mask = ids.to(self.device), mask.to(self.device)
        positions = (mask.cumsum(-1) - 1).clamp(min=0)
        going = [row.max_new > 0 for row in rows]  # a row with nothing to sample keeps finish_reason "length"
        past = None
        with torch.inference_mode():
            while any(going):
                outputs = self.model(input_ids=ids, attention_mask=mask, position_ids=positions, use_cache=True,
                                     **{self._cache_argument: past})
                past = getattr(outputs, "cache", None)
                if past is None:
                    past = outputs.past_key_values
                logits = outputs.logits[:, -1].float()
                tokens = []
                for r, row in enumerate(rows):
                    if not going[r]:
                        tokens.append(pad)
                        continue
                    token, logprob = self._sample(logits[r], row.sampling, row.generator)
                    tokens.append(token)
                    row.completion.append(token)
                    row.logprobs.append(logprob)
                    going[r] = not self._finished(row, token)
                ids = torch.tensor([[token] for token in tokens], device=self.device)
                mask = torch.cat([mask, torch.ones((len(rows), 1), dtype=mask.dtype, device=self.device)], dim=1)
                positions = positions[:, -1:] + 1

    def _finished(self, row: _Row, token: int) -> bool:
        """Whether ``token`` ends the row's completion (setting its finish reason and, at a stop string, its text)."""
        if token in self.eos_token_ids:
            row.finish_reason = "stop"
            return True
        if row.sampling.stop:
            decoded = self._decode(row.completion)
            cut = _first_stop(decoded, row.sampling.stop)
            if cut is not None:
                row.text, row.finish_reason = decoded[:cut], "stop"
                return True
        if len(row.completion) >= row.max_new:
            row.finish_reason = "length"
            return True
        return False

    def _sample(self, logits: torch.Tensor, sampling: SamplingParams, generator: torch.Generator) -> tuple[int, float]:
        """Draw one token; return it with its log-probability (see ``logprobs_mode``)."""
        torch = self._torch
        raw = torch.log_softmax(logits, dim=-1)
        if sampling.temperature <= 0:
            token = int(torch.argmax(logits))
            return token, float(raw[token])
        scores = logits / sampling.temperature
        if sampling.top_k is not None and 0 < sampling.top_k < scores.numel():
            kth_best = torch.topk(scores, sampling.top_k).values[-1]
            scores = scores.masked_fill(scores < kth_best, float("-inf"))
        if sampling.top_p < 1.0:
            sorted_scores, order = torch.sort(scores, descending=True)
            probs = torch.softmax(sorted_scores, dim=-1)
            # Drop a token once the more likely ones already cover top_p (the best is always kept).
            drop_sorted = torch.cumsum(probs, dim=-1) - probs > sampling.top_p
            scores = scores.masked_fill(drop_sorted.scatter(0, order, drop_sorted), float("-inf"))
        processed = torch.log_softmax(scores, dim=-1)
        token = int(torch.multinomial(processed.exp(), 1, generator=generator))
        return token, float(processed[token] if self.logprobs_mode == "processed" else raw[token])

    def _decode(self, token_ids: list[int]) -> str:
        return self.tokenizer.decode(token_ids, skip_special_tokens=True)


@dataclass
class _Row:
    """One request of a batch while it is sampled."""

    index: int
    sampling: SamplingParams
    prompt_ids: list[int]
    max_new: int
    generator: Any
    completion: list[int] = field(default_factory=list)
    logprobs: list[float] = field(default_factory=list)
    text: str | None = None
    """Set when a stop string ended the completion."""
    finish_reason: str = "length"


def _first_stop(text: str, stop: tuple[str, ...]) -> int | None:
    cuts = [index for index in (text.find(s) for s in stop if s) if index != -1]
    return min(cuts) if cuts else None


def _eos_token_ids(model: Any, tokenizer: Any) -> frozenset[int]:
    """End-of-sequence ids from the generation config and the tokenizer (chat models often list several)."""
    ids: set[int] = set()
    generation_config = getattr(model, "generation_config", None)
    for value in (getattr(generation_config, "eos_token_id", None), getattr(tokenizer, "eos_token_id", None)):
        if isinstance(value, int):
            ids.add(value)
        elif isinstance(value, (list, tuple)):
            ids.update(int(v) for v in value)
    return frozenset(ids)
