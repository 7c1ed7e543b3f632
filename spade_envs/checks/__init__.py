"""Checks of environment code against the contract: static (read only) and dynamic (executed)."""

from spade_envs.checks.catalogue import CHECKS, CHECKS_BY_NAME, CheckInfo, check_names
from spade_envs.checks.dynamic import CheckConfig, DynamicChecker
from spade_envs.checks.static import StaticConfig, run_static_checks
from spade_envs.checks.validate import ValidatorConfig, check_hint, validate_file, validate_source
from spade_envs.contract.probes import GARBAGE_ACTIONS

__all__ = [
    "CHECKS",
    "CHECKS_BY_NAME",
    "GARBAGE_ACTIONS",
    "CheckConfig",
    "CheckInfo",
    "DynamicChecker",
    "StaticConfig",
    "ValidatorConfig",
    "check_hint",
    "check_names",
    "run_static_checks",
    "validate_file",
    "validate_source",
]
