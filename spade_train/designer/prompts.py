"""Designer prompts: the chat messages that ask a model to write one environment.

A designer prompt has two messages. The system message is fixed per environment kind: what the code
must look like (the contract the checker enforces, stated precisely so that the first attempt passes
more often), the kind's difficulty requirements and the output format. The user message carries what
changes per attempt: the target skill, the turn budget, the grounding document and examples from the
memory. Keeping the varying part in the user message lets servers cache the long system prefix.

The contract text is derived from the checker's own constants (the module allowlist, the forbidden
names, the file size limits) rather than copied, so the prompt cannot drift from what is enforced.
A repair turn (:func:`repair_messages`) appends the checker's feedback to the conversation.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, runtime_checkable

from spade_envs.checks.dynamic import CheckConfig
from spade_envs.checks.static import FORBIDDEN_NAMES, StaticConfig
from spade_envs.contract.allowlist import ALLOWED_MODULES
from spade_envs.contract.episode import DEFAULT_MAX_TURNS
from spade_envs.spec.models import EnvKind, GroundingRef
from spade_train.corpus import Document
from spade_train.designer.parser import strip_reasoning
from spade_train.designer.skills import ENV_KINDS, PROMPT_GAME_SKILLS, TOOL_USE_SKILLS, describe_skill
from spade_train.policies.base import GenerationRequest, Message, SamplingParams
from spade_train.semantics import NegativeExamples

MAX_EXAMPLE_CHARS = 2_000
"""Characters of code shown per memory example (the memory stores snippets of at most this length)."""

MAX_FEEDBACK_CHARS = 8_000
"""Checker feedback beyond this is cut: a repair turn should fix the first problems, not read a log."""

MAX_DETAIL_CHARS = 1_500

ExampleLabel = Literal["positive", "too_easy", "too_hard"]

_CHECKS = CheckConfig()
"""The checker's defaults, quoted in the prompt so that the numbers the designer reads are the enforced ones."""


@runtime_checkable
class ReferenceLike(Protocol):
    """What a memory example must provide; the memory module's records only need these attributes."""

    @property
    def code(self) -> str: ...

    @property
    def skill(self) -> str: ...

    @property
    def win_rate(self) -> float: ...

    @property
    def regret(self) -> float: ...

    @property
    def label(self) -> str: ...


@dataclass(frozen=True)
class ReferenceExample:
    """One environment from the memory, shown to the designer as an example.

    ``label`` is ``"positive"`` for an environment to learn from, ``"too_easy"`` / ``"too_hard"`` for
    the negative example. ``"negative"`` is also accepted and resolved from the win rate.
    """

    code: str
    skill: str
    win_rate: float
    regret: float
    label: str = "positive"


def example_label(example: ReferenceLike) -> ExampleLabel:
    """Normalise a memory label ('Too easy', 'too-hard', 'negative', ...) to one of three values."""
    text = str(example.label).strip().lower().replace("-", "_").replace(" ", "_")
    if text in ("too_easy", "easy"):
        return "too_easy"
    if text in ("too_hard", "hard"):
        return "too_hard"
    if text == "negative":
        return "too_easy" if example.win_rate >= 0.5 else "too_hard"
    return "positive"


# ---------------------------------------------------------------------------------------------- text parts
KIND_TITLES: dict[str, str] = {
    "single_answer": "single-answer puzzle",
    "multi_turn_game": "multi-turn game",
    "corpus_grounded": "document-grounded interactive environment",
    "tool_use": "tool-use environment",
}

_INTRO = (
    "You are an environment designer. You write small, self-contained Python environments in which a "
    "language-model agent practises a reasoning skill by interacting with them. A good environment is "
    "deterministic given its seed, cannot be won by guessing, can always be won by careful reasoning, "
    "and is different from the environments written before it. Your code is checked automatically "
    "(static analysis, contract tests, a replay of solution() and fuzzing) and runs in a sandbox; "
    "an environment that fails any check is discarded."
)


def _turn_window(max_turns: int) -> tuple[int, int]:
    """Shortest-win length the game prompt asks for: about half to three quarters of the budget."""
    low = max(1, math.ceil(max_turns / 2))
    return low, max(low, math.floor(max_turns * 3 / 4))


def _lines(*items: str) -> str:
    return "\n".join(items)


def _requirements(kind: str, max_turns: int, multi_instruction: bool) -> str:
    """The difficulty requirements of the kind's task type."""
    if kind == "single_answer":
        return _single_answer_requirements()
    if kind == "multi_turn_game":
        return _game_requirements(max_turns)
    if kind == "corpus_grounded":
        return _corpus_requirements(max_turns)
    return _tool_requirements(multi_instruction)


def _single_answer_requirements() -> str:
    return _lines(
        "- Each seed defines one puzzle with exactly one correct answer, computed by your code.",
        ("- Solving it takes at least 3 dependent reasoning steps; no single lookup or observation gives "
         "the answer away."),
        ("- Random guessing succeeds less than 1% of the time: the answer space has well over 100 "
         "plausible values (no yes/no questions, no choice among a few options)."),
        ("- The agent answers with \\boxed{answer}. A correct answer gives reward 1.0 and "
         "terminated=True. A wrong answer gives reward 0.0, terminated=False, and feedback that helps "
         "without revealing the answer; the agent may try again."),
        "- When the turns run out (truncated=True), the observation reveals the correct answer.",
        ("- Answers are compared by exact string match and then by math-verify, so use a canonical form "
         "(an integer, a reduced fraction, a single word) and accept equivalent spellings in step()."),
        "- solution() returns the answer itself (a string or number, not wrapped in \\boxed{}).",
    )


def _game_requirements(max_turns: int) -> str:
    low, high = _turn_window(max_turns)
    return _lines(
        ("- The game has state that changes after every valid action, and each observation shows the "
         "part of the new state the player is allowed to see."),
        "- Every turn offers at least 2 meaningful actions: real choices with different consequences.",
        (f"- Optimal play wins in about half to three quarters of max_turns: with max_turns={max_turns} "
         f"the shortest win takes {low} to {high} actions, leaving a little room for mistakes but none "
         "for aimless play."),
        ("- Winning needs the target skill: random, repeated or fixed actions must win under 1% of seeds "
         f"(the checker plays such policies, and copies of what the observations show, on "
         f"{_CHECKS.plan_seeds} seeds, small and 32-bit ones, and rejects the game if any of them wins "
         "clearly more often than chance)."),
        ("- A win gives reward 1.0 and terminated=True; a loss (an unrecoverable mistake, if your game "
         "has one) gives 0.0 and terminated=True; every other step gives 0.0."),
        ("- solution() returns the reference action sequence for the current seed: a list of strings "
         "written as the agent would send them, e.g. [\"\\\\boxed{...}\", ...], that wins when replayed "
         "from reset(seed)."),
    )


def _corpus_requirements(max_turns: int) -> str:
    low, high = _turn_window(max_turns)
    return _lines(
        ("- Build the environment from the document in <REFERENCE_DOCUMENT>: its entities, quantities, "
         "rules, schedules and relations become the hidden state and the mechanics. The agent never "
         "sees the document; it learns about the world only through your observations."),
        ("- Never quote the document: no sentence, and no phrase longer than six words, from it may "
         "appear in any observation. Store the facts you need as data (dicts, lists, numbers) and "
         "phrase observations in your own words."),
        ("- Hidden state: at reset the agent sees only part of the situation. Each turn it sends one "
         "command such as \\boxed{inspect <thing>} or \\boxed{move <place>} to discover more or to act; "
         "list the commands and their exact format in the first observation."),
        ("- Seeds vary the instance (which facts are hidden, the goal, the numbers drawn around the "
         "document's facts), so that memorising one episode does not solve the next."),
        ("- Partial reward: when the episode ends with terminated=True, the reward is the fraction of the "
         "goal achieved, in [0, 1] (1.0 = complete success); steps that do not end the episode give 0.0. "
         "Random commands must score close to 0."),
        f"- The reference solution takes about {low} to {high} commands with max_turns={max_turns}.",
        ("- solution() returns that reference action sequence: a list of \\boxed{...} command strings "
         "that reaches reward 1.0 when replayed from reset(seed)."),
    )


def _tool_requirements(multi_instruction: bool) -> str:
    lines = [
        ("- The final answer cannot be known without the tools: the task text does not contain the data, "
         "and solving it takes at least 3 tool calls across at least 2 different tools."),
        ("- Offer 4 to 8 tools, including some that look relevant but are not needed, so that choosing "
         "tools matters. Tool outputs are short (at most about 40 lines)."),
        "- Guessing the final answer succeeds less than 1% of the time.",
        ("- Tools validate their arguments and raise ValueError with a helpful message on bad input; "
         "recovering from such errors is part of the task."),
        "- The reference solution fits comfortably in max_turns with one tool call per turn.",
    ]
    if multi_instruction:
        lines.append(
            "- Use the multi-instruction variant: 3 to 5 user instructions in self._user_messages, each "
            "checked by a predicate over self._state, revealed one at a time; the answer is <answer>done</answer>."
        )
    return "\n".join(lines)


def _allowed_modules() -> str:
    return ", ".join(sorted(ALLOWED_MODULES - {"__future__"}))


def _forbidden_names() -> str:
    return ", ".join(sorted(name for name in FORBIDDEN_NAMES if not name.startswith("_")))


def _shared_rules() -> list[str]:
    limits = StaticConfig()
    return [
        (f"Imports: only these standard-library modules (and `from __future__ import annotations`): "
         f"{_allowed_modules()}. Any other import is rejected."),
        (f"Never use {_forbidden_names()}, __import__, or interpreter internals (attributes such as "
         "__dict__, __globals__, __subclasses__). No files, network, processes, threads or printing."),
        (f"Keep the module under {limits.max_lines:,} lines and {limits.max_source_bytes // 1000} KB: generate "
         "data in reset() rather than writing long tables out."),
        ("Never reveal the answer or the hidden state while the episode is running: not in an observation, "
         "an example of the answer format, a debug line, a tool description or feedback to a wrong answer."),
        ("Accept only the correct answer: compare exactly (as numbers where the answer is one), never within "
         "a tolerance, as a substring or among several answers in one reply; partial rewards, if any, must "
         "add up to less than a win."),
    ]


def _text_contract(kind: str, max_turns: int) -> str:
    reward = (
        "When the episode terminates the reward is the fraction of the goal achieved, in [0, 1]; every other "
        "step gives 0.0."
        if kind == "corpus_grounded"
        else "Reward 1.0 with terminated=True for a win, 0.0 with terminated=True for a loss, 0.0 otherwise."
    )
    solution = {
        "single_answer": "the correct answer for the episode started by the last reset()",
        "multi_turn_game": "a list of \\boxed{...} action strings that wins the episode started by the last "
        "reset()",
        "corpus_grounded": "a list of \\boxed{...} command strings that reaches reward 1.0 in the episode "
        "started by the last reset()",
    }[kind]
    rules = [
        ("Write ONE Python module defining exactly one public class whose name ends in `Env` "
         "(`class <Name>Env:`); give helper classes and functions a leading underscore. Nothing runs at "
         "import time."),
        (f"`def __init__(self, max_turns={max_turns}, **kwargs)`: store `self.max_turns = max_turns`, set every "
         "attribute, and call `self.reset()` last. Every parameter has a default."),
        ("`def reset(self, seed=None)` returns `(observation: str, info: dict)`. Create "
         "`rng = random.Random(seed)` there and draw ALL randomness from it (never the module-level "
         "`random.*` functions, the clock, `id()` or `hash()`): the same seed gives the same episode, "
         "different seeds give different instances. Reset the turn counter and all episode state. The "
         "observation explains the goal, the rules, what the agent sees now and the exact action format."),
        ("`def step(self, action: str)` returns the 5-tuple `(observation: str, reward: float, "
         "terminated: bool, truncated: bool, info: dict)`. Actions are wrapped in \\boxed{...}: read the "
         "LAST \\boxed{...} in `action`, tolerating spaces and letter case. A missing or malformed action "
         "gets an observation restating the format and uses up the turn. step() never raises, whatever "
         "the string."),
        ("Count turns; when the count reaches `self.max_turns` and the episode is neither won nor lost, "
         "return truncated=True, so every episode ends by max_turns. After the end, step() returns reward "
         "0.0 and the same terminated/truncated flags."),
        reward,
        (f"`def solution(self)` returns {solution}. It is replayed against your environment for several "
         "seeds and must reach the full reward every time."),
        "`def close(self)` releases resources (`pass` is fine).",
    ]
    return _numbered(rules + _shared_rules())


def _tool_contract(max_turns: int, multi_instruction: bool) -> str:
    variant = (
        "Use the multi-instruction variant (required here): "
        if multi_instruction
        else "Optional multi-instruction variant: "
    )
    rules = [
        ("Write ONE Python module defining exactly one public class whose name ends in `Env`, declared as "
         "`class <Name>Env(ToolUseBaseEnv):`. Do NOT import ToolUseBaseEnv and do not define it: the "
         "loader places it in the module's namespace. Give helpers a leading underscore."),
        ("The base class already implements `__init__` (it calls reset()), `step()`, `close()`, `get_tools()` "
         "and the turn limit; do not override step(). If you define __init__, write "
         f"`def __init__(self, max_turns={max_turns}, **kwargs)` and end it with "
         "`super().__init__(max_turns=max_turns, **kwargs)`."),
        ("`def reset(self, seed=None)` returns `(task_text: str, info: dict)`. Create "
         "`rng = random.Random(seed)` and draw ALL randomness from it (the same seed gives the same episode). "
         "reset() must set `self._tools = {\"<name>\": {\"description\": \"...\", \"parameters\": {\"type\": "
         "\"object\", \"properties\": {...}, \"required\": [...]}}}` (JSON Schema), `self._state` (a dict "
         "holding the world the tools read and change) and `self._expected_answer` (the correct final "
         "answer). The task text says what the user wants; the agent receives the tools as function schemas."),
        ("Each tool `<name>` in self._tools is a method `def tool_<name>(self, **arguments) -> str` whose "
         "keyword arguments match its schema. It reads or changes self._state and returns a short string. "
         "Raise ValueError with a helpful message for bad arguments: the base class turns exceptions into "
         "error messages for the agent."),
        ("The base class handles the protocol: the agent calls tools with "
         "`<tool_call>{\"name\": \"...\", \"arguments\": {...}}</tool_call>` and answers with "
         "`<answer>...</answer>`. A correct answer gives reward 1.0 and ends the episode, a wrong one 0.0; "
         "a turn with neither costs -0.1 (format error). Override `check_answer(self, answer) -> bool` if "
         "equal answers can be written in several ways the default normalised text/number match misses."),
        variant + "in reset() set `self._user_messages = [{\"message\": \"...\", \"check\": lambda state: "
        "...}, ...]` with 3 to 5 instructions. They are revealed one at a time: the next appears once the "
        "current `check(self._state)` is true, so the tools must change self._state. `<answer>done</answer>` "
        "wins only after every check holds; set `self._expected_answer = \"done\"`.",
        ("`def solution(self)` returns ONE string: the reference tool calls in order, each written as "
         "`<tool_call>{\"name\": ..., \"arguments\": {...}}</tool_call>`, followed by `<answer>...</answer>` "
         "(`<answer>done</answer>` for the multi-instruction variant), exactly as the agent would send them. "
         "It is replayed one block per turn, each tool call answered with `Tool result:`, for many seeds, and "
         "must win every time. (A list of `{\"name\", \"arguments\"}` dicts followed by the answer is accepted "
         "too.)"),
    ]
    return _numbered(rules + _shared_rules())


def _numbered(rules: Sequence[str]) -> str:
    return "\n".join(f"{index}. {rule}" for index, rule in enumerate(rules, start=1))


_OUTPUT_FORMAT = (
    "Reply with the complete module in ONE fenced code block that starts with ```python and ends with ```. "
    "You may reason before the block; put nothing after it. Do not split the code over several blocks, "
    "and do not write triple backticks inside the code."
)


def _fence_safe(text: str) -> str:
    """Keep a document or example from closing the tag it is wrapped in."""
    return text.replace("</REFERENCE_DOCUMENT>", "</REFERENCE-DOCUMENT>").replace(
        "</REFERENCE_ENVIRONMENTS>", "</REFERENCE-ENVIRONMENTS>"
    )


def _snippet(code: str) -> str:
    code = code.strip("\n")
    if len(code) <= MAX_EXAMPLE_CHARS:
        return code
    return code[:MAX_EXAMPLE_CHARS].rstrip() + "\n# ... (truncated)"


def _percent(value: float) -> str:
    return f"{value:.0%}"


# ---------------------------------------------------------------------------------------------- the prompt
@dataclass(frozen=True)
class DesignerPrompt:
    """Everything that goes into one designer prompt; ``messages()`` renders it.

    ``document`` is required for ``corpus_grounded`` and optional for the other kinds, where it serves as
    a theme to ground the environment in. ``examples`` are memory records (any objects with ``code``,
    ``skill``, ``win_rate``, ``regret`` and ``label``); positives come first in the prompt, negatives last.
    """

    kind: EnvKind
    skill: str
    max_turns: int = DEFAULT_MAX_TURNS
    document: Document | None = None
    examples: tuple[Any, ...] = field(default_factory=tuple)
    multi_instruction: bool = False
    """Tool use only: require the multi-instruction variant (``self._user_messages``)."""
    negative_examples: NegativeExamples = "code"
    """How too-easy and too-hard examples are shown: with their code (the toolkit) or as one line naming
    their class (the release, ``Semantics.negative_examples``)."""

    def __post_init__(self) -> None:
        if self.kind not in ENV_KINDS:
            raise ValueError(f"unknown environment kind {self.kind!r}; expected one of: {', '.join(ENV_KINDS)}")
        if not self.skill.strip():
            raise ValueError("a designer prompt needs a target skill")
        if self.max_turns < 1:
            raise ValueError(f"max_turns must be >= 1, got {self.max_turns}")
        if self.kind == "corpus_grounded" and self.document is None:
            raise ValueError("a corpus_grounded prompt needs a document")
        if self.multi_instruction and self.kind != "tool_use":
            raise ValueError("multi_instruction applies to tool_use prompts only")
        object.__setattr__(self, "examples", tuple(self.examples))
        for example in self.examples:
            if not isinstance(example, ReferenceLike):
                raise TypeError(f"a reference example needs code, skill, win_rate, regret and label; got {example!r}")

    @property
    def tool_use(self) -> bool:
        return self.kind == "tool_use"

    def grounding(self, corpus: str | None = None) -> GroundingRef | None:
        """The GroundingRef to record on the environment written from this prompt, if it had a document."""
        return None if self.document is None else self.document.grounding_ref(corpus)

    # -------------------------------------------------------------------------------- messages
    def system_message(self) -> str:
        title = KIND_TITLES[self.kind]
        contract = (
            _tool_contract(self.max_turns, self.multi_instruction)
            if self.tool_use
            else _text_contract(self.kind, self.max_turns)
        )
        return "\n\n".join([
            _INTRO,
            f"## Task type: {title}\n{_requirements(self.kind, self.max_turns, self.multi_instruction)}",
            f"## Contract (enforced by the checker)\n{contract}",
            f"## Output format\n{_OUTPUT_FORMAT}",
        ])

    def user_message(self) -> str:
        family = TOOL_USE_SKILLS if self.tool_use else PROMPT_GAME_SKILLS
        parts = [
            (f"Write a new {KIND_TITLES[self.kind]} whose main challenge is the skill **{self.skill}**: "
             f"{describe_skill(self.skill)}."),
            f"Skill family (for orientation; target only {self.skill}): {', '.join(family)}.",
            f"Turn budget: max_turns={self.max_turns}; use it as the default of __init__.",
        ]
        if self.document is not None:
            parts.append(self._document_block())
        if self.examples:
            parts.append(self._examples_block())
        parts.append("Write the environment now, as one ```python block.")
        return "\n\n".join(parts)

    def messages(self) -> list[Message]:
        return [
            {"role": "system", "content": self.system_message()},
            {"role": "user", "content": self.user_message()},
        ]

    def request(self, sampling: SamplingParams | None = None) -> GenerationRequest:
        """The generation request for a designer call (``role="designer"``)."""
        return GenerationRequest(messages=self.messages(), sampling=sampling or SamplingParams(), role="designer")

    def _document_block(self) -> str:
        assert self.document is not None
        title = f"Title: {self.document.title}\n" if self.document.title else ""
        block = f"<REFERENCE_DOCUMENT>\n{title}{_fence_safe(self.document.text.strip())}\n</REFERENCE_DOCUMENT>"
        if self.kind == "corpus_grounded":
            usage = ("Ground the environment in this document as described above. Do not quote it in any "
                     "observation.")
        else:
            usage = ("Ground the environment in this document: take its setting, entities, numbers or rules "
                     "as the material of the task. Do not quote it in any observation.")
        return f"{block}\n{usage}"

    def _examples_block(self) -> str:
        noun = "environment" if self.tool_use else "game"
        positives = [e for e in self.examples if example_label(e) == "positive"]
        negatives = [e for e in self.examples if example_label(e) != "positive"]
        lines = ["<REFERENCE_ENVIRONMENTS>"]
        if positives:
            lines.append(
                "These environments were written earlier and trained the agent well (it won some episodes "
                "but not all, and a hint helped it). Learn from what makes them work, then create a "
                f"DIFFERENT {noun}: a new mechanic and a new line of reasoning, not a variation or a "
                "reskin of these."
            )
        else:
            lines.append(f"Create a DIFFERENT {noun} from the ones below.")
        for index, example in enumerate(positives, start=1):
            lines.append(
                f"\nExample {index} (skill: {example.skill}; agent win rate {_percent(example.win_rate)}; "
                f"regret {example.regret:+.2f}):\n```python\n{_fence_safe(_snippet(example.code))}\n```"
            )
        if self.negative_examples == "class_name":
            lines = lines + ["</REFERENCE_ENVIRONMENTS>"] if positives else []
            if negatives:
                lines.append("Avoid generating environments like:")
                for example in negatives:
                    verdict = "too easy" if example_label(example) == "too_easy" else "too hard"
                    lines.append(f"- {verdict} (win_rate={example.win_rate:.2f}): class {_class_name(example.code)}")
            return "\n".join(lines)
        for example in negatives:
            if example_label(example) == "too_easy":
                verdict = (f"TOO EASY: the agent won {_percent(example.win_rate)} of its episodes, so it "
                           "learned nothing")
            else:
                verdict = (f"TOO HARD: the agent won only {_percent(example.win_rate)} of its episodes, so "
                           "it had nothing to learn from")
            lines.append(
                f"\nNegative example (skill: {example.skill}) - {verdict}. Do not write an environment "
                f"like this one:\n```python\n{_fence_safe(_snippet(example.code))}\n```"
            )
        lines.append("</REFERENCE_ENVIRONMENTS>")
        return "\n".join(lines)


def _class_name(code: str) -> str:
    """The first class the code defines (the release names the file; an environment's class is ours)."""
    match = re.search(r"^class\s+([A-Za-z_]\w*)", code, re.MULTILINE)
    return match.group(1) if match else "<unnamed>"


def build_designer_messages(
    kind: EnvKind,
    skill: str,
    *,
    document: Document | None = None,
    examples: Iterable[Any] = (),
    max_turns: int = DEFAULT_MAX_TURNS,
    multi_instruction: bool = False,
) -> list[Message]:
    """System and user messages asking for one environment of ``kind`` that trains ``skill``."""
    return DesignerPrompt(kind=kind, skill=skill, max_turns=max_turns, document=document,
                          examples=tuple(examples), multi_instruction=multi_instruction).messages()


# ---------------------------------------------------------------------------------------------- repair
def _format_feedback_item(item: Any) -> str:
    """One finding: a plain string, or a CheckFailure-like object (check, message, line, detail)."""
    if isinstance(item, str):
        return f"- {item.strip()}"
    check = getattr(item, "check", None)
    line = getattr(item, "line", None)
    message = str(getattr(item, "message", item)).strip()
    head = f"- [{check}]" if check else "-"
    head += f" line {line}:" if line else ""
    text = f"{head} {message}"
    detail = getattr(item, "detail", None)
    if detail:
        detail = str(detail).strip()
        if len(detail) > MAX_DETAIL_CHARS:
            detail = detail[:MAX_DETAIL_CHARS] + "\n... (cut)"
        text += "\n" + "\n".join(f"    {row}" for row in detail.splitlines())
    return text


def format_feedback(feedback: str | Sequence[Any]) -> str:
    """Checker feedback as a bullet list, cut to MAX_FEEDBACK_CHARS."""
    items = [feedback] if isinstance(feedback, str) else list(feedback)
    text = "\n".join(_format_feedback_item(item) for item in items) or "- (no details were given)"
    if len(text) > MAX_FEEDBACK_CHARS:
        text = text[:MAX_FEEDBACK_CHARS] + "\n... (further findings cut)"
    return text


def repair_messages(
    previous_messages: Sequence[Message],
    response: str,
    feedback: str | Sequence[Any],
) -> list[Message]:
    """The conversation for a repair turn: the previous prompt, the designer's answer, then the findings.

    ``feedback`` is a string or a list of findings (strings or the checker's ``CheckFailure`` objects).
    The answer's ``<think>`` reasoning is dropped: chat templates drop it from history anyway, and it
    would crowd the context the repair needs. ``previous_messages`` is not modified.
    """
    answer = strip_reasoning(response).strip() or response.strip()
    request = (
        "Your environment did not pass the automatic checks:\n\n"
        f"{format_feedback(feedback)}\n\n"
        "Fix every problem listed above and keep what already works. Reply with the complete corrected "
        "module in one ```python block (the whole file, not a diff)."
    )
    return [*(dict(message) for message in previous_messages),
            {"role": "assistant", "content": answer},
            {"role": "user", "content": request}]
