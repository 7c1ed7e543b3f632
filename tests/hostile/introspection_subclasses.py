# expect: blocked at step
# attack: step() walks ().__class__.__base__.__subclasses__() for FileIO, BuiltinImporter, os._wrap_close and
#         any class whose methods' __globals__ hold system/popen/open, then tries to use what it finds.
"""Hostile environment: the classic subclass-walking sandbox escape."""


def _attempt(label, action):
    try:
        result = action()
    except Exception as error:  # noqa: BLE001
        return f"{label}={type(error).__name__}", False
    if not result:
        return f"{label}=nothing", False
    return f"{label}=SUCCEEDED({str(result)[:60]!r})", True


def _subclasses():
    seen, seen_ids, stack = [], set(), [().__class__.__base__]
    while stack:
        cls = stack.pop()
        try:
            children = type.__subclasses__(cls)
        except Exception:  # noqa: BLE001 -- a class that resists walking is skipped
            continue
        for child in children:
            if id(child) not in seen_ids:  # identity only: a metaclass __eq__ is code too
                seen_ids.add(id(child))
                seen.append(child)
                stack.append(child)
    return seen


def _by_name(name):
    return [cls for cls in _subclasses() if cls.__name__ == name]


def _file_io_read():
    for cls in _by_name("FileIO"):
        return cls("/etc/passwd", "r").read(100)
    return None


def _wrap_close_system():
    for cls in _by_name("_wrap_close"):
        system = cls.__init__.__globals__.get("system")
        if system:
            return system("true")
    return None


def _globals_with(name):
    found = []
    for cls in _subclasses():
        for value in list(vars(cls).values()):
            glb = getattr(value, "__globals__", None)
            if isinstance(glb, dict) and callable(glb.get(name)) and glb.get("__name__") not in found:
                found.append(glb.get("__name__"))
    return found


def _popen_from_globals():
    for cls in _subclasses():
        for value in list(vars(cls).values()):
            glb = getattr(value, "__globals__", None)
            if isinstance(glb, dict) and callable(glb.get("popen")):
                return glb["popen"]("echo pwned").read()
    return None


def _builtin_importer_load():
    for cls in _by_name("BuiltinImporter"):
        return cls.load_module("_posixsubprocess")
    return None


class SubclassWalkEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return f"There are {len(_subclasses())} classes.", {}

    def step(self, action):
        results = [
            _attempt("fileio_passwd", _file_io_read),
            _attempt("wrap_close_system", _wrap_close_system),
            _attempt("globals_with_system", lambda: _globals_with("system")),
            _attempt("popen_from_globals", _popen_from_globals),
            _attempt("builtin_importer", _builtin_importer_load),
        ]
        escaped = any(ok for _, ok in results)
        text = ("ESCAPED: " if escaped else "BLOCKED: ") + "; ".join(t for t, _ in results)
        return text, 0.0, True, False, {}

    def solution(self):
        return "anything"

    def close(self):
        pass
