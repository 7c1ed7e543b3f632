"""Everything that needs a Ray cluster, in one test: Ray takes seconds to start on a shared 2-core machine,
and two clusters at once (one per xdist worker) thrash each other. The checks live beside the code they
test (``tests/test_cluster.py``, ``tests/test_openrlhf_shared_state.py``); this test starts Ray once and runs
them in turn.

The cluster is two local nodes: a head started with no CPUs, as KubeRay heads often are, where the driver
runs, and a worker node with three (two validation workers, then the shared-state actor). The state actor
was pinned hard to the driver's node and never started there; it must start on the worker.

It also checks that starting Ray does not break the sandbox of this process: a WebAssembly engine made
before ``ray.init`` (as other tests in this worker do) must still turn a guest trap into an error
afterwards, not die of it (it did, with a plain ``ray.init``).
"""

from __future__ import annotations

import pytest

from spade_envs.runtime import ExecutionLimits, create_backend
from tests.test_cluster import check_pool_survives_a_killed_worker_and_a_killed_driver
from tests.test_openrlhf_shared_state import (
    assert_trap_is_an_error,
    check_a_lost_engine_stops_the_run,
    check_actor_round_trip,
    check_driver,
    check_rollout_actor,
    check_the_run_stops_once_the_state_is_gone,
)


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_validation_pools_and_the_openrlhf_state_on_one_local_ray_cluster(tmp_path, monkeypatch, capsys):
    ray = pytest.importorskip("ray")
    from ray.cluster_utils import Cluster

    from spade_envs.cluster.trap_handlers import init_ray, shutdown_ray

    backend = create_backend("wasm", ExecutionLimits(call_timeout_s=5.0))
    assert_trap_is_an_error(backend)
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 0, "include_dashboard": False})
    worker = cluster.add_node(num_cpus=3, num_gpus=1)  # a GPU by name only: Ray schedules by the number
    init_ray(address=cluster.address, log_to_driver=False, configure_logging=False)
    try:
        assert_trap_is_an_error(backend)
        (tmp_path / "pool").mkdir()
        check_pool_survives_a_killed_worker_and_a_killed_driver(ray, tmp_path / "pool")
        check_actor_round_trip(ray, tmp_path / "actor", worker.node_id)
        model = check_rollout_actor(ray, tmp_path / "rollout")
        check_driver(tmp_path / "driver", monkeypatch, capsys)
        check_the_run_stops_once_the_state_is_gone(tmp_path / "stopped", model, monkeypatch, capsys)
        check_a_lost_engine_stops_the_run(tmp_path / "lost-engine", worker.node_id, monkeypatch, capsys)
    finally:
        shutdown_ray()
        cluster.shutdown()
    assert_trap_is_an_error(backend)
