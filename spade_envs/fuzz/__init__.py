"""Property-based fuzzing of environments with Hypothesis."""

from spade_envs.fuzz.counterexample import FUZZ_PROPERTIES, Counterexample
from spade_envs.fuzz.runner import FuzzConfig, Fuzzer, FuzzReport, fuzz_environment

__all__ = ["FUZZ_PROPERTIES", "Counterexample", "FuzzConfig", "FuzzReport", "Fuzzer", "fuzz_environment"]
