"""Validation spread over a Ray cluster: one validation worker (and one sandbox) per Ray worker.

``validate_on_ray`` (``ray_validate.py``) is what ``spade-envs validate --ray [ADDRESS]`` runs;
``trap_handlers.py`` keeps a process's WebAssembly sandbox working across ``ray.init``. Ray is imported
only when a cluster is asked for.
"""

from spade_envs.cluster.ray_validate import RaySettings, validate_on_ray
from spade_envs.cluster.trap_handlers import init_ray, shutdown_ray, trap_handlers_kept

__all__ = ["RaySettings", "init_ray", "shutdown_ray", "trap_handlers_kept", "validate_on_ray"]
