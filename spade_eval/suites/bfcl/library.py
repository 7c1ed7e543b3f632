"""bfcl-eval as a library: imported on demand, from a minimal install, without writing into site-packages.

The benchmark's data, ground truth, simulated multi-turn APIs and checkers all come from the
``bfcl-eval`` wheel. Its full install is heavy and pins old packages (numpy 1.26, sentence-transformers,
faiss, every vendor SDK), so the project installs it with ``--no-deps`` plus its two light runtime
dependencies (filelock, mpmath). Two of its import-time habits need handling for that to work:

- ``bfcl_eval.constants.eval_config`` creates ``result/``, ``score/`` and a lock directory under
  ``BFCL_PROJECT_ROOT`` when first imported, defaulting to the site-packages folder. The variable is the
  package's only way to choose that place, so it is pointed at a cache folder (unless the user set it)
  before the first import.
- the AST checker imports ``MODEL_CONFIG_MAPPING`` from ``constants.model_config``, which imports the
  handler of every vendor SDK. The checker reads one field from it, ``underscore_to_dot`` (whether a model
  wrote ``math.factorial`` as ``math_factorial``). This suite maps tool names itself (see
  ``prompting.fc_tool_names``), so when the real module cannot be imported a stand-in answering
  ``underscore_to_dot=False`` for every model takes its place. With the full install the real module is
  used, and ``CHECKER_MODEL_NAME`` is a model whose entry says the same.
"""

from __future__ import annotations

import importlib
import os
import sys
import threading
import types
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from spade_eval.suites.bfcl.categories import benchmark_name
from spade_train.policies.base import SamplingParams

if TYPE_CHECKING:
    from spade_eval.suites.bfcl.prompting import Mode

BFCL_SAMPLING = SamplingParams(temperature=0.001, top_p=1.0, max_tokens=4096)
"""bfcl-eval's default generation settings (temperature 0.001)."""

from spade_eval.benchmark import BenchmarkDataError

BFCL_VERSION = "2026.3.23"
INSTALL_HINT = f"pip install --no-deps bfcl-eval=={BFCL_VERSION} filelock mpmath"
CHECKER_MODEL_NAME = "gorilla-openfunctions-v2"
"""Model name given to the AST checker: present in bfcl's real table with ``underscore_to_dot=False``."""

_MODEL_CONFIG_MODULE = "bfcl_eval.constants.model_config"
_IMPORT_LOCK = threading.Lock()


def bfcl_work_dir() -> Path:
    """Where bfcl-eval may create its result, score and lock folders (never site-packages)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "spade-toolkit" / "bfcl"


@dataclass(frozen=True)
class Bfcl:
    """The bfcl-eval modules the suite uses, imported once."""

    utils: types.ModuleType
    category_mapping: types.ModuleType
    default_prompts: types.ModuleType
    type_mappings: types.ModuleType
    enums: types.ModuleType
    ast_checker: types.ModuleType
    multi_turn_checker: types.ModuleType
    multi_turn_utils: types.ModuleType

    @property
    def step_limit(self) -> int:
        """Steps the official loop allows per turn before it force-quits the entry."""
        return int(self.default_prompts.MAXIMUM_STEP_LIMIT)


class _NoRenameConfig(Mapping[str, Any]):
    """Stand-in for ``MODEL_CONFIG_MAPPING``: every model keeps dotted function names as they are."""

    _config = types.SimpleNamespace(underscore_to_dot=False, is_fc_model=True)

    def __getitem__(self, key: str) -> Any:
        return self._config

    def __iter__(self) -> Iterator[str]:
        return iter(())

    def __len__(self) -> int:
        return 0


def _ensure_model_config() -> None:
    if _MODEL_CONFIG_MODULE in sys.modules:
        return
    try:
        importlib.import_module(_MODEL_CONFIG_MODULE)
    except ImportError:  # the vendor SDKs of a full install are absent: the checker only needs one flag
        stand_in = types.ModuleType(_MODEL_CONFIG_MODULE)
        stand_in.__doc__ = "spade-eval stand-in: bfcl-eval's model table without the vendor SDKs it imports."
        stand_in.MODEL_CONFIG_MAPPING = _NoRenameConfig()  # type: ignore[attr-defined]
        sys.modules[_MODEL_CONFIG_MODULE] = stand_in


def load_bfcl() -> Bfcl:
    """Import bfcl-eval's modules; ``BenchmarkDataError`` with the install command when it is missing."""
    with _IMPORT_LOCK:
        os.environ.setdefault("BFCL_PROJECT_ROOT", str(bfcl_work_dir()))
        try:
            importlib.import_module("bfcl_eval")
        except ImportError:
            raise BenchmarkDataError(
                f"BFCL needs the bfcl-eval package, which is not installed: {INSTALL_HINT}"
            ) from None
        try:
            _ensure_model_config()
            return Bfcl(
                utils=importlib.import_module("bfcl_eval.utils"),
                category_mapping=importlib.import_module("bfcl_eval.constants.category_mapping"),
                default_prompts=importlib.import_module("bfcl_eval.constants.default_prompts"),
                type_mappings=importlib.import_module("bfcl_eval.constants.type_mappings"),
                enums=importlib.import_module("bfcl_eval.constants.enums"),
                ast_checker=importlib.import_module("bfcl_eval.eval_checker.ast_eval.ast_checker"),
                multi_turn_checker=importlib.import_module(
                    "bfcl_eval.eval_checker.multi_turn_eval.multi_turn_checker"
                ),
                multi_turn_utils=importlib.import_module(
                    "bfcl_eval.eval_checker.multi_turn_eval.multi_turn_utils"
                ),
            )
        except ImportError as error:
            raise BenchmarkDataError(
                f"bfcl-eval is installed but cannot be imported ({error}); reinstall it with: {INSTALL_HINT}"
            ) from None


class BfclCategoryBenchmark:
    """What every BFCL benchmark shares: one category, a call format, and the bfcl-eval library loaded
    on first use (so listing benchmarks does not import it)."""

    suite = "tool_use"
    samples = 1
    metric = "accuracy"

    def __init__(self, category: str, mode: Mode = "fc") -> None:
        self.category = category
        self.mode = mode
        self.name = benchmark_name(category)
        self.sampling = BFCL_SAMPLING
        self._bfcl: Bfcl | None = None

    @property
    def bfcl(self) -> Bfcl:
        if self._bfcl is None:
            self._bfcl = load_bfcl()
        return self._bfcl

