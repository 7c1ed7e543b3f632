"""``spade-envs play``: one episode of an environment in the terminal, as the agent would see it.

Moves come from the keyboard, from a file (``--actions``, read exactly as typed lines) or from the
environment's own ``solution()`` (``--solution``). At a terminal the prompt is readline's: arrow keys
edit the line and recall earlier moves (the history of this episode), Ctrl-D ends the input and Ctrl-C
interrupts on a line of its own. ``:quit`` stops and shows the solution, so a person who gives up
learns the answer. The header names the environment and the seed, so an episode can be replayed.

Everything the environment chose (observations, the solution, error messages) is escaped with
``cliutil.printable`` and the solution is shown bounded (``SHOWN_SOLUTION_*``), because an environment
is untrusted code.
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from spade_envs.cliutil import EXIT_INVALID, EXIT_OK, UsageError, printable
from spade_envs.contract.actions import solution_to_actions
from spade_envs.contract.episode import episode_return, inject_hint
from spade_envs.fileio import write_atomically
from spade_envs.runtime.errors import EnvCodeError, EnvRuntimeError
from spade_envs.spec.models import EpisodeLog, env_id_for
from spade_envs.terminal import Screen, is_terminal, styled

QUIT = ":quit"
PROMPT = "action> "
SHOWN_SOLUTION_ACTIONS = 20
SHOWN_SOLUTION_CHARS = 400
"""How much of a revealed solution is shown: at most this many actions, each cut to this many characters."""


class MoveReader:
    """The moves a person types: through readline's ``input()`` when both ends are a terminal (line
    editing, history), else lines read from ``stdin`` with the prompt written to ``out``."""

    def __init__(self, stdin: TextIO, out: TextIO) -> None:
        self.stdin, self.out = stdin, out
        self.interactive = stdin is sys.stdin and out is sys.stdout and is_terminal(stdin) and is_terminal(out)
        if self.interactive:
            try:
                import readline  # importing it is what gives input() editing and history
            except ImportError:  # a Python built without it: plain input() still works
                return
            readline.clear_history()  # this episode's moves only
            readline.set_auto_history(True)

    def read(self) -> str | None:
        """The next line without its newline; None at the end of the input (Ctrl-D, end of file)."""
        if self.interactive:
            try:
                with signals_reach_readline():
                    return input("\n" + PROMPT)
            except EOFError:
                self.out.write("\n")
                return None
        self.out.write("\n" + PROMPT)
        self.out.flush()
        line = self.stdin.readline()
        return line.rstrip("\n") if line else None


NUDGE_SIGNAL: signal.Signals | None = getattr(signal, "SIGUSR1", None)  # POSIX only
NUDGE_INTERVAL_S = 0.1


@contextmanager
def signals_reach_readline() -> Iterator[None]:
    """Make a Ctrl-C typed at readline's prompt interrupt it at once, every time.

    CPython's readline loop looks at pending signals only when its ``select()`` is interrupted. A
    Ctrl-C that arrives while readline is busy (echoing a key, redrawing the line) is recorded and then
    waits, unseen, until Enter: the person presses Ctrl-C and nothing happens. While the prompt is up, a
    helper thread therefore interrupts the main thread's ``select()`` every ``NUDGE_INTERVAL_S`` with a
    signal whose handler does nothing, so a recorded Ctrl-C is acted on within that time. The nudge is
    restartable (``siginterrupt`` off), so it never cuts readline's own writes short.
    """
    if (NUDGE_SIGNAL is None or not hasattr(signal, "pthread_kill")
            or threading.current_thread() is not threading.main_thread()):
        yield
        return
    nudge_signal = NUDGE_SIGNAL
    previous = signal.signal(nudge_signal, lambda signum, frame: None)
    signal.siginterrupt(nudge_signal, False)
    stop = threading.Event()
    main = threading.main_thread().ident
    assert main is not None

    def nudge() -> None:
        while not stop.wait(NUDGE_INTERVAL_S):
            signal.pthread_kill(main, nudge_signal)

    nudger = threading.Thread(target=nudge, name="spade-play-nudge", daemon=True)
    nudger.start()
    try:
        yield
    finally:
        stop.set()
        nudger.join()
        signal.signal(nudge_signal, signal.SIG_DFL if previous is None else previous)


@dataclass
class Episode:
    """What happened so far, for the ending lines and the log."""

    observations: list[str]
    actions: list[str] = field(default_factory=list)
    rewards: list[float] = field(default_factory=list)
    terminated: bool = False
    truncated: bool = False

    @property
    def over(self) -> bool:
        return self.terminated or self.truncated

    @property
    def result(self) -> float:
        return episode_return(self.rewards, self.terminated)


def play_session(session: Any, args: argparse.Namespace, lines: Iterator[str] | None, source: str,
                 label: str, out: TextIO, stdin: TextIO) -> int:
    """Play one episode with moves typed on ``stdin``, read from ``lines`` (--actions) or from solution().

    Lines read from a file are treated exactly like typed lines: bare moves are wrapped in ``\\boxed{}``
    (unless --raw) and ``:quit`` stops. The solution's actions are sent as they are. Running out of
    moves is reported as such, not as the end of the episode.
    """
    screen = Screen.of(out)
    tool_use = session.loaded.tool_use
    solution: list[str] | None = None
    try:
        first = session.reset(args.seed)
        if args.solution:
            solution = solution_actions(session.solution(), tool_use)
    except EnvRuntimeError as error:
        screen.line(styled(("spade-envs: the environment failed: ", "fail"), printable(error)))
        return EXIT_INVALID
    if solution is not None and not solution:
        screen.line(styled(("spade-envs: the environment's solution() gave no actions to play", "fail")))
        return EXIT_INVALID
    _print_header(screen, label, session, args, solution is not None, lines is not None)
    episode = Episode([inject_hint(first.observation, args.hint)])
    screen.block(printable(episode.observations[0], multiline=True))
    if tool_use and solution is None:
        screen.line(styled("\nTools: ", (_tool_names(session), "check")))
    reader = MoveReader(stdin, out) if solution is None and lines is None else None
    ending = "input"
    try:
        while not episode.over:
            if solution is not None:
                if not solution:
                    break
                action = solution.pop(0)
                screen.line("")
                screen.wrapped(styled((PROMPT, "muted"), printable(action)), hang=len(PROMPT))
            else:
                line = reader.read() if reader is not None else next(lines, None)  # type: ignore[union-attr]
                if line is None:
                    break
                if reader is None:
                    screen.line("")
                    screen.wrapped(styled((PROMPT, "muted"), printable(line)), hang=len(PROMPT))
                if line.strip() == QUIT:
                    ending = "quit"
                    break
                action = _as_action(line, tool_use, raw=args.raw)
            try:
                step = session.step(action)
            except EnvRuntimeError as error:
                screen.line(styled(("spade-envs: the environment failed: ", "fail"), printable(error)))
                return EXIT_INVALID
            episode.actions.append(action)
            episode.observations.append(step.observation)
            episode.rewards.append(step.reward)
            episode.terminated, episode.truncated = step.terminated, step.truncated
            screen.block(printable(step.observation, multiline=True))
            status = f"  reward={step.reward:g} terminated={step.terminated} truncated={step.truncated}"
            screen.line(styled((status, "muted")))
    except KeyboardInterrupt:
        out.write("\n")  # the cursor may be after the prompt: the interruption message gets a line of its own
        out.flush()
        raise
    _print_ending(screen, episode, ending, args.seed, from_solution=solution is not None)
    if ending == "quit":
        _reveal_solution(screen, session, tool_use)
    if args.log:
        log = EpisodeLog(env_id=env_id_for(source), seed=args.seed, hint=args.hint, actions=episode.actions,
                         observations=episode.observations, rewards=episode.rewards,
                         terminated=episode.terminated, truncated=episode.truncated, episode_return=episode.result)
        _write_atomically(Path(args.log), log.model_dump_json(indent=2) + "\n")
    return EXIT_OK


def _print_header(screen: Screen, label: str, session: Any, args: argparse.Namespace, from_solution: bool,
                  from_file: bool) -> None:
    name = printable(session.loaded.class_name)
    what = ("replaying its solution()" if from_solution else f"moves from {printable(args.actions)}" if from_file
            else f"type a move (wrapped in \\boxed{{}} unless --raw), {QUIT} to stop and see the solution")
    hint = ", with the hint" if args.hint else ""
    screen.wrapped(styled(("playing ", "muted"), (printable(label), "figure"), f" ({name}), ",
                          (f"seed {args.seed}", "figure"), f"{hint}; {what}"), hang=4)
    screen.line("")


def _print_ending(screen: Screen, episode: Episode, ending: str, seed: int, *, from_solution: bool) -> None:
    count, result = len(episode.actions), episode.result
    if episode.over:
        outcome = "ok" if result > 0 else "fail"
        screen.line("")
        screen.wrapped(styled("Episode over after ", f"{count} actions: ", (f"return {result:g}", outcome),
                              f" (seed {seed})"))
        return
    if ending == "quit":
        text = f"Stopped ({QUIT}) after {count} actions; the episode is not over (return so far {result:g})"
    else:
        source_name = "the solution's actions" if from_solution else "the input"
        text = (f"{source_name.capitalize()} ran out after {count} actions; the episode is not over "
                f"(return so far {result:g})")
    screen.line("")
    screen.wrapped(styled((text, "warning")))


def _reveal_solution(screen: Screen, session: Any, tool_use: bool) -> None:
    """Show what ``solution()`` returns for this episode, as the moves that play it (bounded, escaped)."""
    try:
        actions = solution_actions(session.solution(), tool_use)
    except EnvRuntimeError as error:
        screen.wrapped(styled(("The environment's solution() failed: ", "fail"), printable(error)))
        return
    if not actions:
        screen.line("The environment's solution() gives no actions.")
        return
    shown = actions[:SHOWN_SOLUTION_ACTIONS]
    screen.line(styled(("The solution", "header"), f" ({len(actions)} action(s)):"))
    for action in shown:
        text = printable(action)
        cut = text if len(text) <= SHOWN_SOLUTION_CHARS else text[:SHOWN_SOLUTION_CHARS] + "..."
        screen.wrapped(styled(("> ", "muted"), (cut, "ok")), indent=2, hang=2)
    if len(actions) > len(shown):
        screen.line(styled((f"  ... and {len(actions) - len(shown)} more", "muted")))


def solution_actions(solution: Any, tool_use: bool) -> list[str]:
    """The actions of what solution() returned; a shape the contract does not know is the environment's error."""
    try:
        return solution_to_actions(solution, tool_use=tool_use)
    except (TypeError, ValueError, AttributeError) as error:
        raise EnvCodeError("solution", type(error).__name__,
                           "its result cannot be turned into actions; return the answer, a list of moves, or tool "
                           "calls as {'name': ..., 'arguments': {...}}") from None


def _tool_names(session: Any) -> str:
    """The tools' names as the environment declares them (escaped; shapes it got wrong are left out)."""
    names = []
    for tool in session.tools() or []:
        function = tool.get("function") if isinstance(tool, dict) else None
        name = function.get("name") if isinstance(function, dict) else None
        if isinstance(name, str):
            names.append(printable(name))
    return ", ".join(names) or "(none declared)"


def _as_action(text: str, tool_use: bool, raw: bool) -> str:
    """Wrap a bare typed move so people can play without typing \\boxed{} every turn."""
    if raw or "\\boxed{" in text or "<tool_call>" in text or "<answer>" in text:
        return text
    return solution_to_actions(text.strip(), tool_use=tool_use)[0]


def _write_atomically(path: Path, text: str) -> None:
    try:
        write_atomically(path, text)
    except OSError as error:
        raise UsageError(f"cannot write {path}: {error.strerror or error}") from None


