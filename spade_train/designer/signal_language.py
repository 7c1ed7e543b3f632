"""The embedded design language: a designer reply of four tokens, rendered into a real environment.

A tiny model trained from scratch on two CPU cores cannot write Python. So in the embedded default
the designer writes a *design* such as

    code=oak signals=3 length=4 lives=1

and ``render_environment`` turns it into a complete environment module, ``SignalGameEnv``: each
turn the agent sees a coloured signal and must answer with the move the hidden *code* assigns to
that colour; ``length`` correct moves win, each wrong move costs one of ``lives``. That module then
goes through exactly what a model-written module goes through: the checker in the sandbox, the hint
writer, paired rollouts, regret and memory.

Nothing in the language marks a design as good or bad. Validity comes from the real checker, and
the designer has to learn it: a short game over few colours has only a handful of distinct tasks
(``distinct_tasks`` rejects fewer than eight: two colours and one move make two), one colour makes
every seed the same game (``seeds_vary``), and a long game whose correct moves each pay 0.2 lets an
agent collect a full return without winning (``partial_credit``, under the sum_clipped return).

Difficulty comes from the agent. The code is never shown: without the hint the agent can only guess
it (or learn which codes the designer favours); the hint names it, so regret measures how much the
agent has learnt to use a hint. A designer that keeps proposing one code teaches the agent that
code and loses its regret: the pressure against collapse the paper describes, in miniature.

Rewards are dense so that a tiny model can learn: 0.2 per correct move, 1.0 for the winning one.
"""

from __future__ import annotations

import itertools
import random
import re
from dataclasses import dataclass

from spade_train.designer.parser import ParseResult
from spade_train.designer.prompts import DesignerPrompt
from spade_train.policies.base import Generation, GenerationRequest, Message, SamplingParams

COLOURS = ("red", "green", "blue", "gold")
MOVES = ("left", "right", "up", "down")
CODES: dict[str, tuple[str, str, str, str]] = {
    "ash": ("left", "right", "up", "down"),
    "elm": ("left", "right", "down", "up"),
    "oak": ("right", "left", "up", "down"),
    "yew": ("right", "left", "down", "up"),
}
"""Each code's move for each colour (in ``COLOURS`` order). Codes overlap: two of them agree on two
colours and differ on the others (ash and yew differ everywhere), so an agent that has learnt one code
partly succeeds on its neighbours. That partial success is what lets the designer find designs at the
edge of the agent's ability, and what makes the hint worth reading."""

SLOTS: dict[str, tuple[str, ...]] = {
    "code": tuple(CODES),
    "signals": ("1", "2", "3", "4"),
    "length": ("1", "2", "3", "4", "5"),
    "lives": ("0", "1", "2"),
}
"""The design's slots and the values each may take, in the order a design is written."""

DESIGN_MARKER = "# SPADE embedded design:"
"""First line of every rendered module; ``design_of_code`` reads the design back from it."""

CLASS_NAME = "SignalGameEnv"
DESIGNER_SYSTEM = "design a signal game ."
AGENT_SYSTEM = "play ."
AGENT_ACTION = "\\boxed{{ {move} }}"
"""How the embedded agent writes a move (the tokenizer keeps ``\\boxed{`` as one word)."""

INTRO = "signal game . each turn shows a colour . answer with the move the hidden code gives it , as \\boxed{ move } . "


@dataclass(frozen=True)
class SignalDesign:
    code: str
    signals: int
    length: int
    lives: int

    def __str__(self) -> str:
        return f"code={self.code} signals={self.signals} length={self.length} lives={self.lives}"

    @property
    def hint(self) -> str:
        """The privileged insight: which code is in force. True for every seed; names no move."""
        return f"code {self.code} ."


_SLOT_TOKEN = re.compile(r"\b(code|signals|length|lives)=([a-z0-9]+)")


def parse_design(text: str) -> SignalDesign | str:
    """The design in ``text``, or the reason there is none.

    Lenient like the Python parser: words that are not ``slot=value`` are ignored, and the first
    occurrence of each slot counts. A missing slot or an unknown value is a parse failure.
    """
    found: dict[str, str] = {}
    for slot, value in _SLOT_TOKEN.findall(text):
        found.setdefault(slot, value)
    missing = [slot for slot in SLOTS if slot not in found]
    if missing:
        return f"the design has no {', '.join(missing)} (write {' '.join(f'{s}=...' for s in SLOTS)})"
    for slot, value in found.items():
        if value not in SLOTS[slot]:
            return f"{slot}={value} is not a value of {slot} (choose from {', '.join(SLOTS[slot])})"
    return SignalDesign(found["code"], int(found["signals"]), int(found["length"]), int(found["lives"]))


def all_designs() -> list[SignalDesign]:
    """Every design the language can express, in a fixed order."""
    return [SignalDesign(code, int(signals), int(length), int(lives))
            for code, signals, length, lives in itertools.product(*SLOTS.values())]


def render_environment(design: SignalDesign) -> str:
    """The complete environment module for ``design``: standard library only, the SPADE contract."""
    moves = dict(zip(COLOURS, CODES[design.code]))
    return f'''{DESIGN_MARKER} {design}
"""Signal game, rendered from the embedded design language (spade_train.designer.signal_language).

Each turn shows one of {design.signals} colour(s); the right move for it comes from a hidden code.
{design.length} right move(s) win; a wrong move costs one of {design.lives} spare li(ves), and with none
left the game is lost. The code is not shown: a hint can name it.
"""

import random
import re

MOVE_FOR = {moves!r}
COLOURS = {list(COLOURS[: design.signals])!r}
LENGTH = {design.length}
LIVES = {design.lives}
INTRO = {INTRO!r}


class {CLASS_NAME}:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        self.signals = [rng.choice(COLOURS) for _ in range(LENGTH)]
        self.position = 0
        self.lives = LIVES
        self.done = False
        return (INTRO + "moves : left right up down . lives : " + str(LIVES) + " . steps : " + str(LENGTH)
                + " . signal : " + self.signals[0] + " ."), {{}}

    def step(self, action):
        if self.done:
            return "the game is over .", 0.0, True, False, {{}}
        found = re.findall(r"\\\\boxed\\{{([^{{}}]*)\\}}", action)
        move = found[-1].strip().lower() if found else None
        if move == MOVE_FOR[self.signals[self.position]]:
            self.position += 1
            if self.position == LENGTH:
                self.done = True
                return "correct . you win .", 1.0, True, False, {{}}
            return "correct . signal : " + self.signals[self.position] + " .", 0.2, False, False, {{}}
        if self.lives == 0:
            self.done = True
            return "wrong . game over .", 0.0, True, False, {{}}
        self.lives -= 1
        return ("wrong . lives : " + str(self.lives) + " . signal : " + self.signals[self.position] + " ."), \\
            0.0, False, False, {{}}

    def solution(self):
        return [MOVE_FOR[colour] for colour in self.signals]

    def close(self):
        pass
'''


def design_of_code(code: str) -> SignalDesign | None:
    """The design a rendered module was made from (None for any other module)."""
    first_line = code.split("\n", 1)[0]
    if not first_line.startswith(DESIGN_MARKER):
        return None
    design = parse_design(first_line[len(DESIGN_MARKER):])
    return design if isinstance(design, SignalDesign) else None


def random_design(rng: random.Random) -> SignalDesign:
    """A design with every slot drawn uniformly: what the designer's format warm-up imitates."""
    values = [rng.choice(values) for values in SLOTS.values()]
    return SignalDesign(values[0], int(values[1]), int(values[2]), int(values[3]))


class SignalDesignLanguage:
    """Designer prompts of a few words and replies of four ``slot=value`` tokens.

    The prompt carries the target skill and the memory's examples (their designs, marked good or
    bad), which is how memory steers the embedded designer as it steers a real one. The grounding
    document is not shown: a tiny model cannot use it (the embedded configuration turns the corpus
    off; the designer prompt for real models grounds every environment).
    """

    name = "signal"
    agent_system_prompt = AGENT_SYSTEM
    """The embedded agent's system message: its games are played by a tiny model that knows only these words."""

    def messages(self, prompt: DesignerPrompt) -> list[Message]:
        words = ["skill :", skill_word(prompt.skill), "."]
        for example in prompt.examples:
            design = design_of_code(example.code)
            if design is not None:
                words += ["good :" if example.label == "positive" else "bad :", str(design), "."]
        words.append("design :")
        return [{"role": "system", "content": DESIGNER_SYSTEM}, {"role": "user", "content": " ".join(words)}]

    def request(self, prompt: DesignerPrompt, sampling: SamplingParams) -> GenerationRequest:
        return GenerationRequest(messages=self.messages(prompt), sampling=sampling, role="designer")

    def read(self, response: str) -> ParseResult:
        design = parse_design(response)
        if isinstance(design, str):
            return ParseResult(code=None, reason=design)
        return ParseResult(code=render_environment(design), reason=f"rendered design {design}",
                           class_name=CLASS_NAME)

    def hint_messages(self, code: str) -> list[Message] | None:
        """None: the hint writer gets its own prompt (the embedded ``DesignHinter`` reads the code in it)."""
        return None


def skill_word(skill: str) -> str:
    """The one word of a skill name the embedded designer prompt shows."""
    return skill.split()[0].lower()


class DesignHinter:
    """The embedded hint writer: names the code of the design the environment was rendered from.

    A tiny model cannot write a useful hint, so in the embedded default this policy answers the hint
    writer's call. It receives the same request as a model would (the environment's source and first
    observation) and its hint goes through the same leak check and injection. For any module that
    was not rendered from a design it returns an empty hint, which the loop treats as no hint.
    """

    name = "design-hinter"

    async def generate(self, request: GenerationRequest) -> Generation:
        for message in request.messages:
            marker = message["content"].find(DESIGN_MARKER)
            if marker != -1:
                design = design_of_code(message["content"][marker:])
                if design is not None:
                    return Generation(text=design.hint)
        return Generation(text="")


def vocabulary_text(skills: tuple[str, ...] = ()) -> list[str]:
    """Every word the embedded model reads or writes, to train its tokenizer on."""
    texts = [DESIGNER_SYSTEM, AGENT_SYSTEM, INTRO, "system user assistant skill : good : bad : design : HINT:",
             "moves : lives : steps : signal : correct . you win . wrong . game over . the game is over .",
             " ".join(COLOURS), " ".join(MOVES), " ".join(str(n) for n in range(10)),
             AGENT_ACTION.format(move="left"), " ".join(skill_word(skill) for skill in skills)]
    texts += [f"{slot}={value}" for slot, values in SLOTS.items() for value in values]
    texts += [SignalDesign(code, 1, 1, 0).hint for code in CODES]
    return texts
