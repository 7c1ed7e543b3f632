"""A pool as an OpenEnv environment server: reset, step and state over OpenEnv's own protocol.

OpenEnv (``openenv`` on PyPI) serves an ``Environment`` class with FastAPI: each WebSocket client (the
typed ``openenv_client.SpadeEnv``, or ``GenericEnvClient`` for plain dicts) gets an instance of its own,
driven on a worker thread of its own, and closed when the client closes or disconnects. Here that
instance is a ``SandboxedPoolEnv``, so one client session is one sandbox session: a client that vanishes
mid-episode takes only its own sandbox with it.

Messages (typed in ``openenv_models``): ``reset`` takes ``seed``, and optionally ``episode_id``, ``env_id``
(an id of the pool, or an unambiguous start of one) and ``hinted``; ``step`` takes ``{"text": ACTION}``;
``state`` reports the episode, environment, seed, step count and return so far. ``/metadata`` describes
the pool: its name, its environments and its README. ``spade-envs serve-openenv POOL`` starts it on
127.0.0.1.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import uvicorn
from openenv.core.env_server.http_server import create_fastapi_app
from openenv.core.env_server.interfaces import Environment
from openenv.core.env_server.types import ConcurrencyConfig, EnvironmentMetadata, ServerMode

from spade_envs.interop.openenv_models import MAX_EPISODE_ID_CHARS, SpadeAction, SpadeObservation, SpadeState
from spade_envs.interop.pool_env import MAX_ACTION_CHARS, PoolCard, PoolEnvironment, SandboxedPoolEnv
from spade_envs.pool import PoolError
from spade_envs.runtime.backend import ExecutionBackend

__all__ = ["BackgroundServer", "SessionCounter", "SpadeAction", "SpadeObservation", "SpadeOpenEnvEnvironment",
           "SpadeState", "banner", "create_app", "pool_metadata", "serve"]

DEFAULT_MAX_SESSIONS = 64
DEFAULT_IDLE_TIMEOUT_S = 600.0
"""A session idle this long is closed by OpenEnv's reaper, and its sandbox with it."""
DEFAULT_POOL_NAME = "spade-pool"
LISTED_CLASSES = 10
"""``/metadata``'s one-line description names this many environment classes, then counts the rest."""


class SpadeOpenEnvEnvironment(Environment[SpadeAction, SpadeObservation, SpadeState]):
    """One client session: a ``SandboxedPoolEnv`` over the pool, in its own sandbox session."""

    SUPPORTS_CONCURRENT_SESSIONS = True

    def __init__(self, environments: Sequence[PoolEnvironment], backend: ExecutionBackend,
                 on_close: Callable[[], None] | None = None, metadata: EnvironmentMetadata | None = None) -> None:
        super().__init__()
        self.env = SandboxedPoolEnv(environments, backend)
        self._steps = 0
        self._episode_id: str | None = None
        self._on_close = on_close
        self._metadata = metadata or pool_metadata(PoolCard(DEFAULT_POOL_NAME), environments)

    def reset(self, seed: int | None = None, episode_id: str | None = None, env_id: str | None = None,
              hinted: bool = False, **kwargs: Any) -> SpadeObservation:
        """Start an episode; ``episode_id`` names it (a fresh id when the client gives none).

        A client's mistake (an environment the pool does not hold, an episode id that is not a short
        string) ends the episode at once with the reason in ``error``; the session stays usable.
        """
        if episode_id is not None and (not isinstance(episode_id, str) or len(episode_id) > MAX_EPISODE_ID_CHARS):
            return self._refused(f"episode_id must be a string of at most {MAX_EPISODE_ID_CHARS} characters")
        try:
            text, info = self.env.reset(seed, env_id=env_id, hinted=bool(hinted))
        except PoolError as error:  # the client named an environment the pool does not hold
            return self._refused(str(error))
        self._steps, self._episode_id = 0, episode_id or uuid.uuid4().hex
        return self._observation(text, info, reward=0.0, done=self.env.done)

    def step(self, action: SpadeAction, timeout_s: float | None = None, **kwargs: Any) -> SpadeObservation:
        transition = self.env.step(action.text)
        self._steps += 1
        return self._observation(transition.observation, transition.info, reward=transition.reward,
                                 done=transition.done)

    @property
    def state(self) -> SpadeState:
        return SpadeState(episode_id=self._episode_id, step_count=self._steps,
                          env_id=self.env.current.id if self.env.current else None, seed=self.env.seed,
                          episode_return=self.env.episode_return, terminated=self.env.terminated,
                          truncated=self.env.truncated, error=self.env.error)

    def get_metadata(self) -> EnvironmentMetadata:
        """The pool's metadata, built once by ``create_app`` (OpenEnv asks a fresh instance per request)."""
        return self._metadata

    def close(self) -> None:
        self.env.close()
        if self._on_close is not None:
            on_close, self._on_close = self._on_close, None
            on_close()

    def _observation(self, text: str, info: dict[str, Any], *, reward: float, done: bool) -> SpadeObservation:
        return SpadeObservation(text=text, env_id=self.env.current.id if self.env.current else None,
                                episode_id=self._episode_id, info=info, done=done, reward=reward,
                                error=self.env.error)

    @staticmethod
    def _refused(reason: str) -> SpadeObservation:
        return SpadeObservation(text=reason, done=True, reward=0.0, error=reason)


def pool_metadata(card: PoolCard, environments: Sequence[PoolEnvironment]) -> EnvironmentMetadata:
    """OpenEnv's ``/metadata`` for a pool: its name, what it holds, and a README listing every environment.

    The README is the pool's own when it has one, else a summary of how to play it; either way a table of
    the environments follows, since their ids are what ``reset(env_id=...)`` takes.
    """
    classes = Counter(environment.spec.class_name for environment in environments)
    named = [f"{name} x{count}" if count > 1 else name for name, count in classes.most_common(LISTED_CLASSES)]
    if len(classes) > LISTED_CLASSES:
        named.append(f"{len(classes) - LISTED_CLASSES} more classes")
    description = f"SPADE pool {card.name}: {count_of(len(environments), 'environment')} ({', '.join(named)})"
    intro = card.readme or (
        f"# {card.name}\n\nA SPADE pool of {count_of(len(environments), 'environment')}, served over OpenEnv. Each "
        "client session plays them in a sandbox session of its own. Reset with `env_id` (an id below, or a "
        "start of one that only one environment has) to choose an environment, or with a seed alone (the "
        "environment `seed % pool size`); step with `{\"text\": REPLY}`, the agent's whole reply.")
    rows = [f"| {e.id} | {e.spec.class_name} | {e.spec.kind} | {_cell(e.spec.skill)} | {e.spec.max_turns} | "
            f"{_cell(e.spec.description)} |" for e in environments]
    table = ["## Environments", "", "| id | class | kind | skill | max turns | description |",
             "|---|---|---|---|---:|---|", *rows]
    return EnvironmentMetadata(name=card.name, description=description,
                               readme_content=intro + "\n\n" + "\n".join(table) + "\n")


def _cell(text: str) -> str:
    """Text safe in a Markdown table cell: one line, pipes escaped."""
    return " ".join(text.split()).replace("|", "\\|")


def count_of(count: int, noun: str) -> str:
    """``1 environment``, ``2 environments``: a count with its noun in the right number."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def banner(count: int, pool: str, url: str, sandbox: str, max_sessions: int) -> str:
    """The line ``spade-envs serve-openenv`` prints once the pool is loaded and before it serves."""
    return (f"serving {count_of(count, 'environment')} of {pool} as an OpenEnv server at {url} ({sandbox} "
            f"sandbox, at most {count_of(max_sessions, 'session')}); Ctrl-C stops it")


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
               counter: SessionCounter | None = None, card: PoolCard | None = None) -> Any:
    """The OpenEnv FastAPI app serving ``environments``; run it with uvicorn (``serve`` does).

    ``card`` names the pool in ``/metadata`` and gives its README (``pool_card(POOL)``); without it the
    pool is called ``spade-pool``. The mode is fixed to OpenEnv's simulation mode (reset, step and state),
    whatever ``OPENENV_MODE`` says, so the server is what this function was asked for.
    """
    if not environments:
        raise PoolError("the pool holds no environments")
    pool = list(environments)
    sessions = counter or SessionCounter()
    metadata = pool_metadata(card or PoolCard(DEFAULT_POOL_NAME), pool)

    def factory() -> SpadeOpenEnvEnvironment:
        sessions.started()
        return SpadeOpenEnvEnvironment(pool, backend, on_close=sessions.closed, metadata=metadata)

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
