"""What pretraining teaches besides writing programs: writing a hint, and playing with one.

A large model comes to SPADE able to write a hint for an environment it reads and to follow a hint it is
given. A tiny model starts with neither, and without them every regret is zero: the designer is paid for
nothing but validity. So pretraining also shows it, on the corpus's own programs:

- **hint lessons** (``hint_lessons``): a program of the signal family after the compact hint request,
  answered with the rule the environment hides: its table of which move each colour asks for
  (``table_hint``). That is an insight that holds on every seed, never one seed's answer, and it goes
  through the same leak checks as any hint in self-play (which reject it where it spells out a
  seed's winning moves, about a third of the time for short games);
- **agent lessons** (``agent_lessons``): contexts from real episodes of those programs, played in the
  sandbox. In a hinted episode each move is the one the episode's ``solution()`` plays (what the hint's
  table gives the colour shown); without a hint, a move drawn uniformly from the program's moves. This
  teaches the reply format and *reading* a hint, never which table an unhinted game uses: unhinted play
  starts at chance, as in the signal language's warm-up (``backends/embedded/warmup.py``).

Other families get no hint lessons: their rules ask for arithmetic a tiny model cannot do, so a hint
would not move its play. Designs of those families still pass or fail the checker, and pay the designer
no regret.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from spade_envs.contract.episode import inject_hint
from spade_envs.runtime.backend import ExecutionBackend
from spade_envs.runtime.errors import EnvRuntimeError
from spade_train.backends.embedded.warmup import WarmupExample, episode_contexts
from spade_train.designer.language import compact_hint_request
from spade_train.pretraining.programs import Program

ACTION = "\\boxed{{{move}}}"
"""How the agent writes a move in the lessons: what the programs read (the last ``\\boxed{...}``)."""


def table_hint(table: dict[str, str]) -> str:
    """The hint of a signal program: its table, one sentence (hints are cut at three)."""
    return ", ".join(f"{colour} means {move}" for colour, move in sorted(table.items())) + "."


def _tabled(corpus: Sequence[Program]) -> list[Program]:
    return [p for p in corpus if p.valid and isinstance(p.params.get("table"), dict)]


def hint_lessons(corpus: Sequence[Program]) -> list[WarmupExample]:
    """Each valid signal program after the compact hint request, answered with its table."""
    return [WarmupExample(messages=[{"role": "user", "content": compact_hint_request(p.code)}],
                          target=table_hint(p.params["table"])) for p in _tabled(corpus)]


def agent_lessons(corpus: Sequence[Program], backend: ExecutionBackend, rng: random.Random, *,
                  system_prompt: str, programs: int = 60, episodes: int = 12) -> list[WarmupExample]:
    """Contexts of episodes of up to ``programs`` valid signal programs (``episodes`` each, half of them
    hinted), in the messages a rollout sends: the system prompt, the first observation (with the hint
    after it), then each move and the observation it got; as many unhinted contexts as hinted ones."""
    lessons: dict[bool, list[WarmupExample]] = {True: [], False: []}
    for program in _tabled(corpus)[:programs]:
        table = program.params["table"]
        moves = sorted(set(table.values()))
        try:
            with backend.open_session(program.code) as session:
                for _ in range(episodes):
                    first = session.reset(rng.randrange(2**31)).observation
                    hinted = rng.random() < 0.5
                    following = list(session.solution()) if hinted else []
                    shown = inject_hint(first, table_hint(table)) if hinted else first
                    lessons[hinted] += episode_contexts(
                        session, [{"role": "system", "content": system_prompt}, {"role": "user", "content": shown}],
                        (ACTION.format(move=following[turn] if turn < len(following) else rng.choice(moves))
                         for turn in range(program.params["length"] * 2 + 2)))
        except EnvRuntimeError:
            continue  # a program the sandbox cannot run teaches nothing
    # As many unhinted contexts as hinted ones: an unhinted episode at chance runs to the turn limit, a
    # hinted one ends at its last move, and the hinted contexts are what teaches reading a hint.
    unhinted = rng.sample(lessons[False], min(len(lessons[False]), len(lessons[True])))
    return lessons[True] + unhinted
