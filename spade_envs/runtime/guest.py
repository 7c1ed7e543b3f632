"""The request dispatcher that lives next to the environment object.

Every backend runs environment code through this one dispatcher: ``inprocess`` calls it directly,
the ``process`` and ``wasm`` backends run it on the far side of a pipe or a sandbox boundary. It is
standard-library only so it can be embedded in a WebAssembly guest.

Requests and replies are plain dicts: ``{"op": "load" | "reset" | "step" | "solution" | "tools" |
"close", ...}`` -> ``{"ok": True, "result": ...}`` or ``{"ok": False, "error": {...}}``. The dispatcher
never lets an exception escape and never calls methods of objects the environment created while
describing an error, because those methods are untrusted code too.
"""

from __future__ import annotations

import base64
import builtins
import marshal
from typing import Any

from spade_envs.contract.tool_use import ToolUseBaseEnv

ENV_FILENAME = "<environment>"
MAX_PLAIN_DEPTH = 32
_SAFE_SCALARS = (str, int, float, bool, type(None))


class EnvClassNotFound(LookupError):
    """The module does not define exactly one public ``*Env`` class (or the named one)."""


def find_env_class(namespace: dict[str, Any], module_name: str, class_name: str | None) -> type:
    """The environment class defined by the module: the one named, or the only public ``*Env`` class."""
    if class_name is not None:
        found = namespace.get(class_name)
        if not isinstance(found, type):
            raise EnvClassNotFound(f"the module defines no class named {class_name!r}")
        return found
    candidates = [
        value
        for name, value in namespace.items()
        if isinstance(value, type)
        and name.endswith("Env")
        and not name.startswith("_")
        and value is not ToolUseBaseEnv
        and getattr(value, "__module__", None) == module_name
    ]
    if len(candidates) != 1:
        found_names = ", ".join(sorted(c.__name__ for c in candidates)) or "none"
        raise EnvClassNotFound(f"expected exactly one public class named *Env, found {found_names}")
    return candidates[0]


def safe_text(value: object, limit: int = 2000) -> str:
    """Describe a value without running any of its methods (they may be hostile)."""
    if isinstance(value, str) and type(value) is str:
        return value[:limit]
    if type(value) in (int, float, bool) or value is None:
        return repr(value)[:limit]
    return f"<{type(value).__name__} object>"


def to_plain(value: Any, depth: int = 0) -> Any:
    """Copy a value into plain JSON types, replacing anything else by a short type tag."""
    if depth > MAX_PLAIN_DEPTH:
        return "<too deep>"
    if type(value) in _SAFE_SCALARS:
        return value
    # Subclasses of str/int/float are copied with the base type's own C methods, so that no method the
    # environment overrode (__str__, __float__, __eq__) runs while describing its reply.
    if isinstance(value, str):
        return str.__getitem__(value, slice(None))
    if isinstance(value, float):
        return float.__add__(value, 0.0)
    if isinstance(value, int) and not isinstance(value, bool):
        return int.__add__(value, 0)
    if type(value) in (list, tuple):
        return [to_plain(item, depth + 1) for item in value]
    if type(value) is dict:
        return {safe_text(key, 200): to_plain(item, depth + 1) for key, item in value.items()}
    return f"<{type(value).__name__} object>"


def format_env_traceback(error: BaseException, source_lines: list[str]) -> tuple[str, int | None]:
    """The traceback restricted to frames of the environment's own file, with their source lines.

    Returns the text and the line number of the innermost environment frame.
    """
    lines: list[str] = []
    last_line: int | None = None
    tb = error.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        if code.co_filename == ENV_FILENAME:
            last_line = tb.tb_lineno
            text = source_lines[last_line - 1].strip() if 0 < last_line <= len(source_lines) else ""
            lines.append(f"  line {last_line}, in {code.co_name}\n    {text}")
        tb = tb.tb_next
    if isinstance(error, SyntaxError) and error.lineno:
        last_line = error.lineno
    message = describe_exception(error)
    body = "\n".join(lines)
    head = "Traceback (environment frames only):\n" + body + "\n" if body else ""
    return f"{head}{type(error).__name__}: {message}", last_line


def describe_exception(error: BaseException) -> str:
    """An exception's message built from its plain arguments only, never from its ``__str__``."""
    if isinstance(error, SyntaxError):
        return f"{error.msg} (line {error.lineno})"
    args = getattr(error, "args", ())
    if type(args) is not tuple:
        return "<unprintable exception>"
    return ", ".join(safe_text(arg, 300) for arg in args[:5])[:600]


def _error_kind(error: BaseException) -> str:
    if isinstance(error, MemoryError):
        return "memory"
    if isinstance(error, EnvClassNotFound):
        return "load"
    return "exception"


class EnvHost:
    """Holds one environment instance and serves requests against it."""

    def __init__(self, passthrough: tuple[type[BaseException], ...] = ()) -> None:
        # ``passthrough`` lets a host-side interrupt (a deadline alarm) escape instead of being
        # reported as an exception of the environment.
        self.passthrough = passthrough
        self.envs: list[Any] = []  # index 0 is the session's environment; more only via "spawn"
        self.env_class: type | None = None
        self.init_kwargs: dict[str, Any] = {}
        self.source_lines: list[str] = []

    def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        op = request.get("op")
        handler = getattr(self, "_op_" + str(op), None)
        if handler is None:
            return {"ok": False, "error": {"kind": "protocol", "message": f"unknown request {op!r}"}}
        try:
            return {"ok": True, "result": handler(request)}
        except self.passthrough:
            raise
        except BaseException as error:  # noqa: BLE001 -- environment code may raise anything, even SystemExit
            text, line = format_env_traceback(error, self.source_lines)
            return {
                "ok": False,
                "error": {
                    "kind": _error_kind(error),
                    "phase": str(op),
                    "type": type(error).__name__,
                    "message": describe_exception(error),
                    "traceback": text,
                    "line": line,
                },
            }

    def _op_load(self, request: dict[str, Any]) -> dict[str, Any]:
        source = request["source"]
        self.source_lines = source.splitlines()
        # A sandbox host may send the module already compiled (see ``_op_compile``): compiling is most
        # of the cost of a load, and every environment is loaded dozens of times.
        cached = request.get("compiled")
        code = marshal.loads(base64.b64decode(cached)) if cached else compile(source, ENV_FILENAME, "exec")
        module_name = "spade_environment"
        namespace: dict[str, Any] = {
            "__name__": module_name,
            "__builtins__": builtins,
            "ToolUseBaseEnv": ToolUseBaseEnv,
        }
        exec(code, namespace)  # noqa: S102 -- this *is* the loader; backends decide where it runs
        env_class = find_env_class(namespace, module_name, request.get("class_name"))
        kwargs = dict(request.get("init_kwargs") or {})
        if request.get("max_turns") is not None:
            kwargs["max_turns"] = request["max_turns"]
        env = env_class(**kwargs)
        self.envs, self.env_class, self.init_kwargs = [env], env_class, kwargs
        declared = getattr(env_class, "reward_range", None)
        max_turns = getattr(env, "max_turns", None)
        return {
            "class_name": env_class.__name__,
            "tool_use": isinstance(env, ToolUseBaseEnv),
            "max_turns": max_turns if type(max_turns) is int else None,
            "reward_range": to_plain(declared) if type(declared) in (tuple, list) else None,
        }

    def _op_compile(self, request: dict[str, Any]) -> str:
        """Compile a module without running it; the marshalled code, base64-encoded.

        Hosts must only ask a pristine instance, one that has never run environment code, and then
        discard it: an instance that ran environment code can forge any reply.
        """
        code = compile(request["source"], ENV_FILENAME, "exec")
        return base64.b64encode(marshal.dumps(code)).decode()

    def _env(self, request: dict[str, Any]) -> Any:
        index = request.get("instance", 0)
        if type(index) is not int or not 0 <= index < len(self.envs):
            raise LookupError(f"no environment instance {index!r}; load one first")
        return self.envs[index]

    def _op_spawn(self, request: dict[str, Any]) -> int:
        """Construct another instance of the loaded class in the same module.

        Used to check that instances share no state (class-level lists, module globals): separate
        sessions cannot see such leaks because each has its own module.
        """
        if self.env_class is None:
            raise LookupError("no environment loaded")
        self.envs.append(self.env_class(**self.init_kwargs))
        return len(self.envs) - 1

    def _op_reset(self, request: dict[str, Any]) -> Any:
        return to_plain(self._env(request).reset(seed=request.get("seed")))

    def _op_step(self, request: dict[str, Any]) -> Any:
        return to_plain(self._env(request).step(request["action"]))

    def _op_play(self, request: dict[str, Any]) -> Any:
        """reset(seed), then step through ``actions``, stopping at the end of the episode.

        Scripted episodes (replays, solution checks, constant policies) go through one call instead
        of one per step: the per-call cost of crossing into the sandbox is larger than most steps.
        """
        env = self._env(request)
        replies = [to_plain(env.reset(seed=request.get("seed")))]
        for action in request.get("actions", []):
            reply = to_plain(env.step(action))
            replies.append(reply)
            if type(reply) is list and len(reply) == 5 and (reply[2] is True or reply[3] is True):
                break
        return replies

    def _op_solution(self, request: dict[str, Any]) -> Any:
        return to_plain(self._env(request).solution())

    def _op_hint(self, request: dict[str, Any]) -> Any:
        """The environment's own hint, if it writes one (an optional ``hint()`` method)."""
        hint = getattr(self._env(request), "hint", None)
        return to_plain(hint()) if callable(hint) else None

    def _op_tools(self, request: dict[str, Any]) -> Any:
        get_tools = getattr(self._env(request), "get_tools", None)
        return to_plain(get_tools()) if callable(get_tools) else None

    def _op_close(self, request: dict[str, Any]) -> None:
        for env in self.envs:
            close = getattr(env, "close", None)
            if callable(close):
                close()
        self.envs = []
