"""An OpenEnv environment folder as a SPADE environment, so the gate can audit it: ``spade-envs validate
openenv:FOLDER --sandbox process``.

OpenEnv (``openenv`` on PyPI) environments are folders laid out as ``openenv init`` writes them: the
action and observation models in ``models.py``, an ``Environment`` subclass in ``server/``, and
``server/app.py`` serving it with ``create_app(EnvClass, ActionClass, ObservationClass, ...)``. The host
reads ``app.py`` as text to learn which classes those are and where they live (nothing of the folder runs
here); the generated environment file imports them in the process sandbox and drives the environment
directly, as the server would, without HTTP.

What the adapter converts:

* An action: the agent's text (what is inside its last complete ``\\boxed{}``, where it has one) fills
  the action's one required text field (``message`` in the template); an action with other fields takes
  the text as a JSON object of them. Text that makes no valid action is
  answered as the server answers it, with the validation error as the observation (reward 0, not done).
* An observation: its one text field, or its fields as JSON (``done``, ``reward`` and ``metadata`` left
  out); ``reward`` (None is 0.0) and ``done`` become the step's reward and ``terminated``.
* Episodes end at ``max_turns`` (30, or the one given) with ``truncated``: OpenEnv has no turn limit of
  its own. ``reset(seed)`` passes the seed; ``solution()`` is None (OpenEnv ships no reference solution).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

from spade_envs.interop.third_party import DEFAULT_MAX_TURNS, LAST_BOXED, LibraryTarget
from spade_envs.syntax import parse

PREFIX = "openenv:"
CLASS_NAME = "OpenEnvEnv"
LIBRARIES = ("openenv", "pydantic", "sys")
"""What the adapter imports (``sys``: to put the folder on the import path, in the process sandbox)."""
APP_FACTORIES = ("create_app", "create_fastapi_app", "create_web_interface_app")
UNCHECKED = (
    "the environment's own code is imported in the sandbox, not read by the static tier (only the adapter is)",
    ("OpenEnv ships no reference solution, so the feasibility tier (a winning play exists, no cheap policy or "
     "leaked answer wins) is not run"),
    ("the adapter ends an episode at max_turns and maps text onto the action's fields: those contract points "
     "are the adapter's, not the environment's"),
)


class OpenEnvInputError(ValueError):
    """A folder that cannot be adapted (one line: what, and how to fix it)."""


@dataclass(frozen=True)
class _Served:
    """Where the served classes live, as modules importable once ``path`` is on the import path."""

    path: Path
    environment: tuple[str, str]
    action: tuple[str, str]


def openenv_target(target: str) -> LibraryTarget:
    """The adapter for ``openenv:FOLDER``."""
    folder = Path(target[len(PREFIX):])
    if not folder.is_dir():
        raise OpenEnvInputError(f"{target!r}: {folder} is not a folder; name an OpenEnv environment's folder (the "
                                "one holding server/app.py)")
    served = _served(folder)
    source = _ADAPTER.format(
        path=repr(str(served.path.resolve())), env_module=served.environment[0], env_class=served.environment[1],
        action_module=served.action[0], action_class=served.action[1], class_name=CLASS_NAME,
        max_turns=DEFAULT_MAX_TURNS, last_boxed=LAST_BOXED)
    own = tuple(dict.fromkeys(module.split(".")[0] for module, _ in (served.environment, served.action)))
    return LibraryTarget(target, source, CLASS_NAME, (*LIBRARIES, *own), None, False, False, UNCHECKED)


def _served(folder: Path) -> _Served:
    """The environment and action classes ``server/app.py`` serves, with the modules they come from."""
    app = folder / "server" / "app.py"
    try:
        tree = parse(app.read_text(encoding="utf-8-sig"))
    except FileNotFoundError:
        raise OpenEnvInputError(f"openenv:{folder}: no server/app.py; an OpenEnv environment serves its classes "
                                "there with create_app(EnvClass, ActionClass, ObservationClass)") from None
    except (OSError, ValueError, SyntaxError, RecursionError, MemoryError) as error:
        raise OpenEnvInputError(f"openenv:{folder}: cannot read server/app.py ({type(error).__name__}); fix it "
                                "so that it parses") from None
    call = next((node for node in ast.walk(tree) if isinstance(node, ast.Call) and _name(node.func) in APP_FACTORIES
                 and len(node.args) >= 2 and all(isinstance(a, ast.Name) for a in node.args[:2])), None)
    if call is None:
        raise OpenEnvInputError(f"openenv:{folder}: server/app.py calls no {' or '.join(APP_FACTORIES)} with the "
                                "environment and action classes by name")
    package = (folder / "__init__.py").is_file()
    environment, action = (_origin(tree, arg.id, folder.name, package) for arg in call.args[:2])  # type: ignore[attr-defined]
    return _Served(folder.parent if package else folder, environment, action)


def _name(node: ast.expr) -> str | None:
    return node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else None


def _origin(tree: ast.Module, name: str, package_name: str, package: bool) -> tuple[str, str]:
    """(module, class) that ``name`` is imported from in app.py, as the adapter imports it: relative to the
    folder's parent when the folder is a package, else to the folder (``server.x``, ``models``)."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom):
            continue
        for alias in node.names:
            if (alias.asname or alias.name) != name:
                continue
            module = node.module or ""
            if node.level == 1:  # from .NAME_environment import ...: a module of server/
                module = f"server.{module}" if module else "server"
            elif node.level > 2:
                continue
            elif node.level == 0 and module.startswith(f"{package_name}."):  # the package's absolute name
                module = module[len(package_name) + 1:]
            if not module:  # level 2 (from ..models import ...) is relative to the folder already
                continue
            return (f"{package_name}.{module}" if package else module), alias.name
    raise OpenEnvInputError(f"server/app.py serves {name!r} but does not import it from the folder's modules "
                            "(from ..models import ..., from .NAME_environment import ...)")


_ADAPTER = '''"""An OpenEnv environment as a SPADE environment: generated by spade-envs
(spade_envs/interop/openenv_input.py; see its docstring for every conversion)."""

import json
import sys

sys.path[:0] = [{path}]

import openenv.core.env_server.types  # noqa: E402 -- preloaded by the process sandbox's template
from {env_module} import {env_class} as _SpadeServed  # noqa: E402
from {action_module} import {action_class} as _SpadeAction  # noqa: E402

_SPADE_SKIPPED = ("done", "reward", "metadata")


def _text_field(model):
    """The one required text field of a model class, or None."""
    fields = [name for name, info in model.model_fields.items()
              if name not in _SPADE_SKIPPED and info.is_required()]
    if len(fields) == 1 and model.model_fields[fields[0]].annotation is str:
        return fields[0]
    return None


{last_boxed}

def _action(text):
    boxed = _last_boxed(text)
    text = text if boxed is None else boxed  # SPADE agents box their move; the action gets what is inside
    field = _text_field(_SpadeAction)
    if field is not None:
        return _SpadeAction(**{{field: text}})
    return _SpadeAction.model_validate_json(text)


def _observation_text(observation):
    values = {{k: v for k, v in observation.model_dump().items() if k not in _SPADE_SKIPPED}}
    texts = [v for v in values.values() if isinstance(v, str)]
    if len(values) == 1 and texts:
        return texts[0]
    return json.dumps(values, default=str, sort_keys=True)


class {class_name}:
    """The served environment, driven as its server drives it."""

    def __init__(self, max_turns={max_turns}, **kwargs):
        self.max_turns = max_turns
        self._env = _SpadeServed()
        self._steps = 0
        self._ended = False

    def reset(self, seed=None):
        self._steps, self._ended = 0, False
        observation = self._env.reset(seed=seed)
        return _observation_text(observation), {{}}

    def step(self, action):
        if self._ended:
            return "The episode is over; call reset().", 0.0, True, False, {{}}
        self._steps += 1
        truncated = self._steps >= self.max_turns
        try:
            move = _action(action if isinstance(action, str) else str(action))
        except ValueError as error:  # pydantic's ValidationError: the server answers 422 with it
            self._ended = truncated
            return f"Invalid action: {{str(error)[:500]}}", 0.0, False, truncated, {{}}
        observation = self._env.step(move)
        reward = observation.reward
        reward = 0.0 if reward is None else float(reward) if isinstance(reward, (int, float)) else reward
        done = observation.done is True
        self._ended = done or truncated
        return _observation_text(observation), reward, done, truncated and not done, {{}}

    def solution(self):
        return None  # OpenEnv environments ship no reference solution

    def close(self):
        close = getattr(self._env, "close", None)
        if callable(close):
            close()
'''
