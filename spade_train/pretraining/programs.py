"""A generated corpus of environment programs: what a tiny designer reads before it writes Python.

A pretrained model has seen a great deal of Python; the embedded run's tiny model has seen none. To
write whole environment modules in self-play it first needs the kind of text a pretrained model
brings: programs in the SPADE contract (a class whose name ends in ``Env``, ``reset(seed)``,
``step(action)``, ``solution()``), varied enough that it learns the form rather than a few texts, and
with mistakes in them, so that it can also write the invalid programs self-play must learn to avoid.

``generate_corpus(n, seed)`` draws ``n`` programs. Each comes from one of the ``FAMILIES`` (a kind of
game or puzzle), with its rule, sizes, names and wording drawn at random, and a share of them carries
one deliberate defect from ``DEFECTS`` (a syntax error, a forbidden import, a missing method, an
unseeded draw, the answer in the observation, a wrong return, a solution that loses, a reward out of
range). Every program records its family, its parameters and its defect, so a corpus can be checked:
valid programs pass the checker, each defect fails it for its own reason.

Programs use the standard library only (``random``, ``re``), keep to about 25-45 lines, and answer in
``\\boxed{...}``, as the agent's prompts ask.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

READ = "#READ#"
"""Where a family's ``step`` reads the agent's reply into ``reply`` (``_styled`` writes it one of several
ways, with any helper it needs)."""

READ_STYLES = {
    "regex": (('found = re.findall(r"\\\\boxed\\{([^{}]*)\\}", action)\n        '
              'reply = found[-1].strip() if found else ""'), ""),
    "rfind": (('start = action.rfind("\\\\boxed{")\n        '
              'reply = action[start + 7:].split("}")[0].strip() if start >= 0 else ""'), ""),
    "helper": ("reply = self._reply(action)",
               ('\n    def _reply(self, text):\n        """The last \\\\boxed{...} answer in the text ("" if none)."""\n'
               '        found = re.findall(r"\\\\boxed\\{([^{}]*)\\}", text)\n'
               '        return found[-1].strip() if found else ""\n')),
}
"""Read style -> (the lines that set ``reply`` in ``step``, a method the class then needs)."""

ANSWER_IN = " = ? Answer in \\boxed{}."
"""The end of a single-answer question (the value holds one backslash)."""

ADJECTIVES = ("Quiet", "Hidden", "Clever", "Small", "Swift", "Lucky", "Bright", "Silent", "Curious", "Patient",
              "Tiny", "Grand", "Secret", "Simple", "Tricky", "Careful")


@dataclass(frozen=True)
class Program:
    """One generated environment module, with what it was made from."""

    code: str
    family: str
    kind: str
    """``single_answer`` or ``multi_turn_game``."""
    params: dict[str, Any] = field(default_factory=dict)
    defect: str | None = None
    """None for a program meant to pass the checker; else the name of its deliberate defect."""

    @property
    def valid(self) -> bool:
        return self.defect is None


# ---------------------------------------------------------------------------------------------- families
def _class_name(rng: random.Random, noun: str) -> str:
    return f"{rng.choice(ADJECTIVES)}{noun}Env"


def _head(name: str, max_turns: int, constants: str = "") -> str:
    """The start every program shares: imports, any module constants, the class, ``__init__`` and the first
    lines of ``reset`` (a seeded generator, the episode's flags)."""
    between = f"\n{constants}\n" if constants else ""
    return (f"import random\nimport re\n{between}\n\nclass {name}:\n"
            f"    def __init__(self, max_turns={max_turns}, **kwargs):\n"
            "        self.max_turns = max_turns\n        self.reset()\n\n"
            "    def reset(self, seed=None):\n        rng = random.Random(seed)\n"
            "        self.done, self.turns = False, 0\n")


CLOSE = "    def close(self):\n        pass\n"
"""The end every program shares."""


def _answer_step(answer_expr: str, right: str, wrong: str) -> str:
    """A single-answer ``step``: one reply, graded, the episode over."""
    return f'''    def step(self, action):
        if self.done:
            return "The episode is over.", 0.0, True, False, {{}}
        self.done = True
        {READ}
        guess = reply
        if guess == str({answer_expr}):
            return "{right}", 1.0, True, False, {{}}
        return "{wrong}", 0.0, True, False, {{}}
'''


def arithmetic(rng: random.Random) -> tuple[str, dict[str, Any]]:
    terms = rng.randint(2, 4)
    high = rng.choice((9, 20, 50, 99))
    ops = rng.sample(["+", "-", "*"], rng.randint(1, 3))
    noun = rng.choice(("Sum", "Arithmetic", "Chain", "Calc"))
    ask = rng.choice(("Compute from left to right: ", "Work left to right: ", "Evaluate in order, left to right: "))
    name = _class_name(rng, noun)
    code = _head(name, 1) + f'''        numbers = [rng.randint(1, {high}) for _ in range({terms})]
        ops = [rng.choice({ops!r}) for _ in range({terms - 1})]
        self.answer = numbers[0]
        text = str(numbers[0])
        for op, number in zip(ops, numbers[1:]):
            text += " " + op + " " + str(number)
            if op == "+":
                self.answer += number
            elif op == "-":
                self.answer -= number
            else:
                self.answer *= number
        return {ask!r} + text + {ANSWER_IN!r}, {{}}

{_answer_step("self.answer", "Correct.", "Wrong.")}
    def solution(self):
        return str(self.answer)

''' + CLOSE
    return code, {"terms": terms, "high": high, "ops": ops}


def sequence(rng: random.Random) -> tuple[str, dict[str, Any]]:
    rule = rng.choice(("add", "multiply", "square"))
    shown = rng.randint(3, 6)
    name = _class_name(rng, rng.choice(("Sequence", "Pattern", "Series")))
    step_line = {"add": "value + step", "multiply": "value * step", "square": "value + step * len(terms)"}[rule]
    start = rng.choice(("rng.randint(1, 9)", "rng.randint(2, 5)"))
    code = _head(name, 1) + f'''        value = {start}
        step = rng.randint(2, {rng.choice((4, 6, 9))})
        terms = []
        for _ in range({shown + 1}):
            terms.append(value)
            value = {step_line}
        self.answer = terms[-1]
        shown = ", ".join(str(t) for t in terms[:-1])
        return "Give the next number: " + shown + ", ?", {{}}

{_answer_step("self.answer", "Right.", "Not the next number.")}
    def solution(self):
        return str(self.answer)

''' + CLOSE
    return code, {"rule": rule, "shown": shown}


def counting(rng: random.Random) -> tuple[str, dict[str, Any]]:
    length = rng.randint(16, 40)
    letters = rng.choice(("ab", "abc", "xyz", "abcd"))
    name = _class_name(rng, rng.choice(("Count", "Tally", "Letter")))
    code = _head(name, 1) + f'''        self.text = "".join(rng.choice({letters!r}) for _ in range({length}))
        self.letter = rng.choice({letters!r})
        self.answer = self.text.count(self.letter)
        return "How many times does " + self.letter + " appear in " + self.text + "?", {{}}

{_answer_step("self.answer", "Correct count.", "Wrong count.")}
    def solution(self):
        return str(self.answer)

''' + CLOSE
    return code, {"length": length, "letters": letters}


def guessing(rng: random.Random) -> tuple[str, dict[str, Any]]:
    high = rng.choice((16, 32, 64, 100))
    turns = rng.randint(7, 10)
    name = _class_name(rng, rng.choice(("Guess", "Number", "Bisect")))
    higher, lower = rng.choice((("higher", "lower"), ("too low", "too high"), ("go up", "go down")))
    code = _head(name, turns) + f'''        self.secret = rng.randint(1, {high})
        self.low, self.high = 1, {high}
        return "Guess my number from 1 to {high}. Answer in \\\\boxed{{}}.", {{}}

    def step(self, action):
        if self.done:
            return "The episode is over.", 0.0, True, False, {{}}
        self.turns += 1
        {READ}
        try:
            guess = int(reply)
        except ValueError:
            guess = 0
        if guess == self.secret:
            self.done = True
            return "You found it.", 1.0, True, False, {{}}
        if guess < self.secret:
            self.low = max(self.low, guess + 1)
            hint = "{higher}"
        else:
            self.high = min(self.high, guess - 1)
            hint = "{lower}"
        self.done = self.turns >= self.max_turns
        return hint + ". Guess again.", 0.0, False, self.done, {{}}

    def solution(self):
        low, high, moves = 1, {high}, []
        while True:
            middle = (low + high) // 2
            moves.append(str(middle))
            if middle == self.secret:
                return moves
            if middle < self.secret:
                low = middle + 1
            else:
                high = middle - 1

''' + CLOSE
    return code, {"high": high, "turns": turns}


def walk(rng: random.Random) -> tuple[str, dict[str, Any]]:
    size = rng.randint(4, 7)
    name = _class_name(rng, rng.choice(("Grid", "Walk", "Maze", "Robot")))
    words = rng.choice((("up", "down", "left", "right"), ("north", "south", "west", "east")))
    code = _head(name, 4 * size, constants=f'MOVES = {{"{words[0]}": (0, -1), "{words[1]}": (0, 1), "{words[2]}": (-1, 0), "{words[3]}": (1, 0)}}') + f'''        self.x, self.y = rng.randrange({size}), rng.randrange({size})
        self.goal = (rng.randrange({size}), rng.randrange({size}))
        while self.goal[0] == self.x or self.goal[1] == self.y:  # no single repeated move wins
            self.goal = (rng.randrange({size}), rng.randrange({size}))
        self.start = (self.x, self.y)
        return self._where() + " Move with \\\\boxed{{{words[0]}}}, {words[1]}, {words[2]} or {words[3]}.", {{}}

    def _where(self):
        return "You are at " + str((self.x, self.y)) + ", the goal is at " + str(self.goal) + "."

    def step(self, action):
        if self.done:
            return "The episode is over.", 0.0, True, False, {{}}
        self.turns += 1
        {READ}
        move = MOVES.get(reply.lower())
        if move is not None:
            self.x = min({size - 1}, max(0, self.x + move[0]))
            self.y = min({size - 1}, max(0, self.y + move[1]))
        if (self.x, self.y) == self.goal:
            self.done = True
            return "You reached the goal.", 1.0, True, False, {{}}
        self.done = self.turns >= self.max_turns
        return self._where(), 0.0, False, self.done, {{}}

    def solution(self):
        x, y = self.start
        moves = []
        moves += ["{words[3]}"] * max(0, self.goal[0] - x) + ["{words[2]}"] * max(0, x - self.goal[0])
        moves += ["{words[1]}"] * max(0, self.goal[1] - y) + ["{words[0]}"] * max(0, y - self.goal[1])
        return moves

''' + CLOSE
    return code, {"size": size, "words": list(words)}


def signals(rng: random.Random) -> tuple[str, dict[str, Any]]:
    colours = rng.sample(["red", "green", "blue", "amber", "white"], rng.randint(2, 4))
    moves = rng.sample(["left", "right", "up", "down", "stay"], len(colours))
    length = rng.randint(2, 5)
    name = _class_name(rng, rng.choice(("Signal", "Light", "Code")))
    code = _head(name, 2 * length + 2, constants=f'MOVE_FOR = {dict(zip(colours, moves))!r}') + f'''        self.signals = [rng.choice({colours!r}) for _ in range({length})]
        self.position = 0
        return "Signal: " + self.signals[0] + ". Reply with a move in \\\\boxed{{}}.", {{}}

    def step(self, action):
        if self.done:
            return "The episode is over.", 0.0, True, False, {{}}
        self.turns += 1
        {READ}
        move = reply.lower()
        if move == MOVE_FOR[self.signals[self.position]]:
            self.position += 1
            if self.position == {length}:
                self.done = True
                return "Correct. You win.", 1.0, True, False, {{}}
            self.done = self.turns >= self.max_turns
            return "Correct. Signal: " + self.signals[self.position] + ".", 0.1, False, self.done, {{}}
        self.done = self.turns >= self.max_turns
        return "Wrong. Signal: " + self.signals[self.position] + ".", 0.0, False, self.done, {{}}

    def solution(self):
        return [MOVE_FOR[colour] for colour in self.signals]

''' + CLOSE
    return code, {"colours": colours, "length": length, "table": dict(zip(colours, moves))}


FAMILIES: dict[str, tuple[str, Callable[[random.Random], tuple[str, dict[str, Any]]]]] = {
    "arithmetic": ("single_answer", arithmetic),
    "sequence": ("single_answer", sequence),
    "counting": ("single_answer", counting),
    "guessing": ("multi_turn_game", guessing),
    "walk": ("multi_turn_game", walk),
    "signals": ("multi_turn_game", signals),
}
"""Family name -> (environment kind, the function that draws one program of it and its parameters)."""


def _styled(code: str, rng: random.Random) -> tuple[str, dict[str, Any]]:
    """``code`` with its reading of the reply and its step info written in one of several styles: the same
    game, a different program (what a family's programs must not share, beyond their rules)."""
    read = rng.choice(sorted(READ_STYLES))
    lines, helper = READ_STYLES[read]
    code = code.replace(READ, lines)
    if helper:
        code = code.replace("\n    def solution(self):", helper + "\n    def solution(self):", 1)
    info = rng.choice(("empty", "turns"))
    if info == "turns":
        code = re.sub(r"(True|False|self\.done), \{\}\n", r'\1, {"turns": self.turns}\n', code)
    return code, {"read": read, "info": info}


# ---------------------------------------------------------------------------------------------- defects
def _syntax_error(code: str, rng: random.Random) -> str | None:
    lines = code.split("\n")
    heads = [i for i, line in enumerate(lines) if line.strip().startswith("def ") and line.rstrip().endswith(":")]
    index = rng.choice(heads)
    lines[index] = lines[index].rstrip()[:-1]
    return "\n".join(lines)


def _forbidden_import(code: str, rng: random.Random) -> str | None:
    return code.replace("import re\n", "import re\nimport " + rng.choice(("os", "subprocess", "socket")) + "\n", 1)


def _no_solution(code: str, rng: random.Random) -> str | None:
    return re.sub(r"\n    def solution\(self\):\n(?:        .*\n|\n(?=        ))*", "\n", code, count=1)


def _unseeded(code: str, rng: random.Random) -> str | None:
    return code.replace("rng = random.Random(seed)", "rng = random.Random()", 1)


def _answer_shown(code: str, rng: random.Random) -> str | None:
    if "self.answer = " not in code:
        return None
    return re.sub(r'return ("[^"\n]*"|[^\n]*?), \{\}\n', lambda m: f"return {m.group(1)} + \" (answer: \" + "
                  "str(self.answer) + \")\", {}\n", code, count=1)


def _four_values(code: str, rng: random.Random) -> str | None:
    return re.sub(r"return ([^\n]*), ([0-9.]+), (True|False), (True|False|self\.done), (\{[^\n]*\})\n",
                  r"return \1, \2, \3, \5\n", code, count=1)


def _losing_solution(code: str, rng: random.Random) -> str | None:
    changed = code.replace("        return str(self.answer)\n", "        return str(self.answer + 1)\n", 1)
    return changed if changed != code else None


def _reward_out_of_range(code: str, rng: random.Random) -> str | None:
    return code.replace(", 1.0, True, False, {", ", 5.0, True, False, {", 1)


DEFECTS: dict[str, Callable[[str, random.Random], str | None]] = {
    "syntax_error": _syntax_error,
    "forbidden_import": _forbidden_import,
    "no_solution": _no_solution,
    "unseeded": _unseeded,
    "answer_shown": _answer_shown,
    "four_values": _four_values,
    "losing_solution": _losing_solution,
    "reward_out_of_range": _reward_out_of_range,
}
"""Defect name -> a rewrite of a valid program that carries it (None where the program has no place for it)."""


# ---------------------------------------------------------------------------------------------- the corpus
def generate_program(rng: random.Random, *, family: str | None = None, defect: str | None = None) -> Program:
    """One program of ``family`` (drawn if None), with ``defect`` applied (None: a valid program)."""
    name = family or rng.choice(sorted(FAMILIES))
    kind, draw = FAMILIES[name]
    code, params = draw(rng)
    code, style = _styled(code, rng)
    params = {**params, **style}
    if defect is None:
        return Program(code=code, family=name, kind=kind, params=params)
    changed = DEFECTS[defect](code, rng)
    if changed is None or changed == code:
        raise ValueError(f"the {name} family has no place for the {defect} defect")
    return Program(code=changed, family=name, kind=kind, params=params, defect=defect)


def generate_corpus(count: int, *, seed: int = 0, defect_share: float = 0.25) -> list[Program]:
    """``count`` programs drawn with ``seed``; about ``defect_share`` of them carry one defect each (a
    defect a program's family has no place for is swapped for another)."""
    if count < 0 or not 0.0 <= defect_share <= 1.0:
        raise ValueError("need count >= 0 and defect_share in [0, 1]")
    rng = random.Random(seed)
    programs = []
    for _ in range(count):
        family = rng.choice(sorted(FAMILIES))
        if rng.random() >= defect_share:
            programs.append(generate_program(rng, family=family))
            continue
        for defect in rng.sample(sorted(DEFECTS), len(DEFECTS)):
            state = rng.getstate()
            try:
                programs.append(generate_program(rng, family=family, defect=defect))
                break
            except ValueError:
                rng.setstate(state)
    return programs
