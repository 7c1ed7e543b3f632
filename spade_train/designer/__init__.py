"""The designer role: the prompts that ask for an environment, the parser that reads the answer, the design
languages that pair them (``language``: python; ``signal_language``: the embedded one) and the skills."""

from spade_train.designer.parser import ParseResult, extract_environment_code, parse_environment_response
from spade_train.designer.prompts import (
    DesignerPrompt,
    ReferenceExample,
    build_designer_messages,
    repair_messages,
)
from spade_train.designer.skills import (
    DEFAULT_GAME_SKILLS,
    ENV_KINDS,
    PROMPT_GAME_SKILLS,
    TOOL_USE_SKILLS,
    default_skills_for,
    skills_for,
)

__all__ = [
    "DEFAULT_GAME_SKILLS",
    "ENV_KINDS",
    "PROMPT_GAME_SKILLS",
    "TOOL_USE_SKILLS",
    "DesignerPrompt",
    "ParseResult",
    "ReferenceExample",
    "build_designer_messages",
    "default_skills_for",
    "extract_environment_code",
    "parse_environment_response",
    "repair_messages",
    "skills_for",
]
