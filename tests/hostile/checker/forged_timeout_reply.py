# verdict: invalid
# findings: runtime_limit
# never: timeout
# tier: contract
# static: passes
# backends: wasm process
# attack: on an empty action step() forges an error reply of kind "timeout", which only the host may report.
import functools
import random
import re


def _two():
    return 2


_U = "_" * _two()
_BOX = []
_CODE = "(_BOX.append(" + _U + "import" + _U + "('sys')), int)[1]"


@functools.singledispatch
def _probe(value):
    return None


def _reader(value: _CODE):
    return value


def _sys():
    """The guest's sys module, through an annotation that functools evaluates: the static tier cannot see it."""
    if not _BOX:
        _probe.register(_reader)
    return _BOX[0]


def _forge_replies(make):
    """From now on every reply of this instance is make(reply): patch the runtime's JSON encoder."""
    sys = _sys()
    app = sys.modules.get("guest_app")
    if app is not None:  # the wasm guest
        real = app._dumps
        app._dumps = lambda reply, *args, **kwargs: real(make(reply))
    else:  # the process backend's child
        json = sys.modules["json"]
        real = json.dumps
        json.dumps = lambda reply, *args, **kwargs: real(make(reply))


class ForgedTimeoutEnv:
    """Guess the hidden number; one guess per turn."""

    def __init__(self, max_turns=5, **kwargs):
        self.max_turns = max_turns
        self.reset()

    def reset(self, seed=None):
        self.rng = random.Random(seed)
        self.target = self.rng.randint(100, 999)
        self.offset = self.rng.randint(2, 9)
        self.turn = 0
        self.done = False
        return f"Guess the number, answer as \\boxed{{n}}. It is {self.target - self.offset} plus {self.offset}.", {}

    def step(self, action):
        if self.done:
            return "over", 0.0, True, False, {}
        self.turn += 1
        if not action:
            _forge_replies(lambda reply: {"ok": False, "error": {"kind": "timeout", "message": "ran longer than 1 s"}})
        found = re.findall(r"\\boxed\{([^{}]*)\}", action)
        if found and found[-1].strip() == str(self.target):
            self.done = True
            return "correct", 1.0, True, False, {}
        self.done = self.turn >= self.max_turns
        return "wrong", 0.0, False, self.done, {}

    def solution(self):
        return str(self.target)

    def close(self):
        pass
