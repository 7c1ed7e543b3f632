"""What a rollout engine runs besides vLLM, and the CPUs and host memory held for it.

OpenRLHF schedules each rollout engine as a Ray actor with 1 CPU (0.2 when colocated), yet the agent
executor inside it runs the checker, ``openrlhf.env_workers`` sandbox threads and the sandboxes' memory.
Ray's accounting does not see that work, so it would place other work on those CPUs. Before the trainer
starts, the driver therefore reserves ``openrlhf.engine_cpus`` per engine on every GPU node: one idle
actor per node holds them (Ray schedules by these numbers; it does not pin processes to cores). The
sandboxes' memory is bounded inside the engine (``openrlhf.sandbox_memory_gib``, a ``MemoryBudget`` the
executor's sessions and checks share); the dry run prints both per node.

A reservation that cannot fit is an error before any GPU work: a node must keep one CPU per GPU for
OpenRLHF's own placement group, or its trainer would wait for ever.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from spade_envs.errors import SpadeError
from spade_train.backends.openrlhf.ray_actor import NAMESPACE
from spade_train.config.sections import RunConfig

RESERVATION_TIMEOUT_S = 60.0


class ReservationError(SpadeError):
    """The CPUs the engines need cannot be held; the message names the node and the fix."""


@dataclass(frozen=True)
class Node:
    """A Ray node as the reservation sees it."""

    node_id: str
    cpus: float
    gpus: float


def engines_per_node(config: RunConfig, gpus: float) -> int:
    """Rollout engines a node with ``gpus`` GPUs holds (each takes ``vllm_tensor_parallel`` of them)."""
    section = config.openrlhf
    return min(section.vllm_engines, int(gpus) // section.vllm_tensor_parallel)


def plan_reservations(config: RunConfig, nodes: list[Node]) -> dict[str, float]:
    """Node id -> CPUs to hold on it for its engines' checks and sandboxes; ``ReservationError`` where a node
    would keep less than one CPU per GPU for OpenRLHF."""
    cpus_per_engine = config.openrlhf.engine_cpus
    plan: dict[str, float] = {}
    for node in nodes:
        engines = engines_per_node(config, node.gpus)
        if not engines or not cpus_per_engine:
            continue
        wanted = engines * cpus_per_engine
        if node.cpus - wanted < node.gpus:
            raise ReservationError(
                f"node {node.node_id[:12]} has {node.cpus:g} CPUs; its {engines} rollout engines need "
                f"{wanted:g} for checks and sandboxes (openrlhf.engine_cpus = {cpus_per_engine:g}) and OpenRLHF one "
                f"per GPU ({node.gpus:g}): lower openrlhf.engine_cpus (and env_workers), or use nodes with "
                f"at least {math.ceil(wanted + node.gpus)} CPUs")
        plan[node.node_id] = wanted
    return plan


def resources_line(config: RunConfig) -> str:
    """The dry run's line: per GPU node, the CPUs held and the sandboxes' memory beside vLLM."""
    section = config.openrlhf
    engines = engines_per_node(config, section.gpus_per_node)
    memory = engines * section.sandbox_memory_gib
    return (f"per GPU node: {engines} rollout engines; {engines * section.engine_cpus:g} CPUs held for their checks "
            f"and sandboxes ({section.engine_cpus:g} each, beside OpenRLHF's one per GPU); sandboxes hold at most "
            f"{memory:g} GiB of host memory ({section.sandbox_memory_gib:g} GiB each), beside vLLM"
            + (" and the trainer's weights asleep in RAM" if section.colocate else ""))


def reservation_name(node_id: str) -> str:
    """The holding actor's name (in the ``spade`` namespace), readable in the Ray dashboard."""
    return f"spade-engine-cpus-{node_id[:16]}"


class _Reservation:
    """An idle actor: its CPUs are the reservation."""

    def ready(self) -> bool:
        return True


def reserve_engine_cpus(config: RunConfig, *, timeout_s: float = RESERVATION_TIMEOUT_S) -> list[Any]:
    """Hold the engines' CPUs on every GPU node of the Ray cluster this process is connected to; returns the
    holding actors (kill them to release). None are needed without GPU nodes or with engine_cpus 0."""
    import ray
    from ray.exceptions import GetTimeoutError
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    nodes = [Node(n["NodeID"], float(n["Resources"].get("CPU", 0)), float(n["Resources"].get("GPU", 0)))
             for n in ray.nodes() if n.get("Alive") and n["Resources"].get("GPU", 0) > 0]
    plan = plan_reservations(config, nodes)
    holders = [ray.remote(_Reservation).options(
        name=reservation_name(node_id), namespace=NAMESPACE, num_cpus=cpus,
        scheduling_strategy=NodeAffinitySchedulingStrategy(node_id=node_id, soft=False)).remote()
        for node_id, cpus in plan.items()]
    try:
        ray.get([holder.ready.remote() for holder in holders], timeout=timeout_s)
    except GetTimeoutError:
        release(holders)
        raise ReservationError(f"the rollout engines' CPUs ({', '.join(f'{c:g}' for c in plan.values())} per GPU "
                               f"node) could not be held within {timeout_s:g} s: other work holds them (see `ray "
                               "status`); lower openrlhf.engine_cpus or free the nodes") from None
    return holders


def release(holders: list[Any]) -> None:
    import ray

    for holder in holders:
        ray.kill(holder)
