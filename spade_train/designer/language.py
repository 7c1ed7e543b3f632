"""How a designer is asked for an environment and how its reply becomes environment code.

The self-play loop does not care what the designer writes, only that a reply can be turned into a
Python module for the checker. A ``DesignLanguage`` is that pair of translations (and the agent's system
prompt for the games it writes, when they need their own):

- ``PythonDesignLanguage`` (the paper's setting): the full designer prompt (contract, skills,
  document, memory examples) and a parser that pulls the module out of a free-form reply.
- ``spade_train.designer.signal_language.SignalDesignLanguage``: a compact language of a few tokens that a
  tiny CPU model can learn, rendered into real environment code by a template.

Both produce ordinary environments: everything after ``read`` (checker, sandbox, hints, regret,
memory) is the same code path. ``design_language`` builds the one a configuration names.
"""

from __future__ import annotations

from typing import Literal, Protocol, runtime_checkable

from spade_train.designer.parser import ParseResult, parse_environment_response
from spade_train.designer.prompts import DesignerPrompt
from spade_train.policies.base import GenerationRequest, SamplingParams


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


class PythonDesignLanguage:
    """The designer writes the whole Python module (the paper's setting)."""

    name = "python"
    agent_system_prompt = None

    def request(self, prompt: DesignerPrompt, sampling: SamplingParams) -> GenerationRequest:
        return prompt.request(sampling)

    def read(self, response: str) -> ParseResult:
        return parse_environment_response(response)


def design_language(name: Literal["signal", "python"]) -> DesignLanguage:
    """The design language ``design.language`` names."""
    if name == "python":
        return PythonDesignLanguage()
    if name == "signal":
        from spade_train.designer.signal_language import SignalDesignLanguage

        return SignalDesignLanguage()
    raise ValueError(f"unknown design language {name!r}; expected signal or python")
