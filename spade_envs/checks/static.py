"""Static checks: read the environment's code with ``ast`` and run none of it.

They come first because they are cheap and because some code must never run at all: an import of
``os`` or a call to ``eval`` is rejected here, before any backend sees it. Every finding names its
check, the line, and what to do instead.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from spade_envs.contract.allowlist import ALLOWED_MODULES, is_allowed_module
from spade_envs.spec.models import CheckFailure

FORBIDDEN_NAMES: dict[str, str] = {
    "exec": "runs arbitrary code",
    "eval": "runs arbitrary code",
    "compile": "builds code objects",
    "__import__": "imports modules behind the allowlist's back",
    "open": "touches files, and environments get no file access",
    "input": "waits for a terminal that does not exist",
    "breakpoint": "starts a debugger",
    "globals": "exposes the module's namespace",
    "locals": "exposes frame internals",
    "vars": "exposes object internals",
    "exit": "stops the interpreter",
    "quit": "stops the interpreter",
    "help": "starts an interactive pager",
    "memoryview": "gives raw memory access",
    "__builtins__": "exposes every builtin, including the forbidden ones",
    "__loader__": "exposes the import machinery",
    "__spec__": "exposes the import machinery",
}

FORBIDDEN_ATTRIBUTES: frozenset[str] = frozenset(
    {
        "__subclasses__", "__globals__", "__builtins__", "__code__", "__closure__", "__bases__",
        "__base__", "__mro__", "__dict__", "__getattribute__", "__reduce__", "__reduce_ex__",
        "__import__", "__loader__", "__spec__", "__self__", "__func__", "__defaults__", "__kwdefaults__",
        "__traceback__", "__frame__", "__init_subclass__", "__set_name__", "__class_getitem__",
        "f_globals", "f_locals", "f_back", "f_builtins", "f_code", "gi_frame", "gi_code", "cr_frame",
        "ag_frame", "tb_frame", "tb_next", "co_code", "mro",
    }
)

ENV_SUFFIX = "Env"
BASE_CLASS_NAME = "ToolUseBaseEnv"


@dataclass(frozen=True)
class StaticConfig:
    max_source_bytes: int = 200_000
    max_lines: int = 3_000
    extra_modules: frozenset[str] = frozenset()
    """Modules allowed beyond the standard allowlist, e.g. numpy for the process backend.
    The WebAssembly guest does not have them: such environments need ``--sandbox process``."""


@dataclass
class StaticResult:
    """Findings plus what the reading learned (used to pick the dynamic checks)."""

    failures: list[CheckFailure] = field(default_factory=list)
    warnings: list[CheckFailure] = field(default_factory=list)
    class_name: str | None = None
    tool_use: bool = False

    @property
    def ok(self) -> bool:
        return not self.failures

    def fail(self, check: str, message: str, line: int | None = None) -> None:
        self.failures.append(CheckFailure(check=check, message=message, line=line))

    def warn(self, check: str, message: str, line: int | None = None) -> None:
        self.warnings.append(CheckFailure(check=check, message=message, line=line, severity="warning"))


def run_static_checks(source: str, config: StaticConfig | None = None) -> StaticResult:
    """Run every static check on ``source``; later checks are skipped when the code does not parse."""
    config = config or StaticConfig()
    result = StaticResult()
    size = len(source.encode("utf-8"))
    lines = source.count("\n") + 1
    if size > config.max_source_bytes or lines > config.max_lines:
        result.fail(
            "file_size",
            f"The file has {size:,} bytes in {lines:,} lines; the limit is {config.max_source_bytes:,} bytes "
            f"and {config.max_lines:,} lines. Generate data in reset() instead of writing it out.",
        )
        return result
    try:
        tree = ast.parse(source)
    except SyntaxError as error:
        result.fail("syntax", f"Syntax error: {error.msg}. Fix the code at this line.", error.lineno)
        return result
    except ValueError as error:  # e.g. null bytes in the source
        result.fail("syntax", f"The source cannot be parsed: {error}. Remove the offending characters.")
        return result

    strings = _code_strings(tree)
    _check_imports_and_names(tree, result, config.extra_modules)
    _check_strings(strings, result)
    env_class = _check_env_class(tree, result)
    if env_class is not None:
        result.class_name = env_class.name
        result.tool_use = _inherits_tool_use_base(env_class, _module_classes(tree))
        _check_methods(env_class, _module_classes(tree), result)
        if not result.tool_use and not any("boxed" in text for text, _ in strings):
            result.warn(
                "boxed_actions",
                "The environment never mentions \\boxed{}; agents send actions as \\boxed{...}, "
                "so parse the last \\boxed{...} in step().",
            )
    return result


# ---------------------------------------------------------------------- imports and escape hatches
def _check_imports_and_names(tree: ast.Module, result: StaticResult, extra: frozenset[str]) -> None:
    allowed = ", ".join(sorted((ALLOWED_MODULES | extra) - {"__future__"}))

    def permitted(module: str) -> bool:
        return is_allowed_module(module) or module.split(".", 1)[0] in extra

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if not permitted(alias.name):
                    result.fail(
                        "imports",
                        f"Import of '{alias.name}' is not allowed; environments may import only: {allowed}.",
                        node.lineno,
                    )
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                result.fail("imports", "Relative imports are not allowed; an environment is a single file.",
                            node.lineno)
            elif not permitted(node.module or ""):
                result.fail(
                    "imports",
                    f"Import from '{node.module}' is not allowed; environments may import only: {allowed}.",
                    node.lineno,
                )
        elif isinstance(node, ast.Name) and node.id in FORBIDDEN_NAMES:
            result.fail(
                "forbidden_name",
                f"'{node.id}' is not allowed because it {FORBIDDEN_NAMES[node.id]}; compute the value directly.",
                node.lineno,
            )
        elif isinstance(node, ast.Attribute) and node.attr in FORBIDDEN_ATTRIBUTES:
            result.fail(
                "forbidden_attribute",
                f"Attribute '{node.attr}' reaches into interpreter internals and is not allowed; "
                "use ordinary attributes of your own objects.",
                node.lineno,
            )


# ---------------------------------------------------------------------- strings used by the code
_INTERNAL_NAMES = sorted(
    {name for name in FORBIDDEN_ATTRIBUTES | set(FORBIDDEN_NAMES) if name.startswith("__")}
    | {"f_globals", "f_locals", "f_back", "f_builtins", "gi_frame", "cr_frame", "ag_frame", "tb_frame"}
)


def _docstring_nodes(tree: ast.Module) -> set[int]:
    """ids of the string constants that are docstrings (prose, not code)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(
                first.value.value, str
            ):
                found.add(id(first.value))
    return found


def _fold(node: ast.AST) -> str | None:
    """The value of a string expression built only from constants (``"__glob" + "als__"``)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _fold(node.left), _fold(node.right)
        if left is not None and right is not None:
            return left + right
    if isinstance(node, ast.JoinedStr):
        parts = [_fold(value) for value in node.values]
        return "".join(parts) if all(p is not None for p in parts) else None  # type: ignore[arg-type]
    return None


def _code_strings(tree: ast.Module) -> list[tuple[str, int]]:
    """Every string the code uses (docstrings excluded), with constant concatenations folded."""
    docstrings = _docstring_nodes(tree)
    strings = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            strings.append((node.value, node.lineno))
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            folded = _fold(node)
            if folded is not None:
                strings.append((folded, node.lineno))
    return strings


def _check_strings(strings: list[tuple[str, int]], result: StaticResult) -> None:
    """Strings naming interpreter internals: the raw material of getattr and str.format escapes."""
    for text, line in strings:
        named = next((name for name in _INTERNAL_NAMES if name in text), None)
        if named is not None:
            result.fail(
                "forbidden_attribute",
                f"The string {text[:60]!r} names the interpreter internal '{named}' (a getattr or format "
                "escape) and is not allowed; use ordinary attributes of your own objects.",
                line,
            )


# ---------------------------------------------------------------------- the environment class
def _module_classes(tree: ast.Module) -> dict[str, ast.ClassDef]:
    return {node.name: node for node in tree.body if isinstance(node, ast.ClassDef)}


def _check_env_class(tree: ast.Module, result: StaticResult) -> ast.ClassDef | None:
    classes = _module_classes(tree)
    if BASE_CLASS_NAME in classes:
        result.fail(
            "env_class",
            f"Do not define {BASE_CLASS_NAME} yourself; subclass it without importing it, the loader provides it.",
            classes[BASE_CLASS_NAME].lineno,
        )
    public = [c for name, c in classes.items() if name.endswith(ENV_SUFFIX) and not name.startswith("_")
              and name != BASE_CLASS_NAME]
    if len(public) == 1:
        return public[0]
    if not public:
        result.fail(
            "env_class",
            "No public class whose name ends in 'Env' was found; define exactly one, e.g. class MazeEnv:.",
        )
    else:
        names = ", ".join(c.name for c in public)
        result.fail(
            "env_class",
            f"Found {len(public)} public *Env classes ({names}); keep exactly one and prefix helpers with '_'.",
            public[1].lineno,
        )
    return None


def _base_names(node: ast.ClassDef) -> list[str]:
    return [base.id for base in node.bases if isinstance(base, ast.Name)]


def _inherits_tool_use_base(node: ast.ClassDef, classes: dict[str, ast.ClassDef], depth: int = 0) -> bool:
    if depth > 20:
        return False
    for base in _base_names(node):
        if base == BASE_CLASS_NAME:
            return True
        if base in classes and _inherits_tool_use_base(classes[base], classes, depth + 1):
            return True
    return False


def _methods(node: ast.ClassDef, classes: dict[str, ast.ClassDef], depth: int = 0) -> dict[str, ast.FunctionDef]:
    """Methods defined on the class or on its base classes defined in the same module."""
    found: dict[str, ast.FunctionDef] = {}
    if depth <= 20:
        for base in reversed(_base_names(node)):
            if base in classes and base != node.name:
                found.update(_methods(classes[base], classes, depth + 1))
    for item in node.body:
        if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found[item.name] = item  # type: ignore[assignment]
    return found


def _check_methods(node: ast.ClassDef, classes: dict[str, ast.ClassDef], result: StaticResult) -> None:
    methods = _methods(node, classes)
    inherited_from_base = {"step", "close", "__init__", "get_tools"} if result.tool_use else set()
    required = {
        "reset": "reset(self, seed=None) returning (observation, info)",
        "step": "step(self, action) returning (observation, reward, terminated, truncated, info)",
        "solution": "solution(self) returning the answer or the winning actions",
    }
    for name, shape in required.items():
        if name not in methods and name not in inherited_from_base:
            result.fail("required_methods", f"{node.name} has no {name}() method; define {shape}.", node.lineno)
    if "close" not in methods and "close" not in inherited_from_base:
        result.warn("close_method", f"{node.name} has no close() method; add `def close(self): pass`.", node.lineno)

    if "__init__" in methods:
        _check_init(methods["__init__"], result)
    if "reset" in methods:
        _check_reset(methods["reset"], result)
    if "step" in methods:
        _check_step(methods["step"], result)


def _params(func: ast.FunctionDef) -> tuple[list[ast.arg], int]:
    """Positional parameters after self, and how many of them lack a default."""
    positional = func.args.posonlyargs + func.args.args
    params = positional[1:] if positional else []
    required = len(params) - len(func.args.defaults)
    return params, max(required, 0)


def _check_init(func: ast.FunctionDef, result: StaticResult) -> None:
    params, required = _params(func)
    names = [p.arg for p in params] + [p.arg for p in func.args.kwonlyargs]
    kw_required = [a.arg for a, d in zip(func.args.kwonlyargs, func.args.kw_defaults) if d is None]
    if required or kw_required:
        result.fail(
            "method_signature",
            "__init__ has parameters without defaults; every parameter needs one so the environment "
            "can be built as Env(max_turns=N).",
            func.lineno,
        )
    if "max_turns" not in names and func.args.kwarg is None:
        result.fail(
            "method_signature",
            "__init__ does not accept max_turns; write def __init__(self, max_turns=10, **kwargs).",
            func.lineno,
        )
    elif func.args.kwarg is None:
        result.warn(
            "method_signature",
            "__init__ has no **kwargs; add it so callers can pass extra options (a document, a difficulty).",
            func.lineno,
        )


def _check_reset(func: ast.FunctionDef, result: StaticResult) -> None:
    params, required = _params(func)
    names = [p.arg for p in params] + [p.arg for p in func.args.kwonlyargs]
    if required or ("seed" not in names and func.args.kwarg is None):
        result.fail(
            "method_signature",
            "reset must be callable as reset(seed=None); write def reset(self, seed=None).",
            func.lineno,
        )


def _check_step(func: ast.FunctionDef, result: StaticResult) -> None:
    params, required = _params(func)
    if not params and func.args.vararg is None:
        result.fail("method_signature", "step takes no action; write def step(self, action).", func.lineno)
    elif required > 1:
        result.fail(
            "method_signature",
            f"step requires {required} arguments; it receives exactly one, the action string: "
            "def step(self, action).",
            func.lineno,
        )
