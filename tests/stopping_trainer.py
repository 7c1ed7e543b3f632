"""Stands in for OpenRLHF's ``train_ppo_ray`` in the driver test (its real module imports vLLM, which needs
CUDA): the shared-state actor dies for good mid-run, then the trainer gathers a row from a rollout actor
with a plain ``ray.get``, as OpenRLHF's trainer does. The driver runs it as it runs OpenRLHF's module.

Arguments (``sys.argv`` after the script path): the run directory, the tiny model's directory, and how many
times Ray restarts the state actor (``openrlhf.state_restarts``).
"""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path


def main() -> None:
    import ray

    from spade_train.backends.openrlhf.command import agent_executor_path
    from spade_train.backends.openrlhf.labels import RowLabel
    from spade_train.backends.openrlhf.ray_actor import NAMESPACE, state_actor_name
    from tests.test_openrlhf_shared_state import RolloutActor, call_until_back

    run_dir, model, restarts = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    name = state_actor_name(run_dir)
    handle = ray.get_actor(name, namespace=NAMESPACE)
    for _ in range(restarts + 1):  # each crash uses one of Ray's restarts; the last finds none left
        os.kill(call_until_back(ray, handle.process_id), signal.SIGKILL)
    row = RowLabel(role="agent", row=0, samples=2, actor=name, namespace=NAMESPACE)
    rollout = ray.remote(num_cpus=0)(RolloutActor).remote(str(agent_executor_path()), model, "\\boxed{0}")
    ray.get(rollout.generate_responses.remote(row.prompt_text(), row.to_json(), 2), timeout=300)
    raise AssertionError("the rollout should have stopped the run")


if __name__ == "__main__":
    main()
