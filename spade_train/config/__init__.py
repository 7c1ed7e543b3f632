"""The run configuration: its sections (``sections``) and how files and ``--set`` overrides become one
validated ``RunConfig`` (``files``)."""

from spade_train.config.files import (
    TRAIN_SCHEMA_MODELS,
    ConfigError,
    load_run_config,
    override_config,
    parse_run_config,
    with_overrides,
)
from spade_train.config.sections import (
    DesignSection,
    GRPOSection,
    LoopSection,
    ModelSection,
    OpenRLHFSection,
    PoliciesSection,
    ProbeSection,
    RunConfig,
    RunSection,
    SamplingSection,
    WarmupSection,
)

__all__ = [
    "TRAIN_SCHEMA_MODELS",
    "ConfigError",
    "DesignSection",
    "GRPOSection",
    "LoopSection",
    "ModelSection",
    "OpenRLHFSection",
    "PoliciesSection",
    "ProbeSection",
    "RunConfig",
    "RunSection",
    "SamplingSection",
    "WarmupSection",
    "load_run_config",
    "override_config",
    "parse_run_config",
    "with_overrides",
]
