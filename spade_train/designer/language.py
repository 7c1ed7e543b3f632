"""How a designer is asked for an environment and how its reply becomes environment code.

The self-play loop does not care what the designer writes, only that a reply can be turned into a
Python module for the checker. A ``DesignLanguage`` is that pair of translations (and the agent's system
prompt for the games it writes, when they need their own):

- ``PythonDesignLanguage`` (the paper's setting): the full designer prompt (contract, skills,
  document, memory examples), or for a tiny pretrained model a one-line request, and a parser that
  pulls the module out of a free-form reply.
- ``spade_train.designer.signal_language.SignalDesignLanguage``: a compact language of a few tokens that a
  tiny CPU model can learn, rendered into real environment code by a template.

Both produce ordinary environments: everything after ``read`` (checker, sandbox, hints, regret,
memory) is the same code path. ``design_language`` builds the one a configuration names.
"""

from __future__ import annotations

from typing import Literal, Protocol, runtime_checkable

from spade_train.designer.parser import ParseResult, parse_environment_response
from spade_train.designer.prompts import DesignerPrompt
from spade_train.policies.base import GenerationRequest, Message, SamplingParams


@runtime_checkable
class DesignLanguage(Protocol):
    name: str
    agent_system_prompt: str | None
    """The agent's system message in this language's games; None: the rollouts' default for the kind."""

    def request(self, prompt: DesignerPrompt, sampling: SamplingParams) -> GenerationRequest:
        """The designer call for this prompt (kind, skill, document, memory examples)."""
        ...

    def read(self, response: str) -> ParseResult:
        """The environment module the reply describes, or ``code=None`` with the reason."""
        ...

    def hint_messages(self, code: str) -> list[Message] | None:
        """The hint writer's messages for ``code`` where the language has its own (None: the hint writer's
        prompt, ``spade_train.hints``)."""
        ...


DesignPrompt = Literal["full", "compact"]


def compact_request(kind: str) -> str:
    """The compact designer request: one line naming the kind, what a tiny pretrained designer was taught
    to answer with a whole module (``spade_train/pretraining``)."""
    return f"<design kind={kind}>\n"


def compact_hint_request(code: str) -> str:
    """The compact hint request: the module after one line, what a tiny pretrained hint writer answers."""
    return f"<hint>\n```python\n{code}```\n"


class PythonDesignLanguage:
    """The designer writes the whole Python module (the paper's setting).

    ``prompt = "full"`` asks with the full designer prompt (contract, skill, document, memory examples);
    ``"compact"`` with ``compact_request`` alone, for a tiny model whose context holds no full prompt
    and which pretraining taught to answer that request (the skill, document and examples are then not
    shown: the designer learns what to write from its reward alone).
    """

    name = "python"
    agent_system_prompt = None

    def __init__(self, prompt: DesignPrompt = "full") -> None:
        self.prompt = prompt

    def request(self, prompt: DesignerPrompt, sampling: SamplingParams) -> GenerationRequest:
        if self.prompt == "compact":
            return GenerationRequest(messages=[{"role": "user", "content": compact_request(prompt.kind)}],
                                     sampling=sampling, role="designer")
        return prompt.request(sampling)

    def hint_messages(self, code: str) -> list[Message] | None:
        """The hint writer's messages under ``"compact"`` (None: the hint writer's own prompt)."""
        return [{"role": "user", "content": compact_hint_request(code)}] if self.prompt == "compact" else None

    def read(self, response: str) -> ParseResult:
        return parse_environment_response(response)


def design_language(name: Literal["signal", "python"], prompt: DesignPrompt = "full") -> DesignLanguage:
    """The design language ``design.language`` names, asking as ``design.prompt`` says (Python only)."""
    if name == "python":
        return PythonDesignLanguage(prompt)
    if name == "signal":
        from spade_train.designer.signal_language import SignalDesignLanguage

        return SignalDesignLanguage()
    raise ValueError(f"unknown design language {name!r}; expected signal or python")
