"""SPADE environment SDK: the contract for designer-written environments, checks and runtimes.

Typical use::

    from spade_envs import create_backend, validate_source
    report = validate_source(open("my_env.py").read(), create_backend("inprocess"))
    print(report.ok, [f.message for f in report.failures])

The SDK is light on purpose: it never imports torch, Ray, OpenRLHF or a model client.
"""

from spade_envs.checks import CheckConfig, ValidatorConfig, validate_file, validate_source
from spade_envs.contract import ToolUseBaseEnv, episode_return, extract_boxed, solution_to_actions
from spade_envs.registry import EnvEntry, EnvRegistry, bundled_registry
from spade_envs.runtime import EnvSession, ExecutionLimits, create_backend
from spade_envs.spec import EnvSpec, EpisodeLog, PoolManifest, ValidationReport, env_id_for

__version__ = "0.1.0"

__all__ = [
    "CheckConfig",
    "EnvEntry",
    "EnvRegistry",
    "EnvSession",
    "EnvSpec",
    "EpisodeLog",
    "ExecutionLimits",
    "PoolManifest",
    "ToolUseBaseEnv",
    "ValidationReport",
    "ValidatorConfig",
    "bundled_registry",
    "create_backend",
    "env_id_for",
    "episode_return",
    "extract_boxed",
    "solution_to_actions",
    "validate_file",
    "validate_source",
]
