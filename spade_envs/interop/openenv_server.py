"""A pool as an OpenEnv environment server: reset, step and state over OpenEnv's own protocol.

OpenEnv (``openenv`` on PyPI) serves an ``Environment`` class with FastAPI: each WebSocket client (its
``EnvClient``, or ``GenericEnvClient`` for plain dicts) gets an instance of its own, driven on a worker
thread of its own, and closed when the client closes or disconnects. Here that instance is a
``SandboxedPoolEnv``, so one client session is one sandbox session: a client that vanishes mid-episode
takes only its own sandbox with it.

Messages: ``reset`` takes ``seed``, and optionally ``env_id`` (an id of the pool, or an unambiguous start
of one) and ``hinted``; ``step`` takes ``{"text": ACTION}``; ``state`` reports the environment, seed, step
count and return so far. ``spade-envs serve-openenv POOL`` starts it on 127.0.0.1.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

import uvicorn
from openenv.core.env_server.http_server import create_fastapi_app
from openenv.core.env_server.interfaces import Environment
from openenv.core.env_server.types import Action, ConcurrencyConfig, Observation, ServerMode, State
from pydantic import Field

from spade_envs.interop.pool_env import MAX_ACTION_CHARS, PoolEnvironment, SandboxedPoolEnv
from spade_envs.pool import PoolError
from spade_envs.runtime.backend import ExecutionBackend

DEFAULT_MAX_SESSIONS = 64
DEFAULT_IDLE_TIMEOUT_S = 600.0
"""A session idle this long is closed by OpenEnv's reaper, and its sandbox with it."""


class SpadeAction(Action):
    """An agent's reply, sent to the environment whole (it reads the last ``\\boxed{}`` or the tool calls)."""

    text: str = Field(..., max_length=MAX_ACTION_CHARS, description="The agent's reply")


class SpadeObservation(Observation):
    """What the environment showed, with the pool's id of the environment and the episode's seed."""

    text: str = Field(default="", description="The environment's observation")
    env_id: str | None = Field(default=None, description="Which environment of the pool this episode plays")
    info: dict[str, Any] = Field(default_factory=dict, description="The environment's info dict (JSON values)")
    error: str | None = Field(default=None, description="Why the environment failed, ending the episode")


class SpadeState(State):
    """The episode as the server keeps it (host side: reading it never calls into the sandbox)."""

    env_id: str | None = None
    seed: int | None = None
    episode_return: float = 0.0
    terminated: bool = False
    truncated: bool = False
    error: str | None = None


class SpadeOpenEnvEnvironment(Environment[SpadeAction, SpadeObservation, SpadeState]):
    """One client session: a ``SandboxedPoolEnv`` over the pool, in its own sandbox session."""

    SUPPORTS_CONCURRENT_SESSIONS = True

    def __init__(self, environments: Sequence[PoolEnvironment], backend: ExecutionBackend,
                 on_close: Callable[[], None] | None = None) -> None:
        super().__init__()
        self.env = SandboxedPoolEnv(environments, backend)
        self._steps = 0
        self._episode_id: str | None = None
        self._on_close = on_close

    def reset(self, seed: int | None = None, episode_id: str | None = None, env_id: str | None = None,
              hinted: bool = False, **kwargs: Any) -> SpadeObservation:
        try:
            text, info = self.env.reset(seed, env_id=env_id, hinted=bool(hinted))
        except PoolError as error:  # the client named an environment the pool does not hold
            return SpadeObservation(text=str(error), done=True, reward=0.0, error=str(error))
        self._steps, self._episode_id = 0, episode_id
        return SpadeObservation(text=text, env_id=self.env.current.id if self.env.current else None,
                                info=info, done=self.env.done, reward=0.0, error=self.env.error)

    def step(self, action: SpadeAction, timeout_s: float | None = None, **kwargs: Any) -> SpadeObservation:
        transition = self.env.step(action.text)
        self._steps += 1
        return SpadeObservation(text=transition.observation, env_id=self.env.current.id if self.env.current else None,
                                info=transition.info, done=transition.done, reward=transition.reward,
                                error=self.env.error)

    @property
    def state(self) -> SpadeState:
        return SpadeState(episode_id=self._episode_id, step_count=self._steps,
                          env_id=self.env.current.id if self.env.current else None, seed=self.env.seed,
                          episode_return=self.env.episode_return, terminated=self.env.terminated,
                          truncated=self.env.truncated, error=self.env.error)

    def close(self) -> None:
        self.env.close()
        if self._on_close is not None:
            on_close, self._on_close = self._on_close, None
            on_close()


class SessionCounter:
    """How many client sessions hold an environment instance (and so, once reset, a sandbox session):
    for tests and benchmarks. ``opened`` counts every instance OpenEnv created, ``open`` those not yet
    closed."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.open = 0
        self.opened = 0

    def started(self) -> None:
        with self._lock:
            self.open += 1
            self.opened += 1

    def closed(self) -> None:
        with self._lock:
            self.open -= 1


def create_app(environments: Sequence[PoolEnvironment], backend: ExecutionBackend, *,
               max_sessions: int = DEFAULT_MAX_SESSIONS, idle_timeout_s: float = DEFAULT_IDLE_TIMEOUT_S,
               counter: SessionCounter | None = None) -> Any:
    """The OpenEnv FastAPI app serving ``environments``; run it with uvicorn (``serve`` does).

    The mode is fixed to OpenEnv's simulation mode (reset, step and state), whatever ``OPENENV_MODE``
    says, so the server is what this function was asked for.
    """
    if not environments:
        raise PoolError("the pool holds no environments")
    pool = list(environments)
    sessions = counter or SessionCounter()

    def factory() -> SpadeOpenEnvEnvironment:
        sessions.started()
        return SpadeOpenEnvEnvironment(pool, backend, on_close=sessions.closed)

    app = create_fastapi_app(
        factory, SpadeAction, SpadeObservation,
        concurrency_config=ConcurrencyConfig(max_concurrent_envs=max_sessions, session_timeout=idle_timeout_s),
        env_name="spade-pool", state_cls=SpadeState, mode=ServerMode.SIMULATION,
    )
    app.state.spade_sessions = sessions
    return app


def serve(app: Any, host: str = "127.0.0.1", port: int = 8000) -> None:
    """Run ``app`` until interrupted."""
    uvicorn.run(app, host=host, port=port, log_level="warning", ws_max_size=4 * MAX_ACTION_CHARS)


class BackgroundServer:
    """``app`` served by uvicorn on a thread, on a free loopback port: for tests, benchmarks and notebooks.

    ``url`` is ``http://127.0.0.1:PORT`` once the context is entered; leaving it stops the server, which
    closes every client session and its sandbox.
    """

    def __init__(self, app: Any, host: str = "127.0.0.1", port: int = 0) -> None:
        self._server = uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="warning",
                                                     ws_max_size=4 * MAX_ACTION_CHARS, lifespan="on"))
        self._thread: threading.Thread | None = None
        self.host = host

    @property
    def port(self) -> int:
        return int(self._server.servers[0].sockets[0].getsockname()[1])

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def __enter__(self) -> BackgroundServer:  # noqa: PYI034 - the class is not meant to be subclassed
        self._thread = threading.Thread(target=self._server.run, name="openenv-server", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 30
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the OpenEnv server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=30)
