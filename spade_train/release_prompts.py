"""The SPADE release's own prompts, read from a local checkout of it (``semantics.release_dir``).

This toolkit writes its own designer, hint and agent prompts: they name the sandbox's rules and the
checker's limits, which the release's do not. A run that reproduces the paper can use the release's
instead. Point ``semantics.release_dir`` at a checkout of ``spade-rl/spade`` and the run builds them
as the release does:

- **designer** (``ReleasePrompts.designer_messages``): the system prompt of the multi-turn game template,
  then one user message: the corpus-grounded game prompt with the document
  (``spade/core/prompts/corpus_template.py``), or without a document the multi-turn game prompt
  (``template.py``), or for tool use the tool-use prompt (``tool_use_template.py``), followed by the
  memory's examples as ``_augment_prompt_with_memory`` appends them (``spade/core/orchestrator.py:1204-1227``,
  with ``env_memory.py:125-151``'s formatting);
- **hint** (``hint_messages``): the hint system prompt for the game's type and the code in a fenced block
  (``spade/core/hint_generator.py:20-84, 236-245``);
- **agent** (``agent_message``): no system prompt; the first observation, with the hint after it
  (``types.py:157``), wrapped in the ``qwen3_game`` template (``orchestrator.py:256-267``); later turns
  are the plain observation;
- **environment validator** (``validator_messages``, with ``loop.judge = "self"``): the validator's system
  prompt and template for the game's type, with the code (``spade/core/env_validator.py``).

The template text comes from the checkout itself: its three prompt modules are loaded by file path (they
import nothing beyond the standard library), and the skill table and the hint prompts are read from
their files as literals, without running them. What the release writes inline (the memory block, the
``qwen3_game`` wrapper, the hint's user message) is rebuilt here from the cited lines. The corpus-grounded
game prompt is then the release's byte for byte; the prompts without a document, and tool use's, draw
examples and domains from Python's global random state in the release, so they match its text but not
its draws.
"""

from __future__ import annotations

import ast
import importlib.util
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from spade_envs.errors import SpadeError
from spade_train.policies.base import Message

FILES = {
    "template": "spade/core/prompts/template.py",
    "corpus": "spade/core/prompts/corpus_template.py",
    "tool_use": "spade/core/prompts/tool_use_template.py",
    "skills": "spade/core/game_generator.py",
    "hints": "spade/core/hint_generator.py",
    "types": "spade/core/types.py",
    "validator": "spade/core/env_validator.py",
}
"""The release files read, relative to the checkout."""

DIFFICULTY = "medium"
"""``--spade-game-difficulty medium`` in every launch script."""

AGENT_WRAPPER = ("You are playing a language game. Make valid actions to win.\n"
                 "Observation: {observation}\n"
                 "Please reason step by step, and put your final answer within \\boxed{{}}.")
"""The ``qwen3_game`` template (``spade/core/orchestrator.py:256-267``), as a ``str.format`` pattern."""


def prompts_line(release_dir: str | None, mode: str) -> str | None:
    """What a run says about its prompts: in reference mode, whose they are (None in toolkit mode without a
    checkout, where this toolkit's prompts are the point)."""
    if release_dir is not None:
        return f"prompts: the release's designer, hint and agent prompts, from {release_dir}"
    if mode == "reference":
        return ("prompts: this toolkit's designer, hint and agent prompts, which carry the release's inputs in "
                "another text (semantics.release_dir, a checkout of spade-rl/spade, gives the release's own)")
    return None


class ReleasePromptsError(SpadeError):
    """The release checkout cannot give its prompts; the message names the file and the fix."""


@dataclass(frozen=True)
class ReleasePrompts:
    """The release's prompt builders and texts, loaded from one checkout (``load``)."""

    root: Path
    template: ModuleType
    corpus: ModuleType
    tool_use: ModuleType
    cognitive_skills: dict[str, Any]
    hint_system: str
    tool_use_hint_system: str
    hint_injection: str
    validator: tuple[str, str]
    """The environment validator's system prompt and user template (``{game_code}``) for games."""
    tool_use_validator: tuple[str, str]
    """The same for tool use."""

    @classmethod
    def load(cls, root: str | Path) -> ReleasePrompts:
        root = Path(root).expanduser()
        missing = [name for name in FILES.values() if not (root / name).is_file()]
        if missing:
            raise ReleasePromptsError(f"semantics.release_dir {root} is not a checkout of the SPADE release: it lacks "
                                      f"{', '.join(missing)}; point it at a clone of spade-rl/spade, or unset it")
        return cls(root=root, template=_module(root, "template"), corpus=_module(root, "corpus"),
                   tool_use=_module(root, "tool_use"),
                   cognitive_skills=_class_literal(root, "skills", "SyntheticGameGenerator", "COGNITIVE_SKILLS"),
                   hint_system=_literal(root, "hints", "HINT_SYSTEM_PROMPT"),
                   tool_use_hint_system=_literal(root, "hints", "TOOL_USE_HINT_SYSTEM_PROMPT"),
                   hint_injection=_field_default(root, "types", "hint_injection_template"),
                   validator=(_literal(root, "validator", "ENV_VALIDATION_SYSTEM_PROMPT"),
                              _literal(root, "validator", "ENV_VALIDATION_PROMPT_TEMPLATE")),
                   tool_use_validator=(_literal(root, "validator", "TOOL_USE_ENV_VALIDATION_SYSTEM_PROMPT"),
                                       _literal(root, "validator", "TOOL_USE_ENV_VALIDATION_PROMPT_TEMPLATE")))

    # ------------------------------------------------------------------ designer
    def supports(self, kind: str) -> bool:
        """Whether the release has a designer prompt for ``kind`` (its games and tool use)."""
        return kind in ("multi_turn_game", "corpus_grounded", "tool_use")

    def designer_messages(self, prompt: Any) -> list[Message]:
        """The release's designer messages for a ``DesignerPrompt`` (kind, skill, document, examples)."""
        document = prompt.document.text if prompt.document is not None else None
        if prompt.kind == "tool_use":
            skills = self.tool_use.TOOL_USE_SKILLS
            info = skills.get(prompt.skill, {"description": prompt.skill})
            # The release picks the multi-instruction variant with SPADE_MULTITURN_ENV_GEN=1 (get_env_gen_prompt_fn).
            build = (self.tool_use.generate_tool_use_prompt_multiturn if prompt.multi_instruction
                     else self.tool_use.generate_tool_use_prompt)
            content = build(prompt.skill, info, DIFFICULTY, document or "")
            messages = [{"role": "user", "content": self._with_memory(content, prompt)}]
            return messages  # the tool-use template passes the user message through (orchestrator.py:280-282)
        info = self.cognitive_skills.get(prompt.skill, {"description": prompt.skill, "example_games": []})
        if document is not None:
            content = self.corpus.generate_corpus_grounded_prompt(prompt.skill, info, DIFFICULTY, document)
        else:
            content = self.template.generate_multiturn_game_generation_prompt(prompt.skill, info, DIFFICULTY,
                                                                              max_turns=prompt.max_turns)
        return [{"role": "system", "content": self.template.MULTITURN_GAME_GENERATION_SYSTEM_PROMPT},
                {"role": "user", "content": self._with_memory(content, prompt)}]

    @staticmethod
    def _with_memory(content: str, prompt: Any) -> str:
        """``_augment_prompt_with_memory``: the positive examples in a block, then the negative lines."""
        from spade_train.designer.prompts import MAX_EXAMPLE_CHARS, example_label

        positives = [e for e in prompt.examples if example_label(e) == "positive"]
        negatives = [e for e in prompt.examples if example_label(e) != "positive"]
        if positives:
            seeds = "\n\n".join(
                f"### Example {i} (skill: {e.skill}, win_rate: {e.win_rate:.2f}, regret: {e.regret:.2f})\n"
                f"```python\n{e.code[:MAX_EXAMPLE_CHARS]}\n```" for i, e in enumerate(positives, 1))
            content += ("\n\n<REFERENCE_ENVIRONMENTS>\n"
                        "Here are examples of effective training environments with "
                        "good difficulty calibration. Use them as inspiration for "
                        "structure and complexity, but create a DIFFERENT game:\n\n"
                        f"{seeds}\n"
                        "</REFERENCE_ENVIRONMENTS>\n")
        if negatives:
            lines = [f"- {'too easy' if e.win_rate > 0.9 else 'too hard'} (win_rate={e.win_rate:.2f}): "
                     f"class {_class_name(e.code)}" for e in negatives]
            content += "\nAvoid generating environments like:\n" + "\n".join(lines) + "\n"
        return content

    # ------------------------------------------------------------------ hint and agent
    def hint_messages(self, code: str, *, tool_use: bool) -> list[Message]:
        return [{"role": "system", "content": self.tool_use_hint_system if tool_use else self.hint_system},
                {"role": "user", "content": f"Environment code:\n```python\n{code}\n```"}]

    def validator_messages(self, code: str, *, tool_use: bool) -> list[Message]:
        """The environment validator's messages for a design (``EnvironmentValidator.validate_async``)."""
        system, template = self.tool_use_validator if tool_use else self.validator
        return [{"role": "system", "content": system}, {"role": "user", "content": template.format(game_code=code)}]

    def agent_message(self, observation: str, hint: str | None) -> str:
        """The agent's first user message: the observation (with the hint after it), in ``qwen3_game``."""
        if hint is not None:
            observation = self.hint_injection.format(observation=observation, hint=hint)
        return AGENT_WRAPPER.format(observation=observation)


def _class_name(code: str) -> str:
    """The environment's class name: what the release's negative line names (its file's stem there)."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return "environment"
    names = [node.name for node in tree.body if isinstance(node, ast.ClassDef)]
    return next((name for name in names if name.endswith("Env")), names[0] if names else "environment")


def _module(root: Path, key: str) -> ModuleType:
    path = root / FILES[key]
    spec = importlib.util.spec_from_file_location(f"spade_release_{key}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as error:  # noqa: BLE001 - any failure of the checkout's file is its one-line error
        raise ReleasePromptsError(f"{path} does not load ({type(error).__name__}: {error}); check out the "
                                  "release's commit 9b2b813e, or unset semantics.release_dir") from None
    return module


def _tree(root: Path, key: str) -> ast.Module:
    path = root / FILES[key]
    try:
        return ast.parse(path.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError) as error:
        raise ReleasePromptsError(f"{path} cannot be read ({error}); unset semantics.release_dir or repair the "
                                  "checkout") from None


def _assigned(body: list[ast.stmt], name: str) -> ast.expr | None:
    for node in body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
            return node.value
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == name:
            return node.value
    return None


def _evaluated(root: Path, key: str, value: ast.expr | None, what: str) -> Any:
    if value is None:
        raise ReleasePromptsError(f"{root / FILES[key]} defines no {what}; check out the release's commit "
                                  "9b2b813e, or unset semantics.release_dir")
    try:
        return ast.literal_eval(value)
    except ValueError:
        raise ReleasePromptsError(f"{what} in {root / FILES[key]} is not a literal; check out the release's commit "
                                  "9b2b813e, or unset semantics.release_dir") from None


def _literal(root: Path, key: str, name: str) -> Any:
    return _evaluated(root, key, _assigned(_tree(root, key).body, name), name)


def _class_literal(root: Path, key: str, class_name: str, name: str) -> Any:
    for node in _tree(root, key).body:
        if isinstance(node, ast.ClassDef) and node.name == class_name:
            return _evaluated(root, key, _assigned(node.body, name), f"{class_name}.{name}")
    return _evaluated(root, key, None, f"{class_name}.{name}")


def _field_default(root: Path, key: str, name: str) -> Any:
    for node in ast.walk(_tree(root, key)):
        if isinstance(node, ast.ClassDef):
            value = _assigned(node.body, name)
            if value is not None:
                return _evaluated(root, key, value, name)
    return _evaluated(root, key, None, name)
