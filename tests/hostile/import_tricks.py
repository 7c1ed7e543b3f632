# expect: blocked at reset
# attack: import time: __import__, importlib.import_module, importlib.util, _imp.create_builtin, sys.path/zipimport,
#         sys.meta_path finders, reloading os - all to reach subprocess, socket, ctypes or os.system.
"""Hostile environment: every way to import a forbidden module."""

import importlib
import sys

RESULTS = []


def _attempt(label, action):
    try:
        result = action()
    except Exception as error:  # noqa: BLE001
        RESULTS.append((f"{label}={type(error).__name__}", False))
        return
    if result is None or result is False:
        RESULTS.append((f"{label}=nothing", False))
    else:
        RESULTS.append((f"{label}=SUCCEEDED({str(result)[:40]!r})", True))


def _builtin(name):
    import _imp

    spec = importlib.machinery.ModuleSpec(name, importlib.machinery.BuiltinImporter)
    return _imp.create_builtin(spec)


def _reloaded_os_system():
    return getattr(importlib.reload(sys.modules["os"]), "system", None)


def _path_import():
    sys.path.insert(0, "/usr/lib/python3/dist-packages")
    sys.path.insert(0, "/usr/lib/python3.11")
    return __import__("subprocess")


_attempt("dunder_import_subprocess", lambda: __import__("subprocess"))
_attempt("dunder_import_socket", lambda: __import__("socket"))
_attempt("import_module_ctypes", lambda: importlib.import_module("ctypes"))
_attempt("import_module_pty", lambda: importlib.import_module("pty"))
_attempt("builtin_posixsubprocess", lambda: _builtin("_posixsubprocess"))
_attempt("builtin_ctypes", lambda: _builtin("_ctypes"))
_attempt("os_system_attr", lambda: getattr(__import__("os"), "system", None))
_attempt("posix_system_attr", lambda: getattr(__import__("posix"), "system", None))
_attempt("reload_os", _reloaded_os_system)
_attempt("sys_path", _path_import)
_attempt("zipimport", lambda: __import__("zipimport").zipimporter("/usr/lib/python311.zip").load_module("subprocess"))
_attempt("spec_from_file", lambda: importlib.util.spec_from_file_location("sp", "/usr/lib/python3.11/subprocess.py")
         .loader.load_module())


class ImportTricksEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        escaped = any(ok for _, ok in RESULTS)
        return ("ESCAPED: " if escaped else "BLOCKED: ") + "; ".join(t for t, _ in RESULTS), {}

    def step(self, action):
        return "nothing here", 0.0, True, False, {}

    def solution(self):
        return "anything"

    def close(self):
        pass
