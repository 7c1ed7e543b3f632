# expect: blocked at step
# attack: step() uses multiprocessing.Process / Pool and concurrent.futures executors.
"""Hostile environment: spawn worker processes."""


def _attempt(label, action):
    try:
        result = action()
    except Exception as error:  # noqa: BLE001
        return f"{label}={type(error).__name__}", False
    return f"{label}=SUCCEEDED({str(result)[:40]!r})", True


def _process():
    import multiprocessing

    worker = multiprocessing.Process(target=print)
    worker.start()
    return worker.pid


def _pool():
    import multiprocessing

    with multiprocessing.Pool(2) as pool:
        return pool.map(abs, [-1, -2])


def _executor():
    import concurrent.futures

    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        return list(pool.map(abs, [-1]))


class MultiprocessingEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return "Parallelise.", {}

    def step(self, action):
        results = [
            _attempt("process", _process),
            _attempt("pool", _pool),
            _attempt("executor", _executor),
        ]
        escaped = any(ok for _, ok in results)
        text = ("ESCAPED: " if escaped else "BLOCKED: ") + "; ".join(t for t, _ in results)
        return text, 0.0, True, False, {}

    def solution(self):
        return "anything"

    def close(self):
        pass
