"""Stands in for OpenRLHF's ``train_ppo_ray`` in the driver test: a rollout engine dies mid-step (its process
exits, as after a native crash or the OOM killer) while the trainer waits on it with a plain ``ray.get``, as
OpenRLHF's trainer does. Before that it checks that the driver holds the engines' CPUs on the GPU node.

Arguments (``sys.argv`` after the script path): the GPU node's id.
"""

from __future__ import annotations

import os
import sys


class Engine:
    def generate(self) -> None:
        os._exit(1)


def main() -> None:
    import ray

    from spade_train.backends.openrlhf.resources import NAMESPACE, reservation_name

    ray.get_actor(reservation_name(sys.argv[1]), namespace=NAMESPACE)  # raises if the CPUs are not held
    print("spade test: the engines' CPUs are held", flush=True)
    engine = ray.remote(num_cpus=0, max_restarts=0)(Engine).remote()
    ray.get(engine.generate.remote(), timeout=120)
    raise AssertionError("the engine should have died")


if __name__ == "__main__":
    main()
