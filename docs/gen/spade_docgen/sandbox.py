"""The sandbox reference: backends, per-call limits, the module allowlist and the static bans, from code.

Every value on these tables is read from the object that enforces it (``ExecutionLimits``,
``ALLOWED_MODULES``, the static checker's ban lists, the backend classes), so the page says what the
installed toolkit does.
"""

from __future__ import annotations

import dataclasses

from spade_docgen.markdown import code, docstring, prose, table
from spade_docgen.source import attribute_docstrings
from spade_envs.checks.dynamic import CheckConfig
from spade_envs.checks.static import (
    FORBIDDEN_ATTRIBUTES,
    FORBIDDEN_MODULE_MEMBERS,
    FORBIDDEN_NAMES,
    StaticConfig,
)
from spade_envs.contract.allowlist import ALLOWED_MODULES
from spade_envs.runtime.backend import BACKEND_FACTORIES, DEFAULT_BACKEND
from spade_envs.runtime.inprocess import InProcessBackend
from spade_envs.runtime.limits import ExecutionLimits
from spade_envs.runtime.process import ProcessBackend
from spade_envs.runtime.wasm import WasmBackend, WasmConfig

_BACKEND_CLASSES = {cls.name: cls for cls in (InProcessBackend, ProcessBackend, WasmBackend)}


def dataclass_table(cls: type) -> str:
    """Field, default and explanation (the docstring under the field) of a configuration dataclass."""
    notes = attribute_docstrings(cls)
    rows = []
    for field in dataclasses.fields(cls):
        if field.default is not dataclasses.MISSING:
            default = field.default
        elif field.default_factory is not dataclasses.MISSING:
            default = field.default_factory()
        else:
            default = ""
        rows.append([code(field.name), code(repr(default)), prose(notes.get(field.name, ""))])
    return table(["field", "default", "meaning"], rows)


def render_backends() -> str:
    missing = sorted(set(BACKEND_FACTORIES) - set(_BACKEND_CLASSES))
    if missing:
        raise ValueError(f"backends without a documented class: {', '.join(missing)}")
    rows = [[code(name) + (" (default)" if name == DEFAULT_BACKEND else ""),
             "yes" if _BACKEND_CLASSES[name].isolated else "no", prose(docstring(_BACKEND_CLASSES[name]))]
            for name in sorted(BACKEND_FACTORIES)]
    return table(["backend (`--sandbox`)", "isolates untrusted code", "what it is"], rows)


def render_limits() -> str:
    return dataclass_table(ExecutionLimits)


def render_static_limits() -> str:
    return dataclass_table(StaticConfig)


def render_check_settings() -> str:
    return dataclass_table(CheckConfig)


def render_wasm_settings() -> str:
    return dataclass_table(WasmConfig)


def render_allowlist() -> str:
    return ", ".join(code(name) for name in sorted(ALLOWED_MODULES)) + "\n"


def render_forbidden_names() -> str:
    rows = [[code(name), prose(reason)] for name, reason in sorted(FORBIDDEN_NAMES.items())]
    return table(["name", "why it is forbidden"], rows)


def render_forbidden_attributes() -> str:
    return ", ".join(code(name) for name in sorted(FORBIDDEN_ATTRIBUTES)) + "\n"


def render_forbidden_module_members() -> str:
    rows = [[code(f"{module}.{member}"), prose(reason)]
            for (module, member), reason in sorted(FORBIDDEN_MODULE_MEMBERS.items())]
    return table(["member", "why it is forbidden"], rows)
