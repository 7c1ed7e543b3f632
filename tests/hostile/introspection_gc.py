# expect: blocked at step
# attack: step() scans gc.get_objects() and every module for host-side objects (wasmtime stores, the host's
#         sessions, sockets, open files, pytest) and calls every system/popen/fork/spawnv it can find.
"""Hostile environment: search the heap for anything that belongs to the host."""

import gc
import sys

HOST_MARKERS = ("wasmtime", "_pytest", "pytest", "EnvSession", "WasmTransport", "WasmRuntime", "subprocess", "socket")


def _attempt(label, action):
    try:
        result = action()
    except Exception as error:  # noqa: BLE001
        return f"{label}={type(error).__name__}", False
    if not result:
        return f"{label}=nothing", False
    return f"{label}=SUCCEEDED({str(result)[:80]!r})", True


def _host_objects():
    found = set()
    for obj in gc.get_objects():
        name = type(obj).__name__
        module = getattr(type(obj), "__module__", "") or ""
        for marker in HOST_MARKERS:
            if marker in name or marker in module:
                found.add(f"{module}.{name}")
    return sorted(found)


def _dangerous_callables():
    """Call every system/popen/fork/spawnv found in any loaded module (harmless arguments); report successes."""
    worked = []
    for module_name, module in list(sys.modules.items()):
        for attr, args in (("system", ("true",)), ("popen", ("true",)), ("fork", ()), ("spawnv", (0, "/bin/true", ["true"]))):
            try:
                value = getattr(module, attr, None)
                if callable(value):
                    value(*args)
                    worked.append(f"{module_name}.{attr}")
            except Exception:  # noqa: BLE001 -- present but unusable (e.g. os.popen needs subprocess)
                continue
    return worked


def _open_files():
    return [obj for obj in gc.get_objects() if type(obj).__name__ in ("FileIO", "BufferedReader", "TextIOWrapper")
            and getattr(obj, "name", None) not in (0, 1, 2, "<stdin>", "<stdout>", "<stderr>")]


def _referrers_of_env(env):
    holders = []
    for ref in gc.get_referrers(env):
        holders.append(type(ref).__name__)
    return [h for h in holders if h not in ("dict", "frame", "list", "cell", "tuple", "method", "EnvHost")]


class GcWalkEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return "Look around.", {}

    def step(self, action):
        results = [
            _attempt("host_objects", _host_objects),
            _attempt("dangerous_callables", _dangerous_callables),
            _attempt("open_files", _open_files),
            _attempt("unexpected_referrers", lambda: _referrers_of_env(self)),
        ]
        escaped = any(ok for _, ok in results)
        text = ("ESCAPED: " if escaped else "BLOCKED: ") + "; ".join(t for t, _ in results)
        return text, 0.0, True, False, {"objects": len(gc.get_objects())}

    def solution(self):
        return "anything"

    def close(self):
        pass
