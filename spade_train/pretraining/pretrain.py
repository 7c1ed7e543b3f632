"""Pretraining a tiny designer on the generated programs: what lets it write Python in self-play.

The tiny model starts from random weights. ``pretrain`` gives it what a pretrained model brings: it
draws a corpus (``programs.generate_corpus``, a quarter of it defective, so invalid programs are in its
distribution too), trains a byte-level BPE tokenizer on it (code needs every byte: indentation, quotes,
backslashes) and trains a small causal LM on the programs as designer replies, each after the compact
designer request naming the environment kind (``design.prompt = "compact"``) in the chat template, the
loss on the reply only: the request self-play then sends.

``spade-train pretrain --config FILE --out DIR`` runs it with the file's ``[pretraining]`` settings and
``run.seed``, saves the model and tokenizer as a checkpoint in ``DIR/model`` and writes its figures,
sampled programs checked included, to ``DIR/pretrain.json``.

``sample_programs`` then asks the model for programs. Measured on this project's 2-core VM with the
settings' defaults (3,000 programs, steps of 8, ``benchmarks/python_designer_pretrain.py``), 12 programs
sampled at temperature 0.3 through the real checker:

- after 300 steps (67 s of training): 3 passed, 5 had syntax errors, 4 failed semantic checks;
- after 600 steps (130 s): 8 passed, none had a syntax error, and the other 4 failed semantic checks
  (one task whatever the seed twice, garbage actions winning, a solution that breaks the contract).

One of the 12 repeated a corpus program verbatim; all 12 were near-duplicates of one (the memory's
similarity >= 0.9, which ignores names and numbers). So the model writes programs in the contract, can
still get them wrong, and recombines what it read: where self-play starts.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from spade_envs.runtime.backend import ExecutionBackend
from spade_train.config.sections import PretrainingSection
from spade_train.designer.language import compact_request
from spade_train.pretraining.programs import Program, generate_corpus

FENCE = "```python\n"
NEAR_DUPLICATE = 0.9
"""Similarity at which a sampled program counts as a near-duplicate of a corpus program."""


def request_messages(kind: str) -> list[dict[str, str]]:
    """What the model reads before writing a program of ``kind``: the compact designer request as a user
    turn, rendered by the chat template as self-play's designer call will be (``design.prompt = "compact"``)."""
    return [{"role": "user", "content": compact_request(kind)}]


def reply_text(program: Program) -> str:
    """A program as the designer's reply: fenced, as the parser reads replies."""
    return f"{FENCE}{program.code}```\n"


@dataclass
class PretrainResult:
    model: Any
    tokenizer: Any
    losses: list[float] = field(default_factory=list)
    """The training loss of each step."""
    corpus: list[Program] = field(default_factory=list)


def pretrain(settings: PretrainingSection, *, seed: int = 0, backend: ExecutionBackend | None = None,
             on_step: Callable[[int, float], None] | None = None) -> PretrainResult:
    """Draw the corpus, train the tokenizer and the model on it; ``on_step(step, loss)`` after each step.

    The model learns each program as the reply to its kind's request, and (``hint_share``,
    ``agent_share``) the lessons of ``lessons.py``: writing a signal program's hint and playing its
    episodes, which ``backend`` (the run's sandbox) plays. The loss is on the replies (and their
    end-of-turn token) only: the warm-up's supervised steps (``warmup.supervised_steps``)."""
    from spade_envs.contract.episode import TEXT_AGENT_PROMPT
    from spade_train.backends.embedded.model import TinyModelConfig, build_causal_lm, train_bpe_tokenizer
    from spade_train.backends.embedded.warmup import WarmupExample, supervised_steps
    from spade_train.pretraining.lessons import agent_lessons, hint_lessons

    if settings.agent_share > 0 and backend is None:
        raise ValueError("pretraining's agent lessons are played in a sandbox: pass a backend, or set "
                         "pretraining.agent_share = 0")
    corpus = generate_corpus(settings.programs, seed=seed, defect_share=settings.defect_share)
    rng = random.Random(seed)
    designs = [WarmupExample(messages=request_messages(p.kind), target=reply_text(p)) for p in corpus]
    hints = hint_lessons(corpus)
    plays = (agent_lessons(corpus, backend, rng, system_prompt=TEXT_AGENT_PROMPT)
             if backend is not None and settings.agent_share > 0 else [])
    examples = (designs + _share(hints, settings.hint_share, len(designs), settings, rng)
                + _share(plays, settings.agent_share, len(designs), settings, rng))
    texts = ([compact_request(p.kind) + reply_text(p) for p in corpus] + [TEXT_AGENT_PROMPT]
             + [example.target for example in hints[:200]])
    tokenizer = train_bpe_tokenizer(texts, settings.vocab_size)
    shape = TinyModelConfig(hidden_size=settings.hidden_size, num_layers=settings.num_layers,
                            num_heads=settings.num_heads, max_positions=settings.max_positions, seed=seed)
    model = build_causal_lm(tokenizer, shape, seed=seed)
    losses: list[float] = []

    def step_done(step: int, loss: float) -> None:
        losses.append(loss)
        if on_step is not None:
            on_step(step + 1, loss)

    import torch

    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        supervised_steps(model, tokenizer, examples, steps=settings.steps, batch_size=settings.batch_size,
                         learning_rate=settings.learning_rate, rng=rng, on_step=step_done)
    model.eval()
    return PretrainResult(model=model, tokenizer=tokenizer, losses=losses, corpus=corpus)


def _share(lessons: list[Any], share: float, designs: int, settings: PretrainingSection,
           rng: random.Random) -> list[Any]:
    """``lessons`` drawn (with replacement) so that they make ``share`` of all examples beside ``designs``
    programs and the other lessons' shares."""
    if not lessons or share == 0:
        return []
    rest = 1.0 - settings.hint_share - settings.agent_share
    return [rng.choice(lessons) for _ in range(round(designs * share / rest))]


def sample_programs(model: Any, tokenizer: Any, kinds: Sequence[str], *, temperature: float, max_tokens: int,
                    seed: int = 0) -> list[str]:
    """One reply per kind in ``kinds``, to the request self-play's compact designer call sends."""
    import torch

    replies = []
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        for kind in kinds:
            text = tokenizer.apply_chat_template(request_messages(kind), add_generation_prompt=True, tokenize=False)
            prompt = tokenizer(text, return_tensors="pt", add_special_tokens=False)
            with torch.no_grad():
                out = model.generate(**prompt, max_new_tokens=max_tokens, do_sample=True, temperature=temperature,
                                     top_k=0, top_p=1.0, pad_token_id=tokenizer.pad_token_id)
            replies.append(tokenizer.decode(out[0][prompt["input_ids"].shape[1]:], skip_special_tokens=True))
    return replies


@dataclass(frozen=True)
class SampleCheck:
    """Sampled programs put through the checker: how many parse, pass, and why the others fail."""

    samples: int
    parsed: int
    valid: int
    verbatim: int
    """Programs that are a corpus program to the letter."""
    near_duplicate: int
    """Programs the memory's measure finds near a corpus program (similarity >= 0.9; it ignores names and
    numbers)."""
    rejected_by: dict[str, int]

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def check_samples(result: PretrainResult, settings: PretrainingSection, validate: Callable[[str], Any], *,
                  count: int, seed: int = 0) -> SampleCheck:
    """Sample ``count`` programs (kinds alternating) and judge each with ``validate`` (the checker)."""
    from spade_train.designer.parser import parse_environment_response
    from spade_train.similarity import fingerprint, jaccard

    kinds = [("single_answer", "multi_turn_game")[index % 2] for index in range(count)]
    replies = sample_programs(result.model, result.tokenizer, kinds, temperature=settings.sample_temperature,
                              max_tokens=settings.max_positions, seed=seed)
    known = {program.code for program in result.corpus}
    prints = [fingerprint(program.code) for program in result.corpus]
    parsed = valid = verbatim = near = 0
    reasons: dict[str, int] = {}
    for reply in replies:
        code = parse_environment_response(reply).code
        if code is None:
            reasons["no code"] = reasons.get("no code", 0) + 1
            continue
        parsed += 1
        verbatim += code in known
        probe = fingerprint(code)
        near += any(jaccard(probe, known_print) >= NEAR_DUPLICATE for known_print in prints)
        report = validate(code)
        if report.ok:
            valid += 1
        else:
            check = report.failures[0].check
            reasons[check] = reasons.get(check, 0) + 1
    return SampleCheck(samples=count, parsed=parsed, valid=valid, verbatim=verbatim, near_duplicate=near,
                       rejected_by=reasons)
