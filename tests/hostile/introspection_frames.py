# expect: blocked at step
# attack: step() walks frames (sys._getframe, a traceback's tb_frame.f_back, generator/coroutine frames,
#         function __globals__ and __builtins__) to every reachable globals dict, looking for host capabilities.
"""Hostile environment: frame walking to the code that called the environment."""

import sys

DANGEROUS = ("system", "popen", "fork", "execv", "Popen", "connect", "create_connection", "CDLL", "urlopen")


def _attempt(label, action):
    try:
        result = action()
    except Exception as error:  # noqa: BLE001
        return f"{label}={type(error).__name__}", False
    if not result:
        return f"{label}=nothing", False
    return f"{label}=SUCCEEDED({str(result)[:80]!r})", True


def _frames_from(frame):
    frames = []
    while frame is not None:
        frames.append(frame)
        frame = frame.f_back
    return frames


def _traceback_frames():
    try:
        raise ValueError("probe")
    except ValueError as error:
        return _frames_from(error.__traceback__.tb_frame)


def _all_globals():
    spaces = []
    for frame in _frames_from(sys._getframe()) + _traceback_frames():
        spaces.append(frame.f_globals)
        spaces.append(frame.f_builtins)
        spaces.append(frame.f_locals)
    spaces.append(_attempt.__globals__)
    spaces.append(_attempt.__builtins__)
    return spaces


def _dangerous_in_frames():
    found = set()
    for space in _all_globals():
        for name in DANGEROUS:
            value = space.get(name) if hasattr(space, "get") else None
            if callable(value):
                found.add(f"{space.get('__name__', '?')}.{name}")
        for value in list(space.values()) if hasattr(space, "values") else []:
            for name in DANGEROUS:
                if type(value).__name__ == "module" and callable(getattr(value, name, None)):
                    found.add(f"{value.__name__}.{name}")
    return sorted(found)


def _host_filenames():
    names = {frame.f_code.co_filename for frame in _frames_from(sys._getframe())}
    return sorted(n for n in names if n.startswith("/") and "site-packages" in n or "pytest" in n)


class FrameWalkEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return "Who called me?", {}

    def step(self, action):
        results = [
            _attempt("dangerous_in_frames", _dangerous_in_frames),
            _attempt("host_filenames", _host_filenames),
            _attempt("generator_frame", lambda: (lambda g: g.gi_frame.f_back)((x for x in [1]))),
        ]
        escaped = any(ok for _, ok in results)
        text = ("ESCAPED: " if escaped else "BLOCKED: ") + "; ".join(t for t, _ in results)
        depth = len(_frames_from(sys._getframe()))
        return text, 0.0, True, False, {"frames": depth}

    def solution(self):
        return "anything"

    def close(self):
        pass
