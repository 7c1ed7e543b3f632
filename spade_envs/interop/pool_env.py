"""A pool, and one sandboxed instance that plays its environments: what every stack's adapter wraps.

Other stacks run environments in the trainer's own process; a SPADE environment is model-written code,
so here each instance is a sandbox session (``EnvSession``), opened when an episode starts and closed
with the instance. Whatever the environment does (raise, hang, run out of memory, return something the
contract forbids) ends that episode with reward 0 and a one-line ``error`` in its info; it never raises
into the stack's server or event loop, and the next ``reset`` starts a fresh session.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from spade_envs.checks.leaks import action_content
from spade_envs.contract.actions import solution_to_actions
from spade_envs.contract.episode import episode_return, inject_hint
from spade_envs.errors import SpadeError
from spade_envs.pool import MANIFEST_NAME, PoolError, read_pool_ref, split_pool_ref
from spade_envs.registry import bundled_registry
from spade_envs.runtime.backend import DEFAULT_BACKEND, ExecutionBackend, create_backend
from spade_envs.runtime.errors import EnvRuntimeError
from spade_envs.runtime.limits import ExecutionLimits
from spade_envs.runtime.replies import one_line
from spade_envs.runtime.session import EnvSession
from spade_envs.spec.models import EnvSpec, PoolManifest

MAX_ACTION_CHARS = 65_536
"""A longer action is cut to this many characters before it reaches the environment."""
MAX_ANSWER_CHARS = 2_000
"""The longest reference answer an export carries (``reference_answer``)."""
MAX_ERROR_CHARS = 300
BUNDLED_POOL_NAME = "spade-bundled"
"""The name of the bundled library as a pool: what ``spade-envs export`` calls it by default."""
README_NAMES = ("README.md", "README.txt", "README")
MAX_README_CHARS = 65_536


@dataclass(frozen=True)
class PoolEnvironment:
    """One environment of a pool: its spec and its code (the spec's id is the code's hash)."""

    spec: EnvSpec
    source: str

    @property
    def id(self) -> str:
        return self.spec.id


def load_pool(reference: str | Path, *, allow_unvalidated: bool = False) -> list[PoolEnvironment]:
    """The environments ``reference`` names: a pool directory, ``DIR#ID``, or ``bundled`` (the SDK's library).

    The pool is verified against its manifest; a ``PoolError`` says in one line what is wrong. A pool whose
    manifest says an environment was not validated (a memory export with ``min_validated=False``, a
    third-party baseline pool) is refused unless ``allow_unvalidated``: serving code nobody checked to
    agents that train on it is a choice to make on purpose, never by default.
    """
    if str(reference) == "bundled":
        return [PoolEnvironment(entry.spec(), entry.source()) for entry in bundled_registry()]
    if not split_pool_ref(reference)[0].exists():
        raise PoolError(f"no pool at {reference}; give a directory spade-envs export or a run wrote")
    loaded = read_pool_ref(reference)
    unchecked = [entry.spec.id for entry, _ in loaded if not entry.validated]
    if unchecked and not allow_unvalidated:
        raise PoolError(f"{reference}: {len(unchecked)} of {len(loaded)} environments are not validated (the manifest "
                        f"says validated: false, e.g. {unchecked[0]}); validate them (spade-envs validate) and "
                        "export a validated pool, or allow unvalidated environments explicitly "
                        "(allow_unvalidated=True, --allow-unvalidated)")
    return [PoolEnvironment(entry.spec, source) for entry, source in loaded]


@dataclass(frozen=True)
class PoolCard:
    """What a pool says about itself besides its code: the name in its manifest, and its README if any.

    The stacks show these to people choosing an environment (OpenEnv's ``/metadata``) and name
    environments after them (GEM's readable ids), so they come from the pool, not from the adapter.
    """

    name: str
    readme: str | None = None


def pool_card(reference: str | Path) -> PoolCard:
    """The card of the pool ``reference`` names (as ``load_pool`` takes it); ``bundled`` has no README.

    A README is a ``README.md`` (or ``README.txt``, ``README``) a person put beside the manifest; export
    writes none. Call it after ``load_pool``, which verifies the pool: this only reads the manifest's name.
    """
    if str(reference) == "bundled":
        return PoolCard(BUNDLED_POOL_NAME)
    directory = split_pool_ref(reference)[0]
    try:
        manifest = PoolManifest.model_validate_json((directory / MANIFEST_NAME).read_bytes())
    except (OSError, ValueError) as error:
        raise PoolError(f"cannot read the manifest of {reference}: {one_line(str(error), 200)}") from None
    readme = next((directory / name for name in README_NAMES if (directory / name).is_file()), None)
    if readme is None:
        return PoolCard(manifest.name)
    text = readme.read_text(encoding="utf-8", errors="replace")[:MAX_README_CHARS].strip()
    return PoolCard(manifest.name, text or None)


def sandbox_backend(sandbox: str = DEFAULT_BACKEND, call_timeout_s: float = 10.0) -> ExecutionBackend:
    """The backend environments run in; a name that is not a backend is a one-line ``SpadeError``."""
    try:
        return create_backend(sandbox, ExecutionLimits(call_timeout_s=call_timeout_s))
    except ValueError as error:
        raise SpadeError(str(error)) from None


@dataclass
class Transition:
    """What one step gave: the observation, its reward and end flags, and JSON-safe info."""

    observation: str
    reward: float
    terminated: bool
    truncated: bool
    info: dict[str, Any] = field(default_factory=dict)

    @property
    def done(self) -> bool:
        return self.terminated or self.truncated


class SandboxedPoolEnv:
    """One environment instance over a pool: ``reset`` picks an environment and opens its sandbox session.

    Use one instance per client session, from one thread at a time (the session's rule). Episodes are
    chosen by ``env_id`` or, without one, by ``seed`` (environment ``seed % len(pool)``), so a seed names
    the same episode of the same environment everywhere. ``hinted`` appends the environment's accepted
    hint to the first observation, as SPADE's hinted rollouts do.
    """

    def __init__(self, environments: Sequence[PoolEnvironment], backend: ExecutionBackend) -> None:
        if not environments:
            raise PoolError("the pool holds no environments")
        self.environments = list(environments)
        self._by_id = {environment.id: environment for environment in self.environments}
        self.backend = backend
        self.current: PoolEnvironment | None = None
        self.seed: int | None = None
        self.rewards: list[float] = []
        self.terminated = self.truncated = False
        self.error: str | None = None
        self._session: EnvSession | None = None
        self._session_env: str | None = None

    # ------------------------------------------------------------------ choosing
    def choose(self, seed: int | None, env_id: str | None) -> PoolEnvironment:
        """The environment an episode plays; an unknown ``env_id`` is a ``PoolError`` naming some ids."""
        if env_id is not None:
            found = self._by_id.get(env_id) or next(
                (e for e in self.environments if env_id and e.id.startswith(env_id)), None)
            if found is None:
                shown = ", ".join(e.id for e in self.environments[:5])
                raise PoolError(f"the pool has no environment {one_line(str(env_id), 40)!r}; its ids include {shown}")
            return found
        return self.environments[(seed or 0) % len(self.environments)]

    # ------------------------------------------------------------------ episodes
    def reset(self, seed: int | None = None, env_id: str | None = None, hinted: bool = False) -> tuple[str, dict[str, Any]]:
        """Start an episode; returns (first observation, info). Environment failures end it at once."""
        environment = self.choose(seed, env_id)
        self.current, self.seed = environment, seed
        self.rewards, self.terminated, self.truncated, self.error = [], False, False, None
        try:
            session = self._session_for(environment)
            result = session.reset(seed)
        except EnvRuntimeError as error:
            self._fail(error)
            return f"The environment failed to start: {self.error}", self._info({"error": self.error})
        observation = inject_hint(result.observation, environment.spec.hint if hinted else None)
        return observation, self._info(dict(result.info))

    def step(self, action: str) -> Transition:
        """Play one action; after the episode ended, or for a failed environment, nothing is sent."""
        if self.current is None:
            return Transition("Call reset() to start an episode.", 0.0, True, False, self._info({"error": "no episode"}))
        if self.done or self._session is None:
            failed = {"error": self.error} if self.error is not None else {}
            return Transition("The episode is over. Call reset() to start a new one.", 0.0,
                              self.terminated or self.error is not None, self.truncated, self._info(failed))
        text = action if isinstance(action, str) else str(action)
        try:
            result = self._session.step(text[:MAX_ACTION_CHARS])
        except EnvRuntimeError as error:
            self._fail(error)
            self.rewards.append(0.0)
            return Transition(f"The environment failed: {self.error}", 0.0, True, False, self._info({"error": self.error}))
        self.rewards.append(result.reward)
        self.terminated, self.truncated = result.terminated, result.truncated
        return Transition(result.observation, result.reward, result.terminated, result.truncated,
                          self._info(dict(result.info)))

    def tools(self) -> list[dict[str, Any]] | None:
        """The tool schemas of the current tool-use environment (None for any other, or on failure)."""
        if self._session is None or self.current is None or self.current.spec.kind != "tool_use":
            return None
        try:
            return self._session.tools()
        except EnvRuntimeError as error:
            self._fail(error)
            return None

    def reference_answer(self) -> str:
        """The current episode's answer, for a single-answer environment: what its ``solution()`` answers,
        without the ``\\boxed{}`` (the column a verifiers rubric or an auditor such as falsepass reads).
        Empty for any other kind, and where the solution is not one short answer: what the sandbox returns
        is untrusted, so only a string of at most ``MAX_ANSWER_CHARS`` characters is kept."""
        if self._session is None or self.current is None or self.current.spec.kind != "single_answer" or self.done:
            return ""
        try:
            solution = self._session.solution()
        except EnvRuntimeError as error:
            self._fail(error)
            return ""
        actions = solution_to_actions(solution) if isinstance(solution, (str, int, float, list, tuple)) else []
        if len(actions) != 1:
            return ""
        answer = action_content(actions[0])
        return answer if len(answer) <= MAX_ANSWER_CHARS else ""

    @property
    def done(self) -> bool:
        return self.terminated or self.truncated or self.error is not None

    @property
    def episode_return(self) -> float:
        """The SPADE return of the episode so far: the last reward, clipped, if it terminated; else 0."""
        return episode_return(self.rewards, self.terminated)

    def close(self) -> None:
        """Close the sandbox session; calling it twice is harmless."""
        if self._session is not None:
            session, self._session, self._session_env = self._session, None, None
            session.close()

    def __enter__(self) -> SandboxedPoolEnv:  # noqa: PYI034 - the class is not meant to be subclassed
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # ------------------------------------------------------------------ plumbing
    def _session_for(self, environment: PoolEnvironment) -> EnvSession:
        """The open session when it plays this environment and did not fail, else a new one."""
        if self._session is not None and self._session_env == environment.id:
            return self._session
        self.close()
        self._session = self.backend.open_session(environment.source, class_name=environment.spec.class_name)
        self._session_env = environment.id
        return self._session

    def _fail(self, error: EnvRuntimeError) -> None:
        self.error = one_line(f"{type(error).__name__}: {error}", MAX_ERROR_CHARS)
        self.close()  # an instance that failed once is never trusted again

    def _info(self, info: dict[str, Any]) -> dict[str, Any]:
        """The environment's info with the episode's ``env_id`` and ``seed`` (ours win over keys of the
        same name: a stack routes and logs by them)."""
        return {**info, "env_id": self.current.id if self.current else None, "seed": self.seed}
