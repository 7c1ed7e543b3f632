"""What a rollout engine runs besides vLLM (issue 36, item 3): the CPUs held for it per GPU node, and the one
line a run stops with when an engine dies."""

from __future__ import annotations

import pytest

from spade_train.backends.openrlhf.resources import Node, ReservationError, plan_reservations, resources_line
from spade_train.backends.openrlhf.stops import engine_loss
from tests.test_openrlhf_shared_state import make_config


def test_each_gpu_node_holds_its_engines_cpus_and_keeps_one_per_gpu_for_openrlhf() -> None:
    nodes = [Node("gpu-a" * 4, cpus=32, gpus=8), Node("head" * 4, cpus=8, gpus=0), Node("gpu-b" * 4, cpus=20, gpus=4)]
    eight = {"vllm_engines": 8, "gpus_per_node": 8}
    assert plan_reservations(make_config(engine_cpus=2.0, **eight), nodes) == {"gpu-a" * 4: 16.0, "gpu-b" * 4: 8.0}
    # Tensor parallel 2: half as many engines on a node.
    assert plan_reservations(make_config(engine_cpus=3.0, vllm_engines=4, vllm_tensor_parallel=2, gpus_per_node=8,
                                         nodes=1), nodes[:1]) == {"gpu-a" * 4: 12.0}
    assert plan_reservations(make_config(engine_cpus=0.0), nodes) == {}
    with pytest.raises(ReservationError) as refused:
        plan_reservations(make_config(engine_cpus=4.0, **eight), nodes)
    message = str(refused.value)
    assert "\n" not in message and "has 32 CPUs; its 8 rollout engines need 32" in message
    assert "lower openrlhf.engine_cpus" in message and "at least 40 CPUs" in message


def test_the_dry_run_line_counts_cpus_and_sandbox_memory_per_node() -> None:
    line = resources_line(make_config(engine_cpus=2.0, sandbox_memory_gib=16.0, gpus_per_node=8, vllm_engines=8))
    assert line.startswith("per GPU node: 8 rollout engines; 16 CPUs held") and "at most 128 GiB" in line


def test_a_dead_engine_or_the_oom_killer_is_named_and_anything_else_is_not() -> None:
    from ray.exceptions import ActorDiedError, OutOfMemoryError, RayTaskError

    assert engine_loss(ActorDiedError()) == ("a Ray actor of the job died (The actor died unexpectedly before "
                                             "finishing this task.)")
    try:
        try:
            raise OutOfMemoryError("Task was killed due to the node running low on memory.")
        except OutOfMemoryError as oom:
            raise RuntimeError("OpenRLHF's trainer failed") from oom
    except RuntimeError as wrapped:
        cause = engine_loss(wrapped)
    assert cause is not None and cause.startswith("Ray's memory monitor killed a worker")
    assert "lower openrlhf.sandbox_memory_gib" in cause
    assert engine_loss(ValueError("a bug")) is None
    assert engine_loss(RayTaskError("f", "Traceback ...", ValueError("x"))) is None
