"""verifiers hub entry point for SPADE pools: ``vf.load_environment("spade-pool-env", pool="DIR")``.

The arguments are those of ``spade_envs.interop.verifiers_env.load_environment``: ``pool`` (a pool
directory, ``DIR#ID`` or ``bundled``), ``sandbox`` (default ``wasm``), ``seeds_per_env``, ``first_seed``,
``hinted``, ``kinds``, ``native_tools``, ``call_timeout_s`` and ``allow_unvalidated`` (a pool whose manifest
says some environments were not validated is refused without it).
"""

from spade_envs.interop.verifiers_env import load_environment

__all__ = ["load_environment"]
