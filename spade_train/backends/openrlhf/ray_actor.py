"""The shared self-play state as a Ray named actor, and the executor's client for it.

The driver starts one actor per run, named after the run directory; every rollout engine finds it by
the name in its rows' labels. The actor serves ``STATE_ACTOR_THREADS`` calls at once: each holds the
state's lock only while it reads or changes the state in memory (milliseconds), and the slow part of a
checkpoint, copying it to the run directory on shared storage, runs on the state's writer thread, so no
call waits behind it.

Resilience:

- **placement** prefers the driver's node but is soft: a head node started with ``--num-cpus 0`` (common
  on KubeRay) takes no actor, and the actor then starts wherever a CPU is free. Its memory database is
  on that node's local disk and its checkpoints in the run directory, so any node will do.
- **timeouts** on every call: the driver's (``start_state_actor``, ``finish_state``) and the executor's
  (``RayStateClient``, ``openrlhf.state_timeout_s``). A call over it fails that one sample (the
  executor's fault barrier), never the job.
- **restarts**: Ray restarts a dead actor up to ``openrlhf.state_restarts`` times; ``StateActor`` then
  restores the state's latest checkpoint (``state/latest``). A call in flight when it died, or made while
  it restarts, is sent again once the actor answers, under the same request id, so the sample goes on;
  ``SharedState.answer`` makes sure a call that did run before the death is not applied twice. Once the
  restarts are used up, a call raises ``StateLost`` and the run stops (``stops.py``).
- **the sandbox**: the driver starts Ray with ``spade_envs.cluster.trap_handlers.init_ray``, which keeps
  this process's WebAssembly trap handlers (``ray.init`` replaces them).
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import uuid
from pathlib import Path
from typing import Any

from spade_train.backends.openrlhf.pending import RipeSample, StoredSample
from spade_train.backends.openrlhf.shared_state import Lease, Restore, RowPlan, SharedState, StateError
from spade_train.backends.openrlhf.stops import StateLost
from spade_train.config.sections import RunConfig
from spade_train.loop.summary import AttemptSummary
from spade_train.memory import NearDuplicate

NAMESPACE = "spade"
READS = frozenset({"settings", "near_duplicates"})
"""Calls that change nothing: sent as they are (no request id), beside any other call."""
STATE_ACTOR_THREADS = 8
"""Calls the actor serves at once (Ray's ``max_concurrency``; the state's lock keeps them consistent)."""


def state_actor_name(run_dir: Path) -> str:
    """A name unique to the run directory (its absolute path), readable in the Ray dashboard."""
    resolved = str(Path(run_dir).resolve())
    return f"spade-state-{Path(resolved).name[:40]}-{hashlib.sha256(resolved.encode()).hexdigest()[:10]}"


class StateActor(SharedState):
    """``SharedState`` as the run's actor: a restart by Ray continues from the latest checkpoint."""

    def __init__(self, config: RunConfig, run_dir: str, *, restore: Restore = None) -> None:
        import ray

        if ray.get_runtime_context().was_current_actor_reconstructed:
            restore = "latest"
        super().__init__(config, run_dir, restore=restore, background_writes=True)

    def ping(self) -> bool:
        """Answers once the actor is up (the client waits on it after a restart)."""
        return True

    def where(self) -> str:
        """The id of the node the actor runs on."""
        import ray

        return ray.get_runtime_context().get_node_id()

    def process_id(self) -> int:
        """The actor's process on its node: a crash of this process is what Ray's restarts count
        (``ray.kill(..., no_restart=False)`` restarts the actor without using one up)."""
        return os.getpid()


def start_state_actor(config: RunConfig, run_dir: Path, *, restore: Restore, name: str | None = None) -> Any:
    """Create the run's shared-state actor and wait until it is ready; returns its handle.

    Must be called where ``ray.init`` has run. ``restore``: see ``shared_state.Restore``. A constructor
    error (a bad pool directory) or an actor that cannot be placed within ``openrlhf.state_timeout_s``
    is a ``StateError``.
    """
    import ray
    from ray.exceptions import GetTimeoutError, RayActorError
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    here = ray.get_runtime_context().get_node_id()
    section = config.openrlhf
    handle = ray.remote(StateActor).options(
        name=name or state_actor_name(run_dir), namespace=NAMESPACE, num_cpus=1, max_concurrency=STATE_ACTOR_THREADS,
        max_restarts=section.state_restarts, max_task_retries=0,
        scheduling_strategy=NodeAffinitySchedulingStrategy(node_id=here, soft=True),
    ).remote(config, str(Path(run_dir).resolve()), restore=restore)
    try:
        summary = ray.get(handle.summary.remote(), timeout=section.state_timeout_s)
    except GetTimeoutError:
        ray.kill(handle, no_restart=True)
        raise StateError(f"the shared-state actor did not start within {section.state_timeout_s:g} s: the "
                         "cluster has no node with a free CPU for it (see `ray status`)") from None
    except RayActorError as error:
        ray.kill(handle, no_restart=True)
        cause = error.__cause__ or error
        raise StateError(f"the shared-state actor failed to start: {' '.join(str(cause).split())[-400:]}") from None
    print(f"spade shared state: {summary}", flush=True)
    return handle


def finish_state(handle: Any, timeout_s: float) -> int | None:
    """Checkpoint the state and export its pool (``SharedState.finish``); None if the actor is gone."""
    import ray
    from ray.exceptions import GetTimeoutError, RayActorError

    try:
        return ray.get(handle.finish.remote(), timeout=timeout_s)
    except (GetTimeoutError, RayActorError):
        return None


class RayStateClient:
    """A ``StateClient`` over the named actor (awaitable calls from the executor's event loop).

    Every call fails with ``TimeoutError`` after ``timeout_s`` (the executor sets it from
    ``openrlhf.state_timeout_s`` once it has read the settings).
    """

    def __init__(self, handle: Any, timeout_s: float = 300.0, name: str = "the shared state") -> None:
        self.handle = handle
        self.timeout_s = timeout_s
        self.name = name

    @classmethod
    def connect(cls, name: str, namespace: str = NAMESPACE) -> RayStateClient:
        import ray

        try:
            return cls(ray.get_actor(name, namespace=namespace), name=name)
        except ValueError:  # Ray's "failed to look up actor": it died for good (or never started)
            raise StateLost(f"no shared-state actor {name!r} in Ray namespace {namespace!r}: it is gone for good "
                            "or was never started") from None

    async def _call(self, method: str, *args: Any, **kwargs: Any) -> Any:
        """One call to the actor; one that changes the state is made at most once (``SharedState.answer``,
        by a fresh request id).

        An actor that restarts while the call is in flight, or before it is made, is waited for (until
        ``timeout_s``) and the call sent once more under the same id. A timeout, or a second loss, fails the
        one sample (a fault); an actor that died for good (its restarts used up, or killed) stops the run
        (``StateLost``)."""
        from ray.exceptions import ActorUnavailableError

        call = ((method,) if method in READS else ("answer", uuid.uuid4().hex, method)) + args
        try:
            return await self._send(*call, **kwargs)
        except ActorUnavailableError:
            await self._until_back()
            return await self._send(*call, **kwargs)

    async def _send(self, method: str, *args: Any, **kwargs: Any) -> Any:
        from ray.exceptions import ActorDiedError

        try:
            return await asyncio.wait_for(getattr(self.handle, method).remote(*args, **kwargs),
                                          timeout=self.timeout_s)
        except ActorDiedError as error:
            why = " ".join(str(error).split())[:300]
            raise StateLost(f"the shared-state actor {self.name!r} died and Ray will not restart it ({why})") from None

    async def _until_back(self) -> None:
        """Wait until the restarted actor answers (``TimeoutError`` after ``timeout_s``)."""
        from ray.exceptions import ActorUnavailableError

        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.timeout_s
        while True:
            try:
                await self._send("ping")
                return
            except ActorUnavailableError:
                if loop.time() > deadline:
                    raise TimeoutError(f"the shared-state actor {self.name!r} did not come back within "
                                       f"{self.timeout_s:g} s") from None
                await asyncio.sleep(0.2)

    async def settings(self) -> dict[str, Any]:
        return await self._call("settings")

    async def plan_row(self, row: int, samples: int, skill: str, kind: str) -> RowPlan:
        return await self._call("plan_row", row, samples, skill, kind)

    async def near_duplicates(self, code: str, threshold: float) -> list[NearDuplicate]:
        return await self._call("near_duplicates", code, threshold)

    async def record_design(self, row: int, summary: AttemptSummary) -> bool:
        return await self._call("record_design", row, summary)

    async def lease(self, row: int, samples: int, hinted: bool) -> Lease:
        return await self._call("lease", row, samples, hinted)

    async def report_episode(self, env_id: str, episode_return: float, won: bool, env_error: bool, *,
                             step: int | None = None, hinted: bool = False, timed_out: bool = False,
                             dropped: bool = False) -> None:
        await self._call("report_episode", env_id, episode_return, won, env_error, step=step, hinted=hinted,
                         timed_out=timed_out, dropped=dropped)

    async def replan_row(self, row: int, step: int, skill: str, kind: str, sample: int) -> RowPlan:
        return await self._call("replan_row", row, step, skill, kind, sample)

    async def record_window_design(self, row: int, sample: int, summary: AttemptSummary,
                                   stored: StoredSample | None) -> bool:
        return await self._call("record_window_design", row, sample, summary, stored)

    async def ripe_sample(self, row: int, sample: int, samples: int) -> RipeSample | None:
        return await self._call("ripe_sample", row, sample, samples)

    async def report_hint_play(self, env_id: str, episode_return: float, timed_out: bool = False) -> None:
        await self._call("report_hint_play", env_id, episode_return, timed_out)

    async def finish_row(self, row: int, kept: bool, faults: int) -> int:
        return await self._call("finish_row", row, kept, faults)
