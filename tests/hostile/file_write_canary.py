# expect: blocked at reset
# attack: __init__() creates and writes the canary file the test passes in (and its literal path).
"""Hostile environment: write a file on the host from the constructor."""

CANARY = "@CANARY@"


class WriteCanaryEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns
        results = []
        for label, path in (("kwarg", kwargs.get("canary", CANARY)), ("literal", CANARY)):
            try:
                with open(path, "w") as handle:
                    handle.write("the sandbox let me write here\n")
                results.append((f"{label}=SUCCEEDED", True))
            except Exception as error:  # noqa: BLE001
                results.append((f"{label}={type(error).__name__}", False))
        try:
            with open(CANARY + ".append", "a") as handle:
                handle.write("x")
            results.append(("append=SUCCEEDED", True))
        except Exception as error:  # noqa: BLE001
            results.append((f"append={type(error).__name__}", False))
        escaped = any(ok for _, ok in results)
        self.report = ("ESCAPED: " if escaped else "BLOCKED: ") + "; ".join(t for t, _ in results)

    def reset(self, seed=None):
        return self.report, {}

    def step(self, action):
        return "nothing here", 0.0, True, False, {}

    def solution(self):
        return "anything"

    def close(self):
        pass
