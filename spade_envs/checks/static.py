"""Static checks: read the environment's code with ``ast`` and run none of it.

This tier is feedback for the designer, a linter: it is cheap, it runs before anything else, and
every finding names its check, the line and what to write instead, so a designer model learns the
rules before its code ever runs. Code that fails here is never executed.

It is *not* the security boundary. Python is too dynamic for any reading of the code to prove what
it will do, and the static tier cannot see values computed at run time from things it cannot compute.
The WebAssembly sandbox is what contains environment code, whatever gets past this tier. Still, the
cheap ways around the rules are closed here, so that code which only looks innocent is flagged:

* attribute names given to ``getattr``/``setattr``/``delattr``/``hasattr`` (and ``operator``'s
  ``attrgetter``/``methodcaller``) must be provably harmless: a literal that names no interpreter
  internal, or a computed name whose literal prefix or suffix no internal name has
  (``getattr(self, "tool_" + name)``); these functions may not be passed around as values;
* strings are constant-folded (``+``, ``*``, ``%``, ``join``, ``format``, f-strings, ``chr``, slices,
  names assigned once; see ``folding.py``) before they are searched for internal names;
* importing a module's private names or another module through an allowed one
  (``from random import _os``, ``from dataclasses import sys``, ``dataclasses.sys``) is rejected,
  and so are the library functions that evaluate strings as code (``typing.get_type_hints``);
* the checker itself never recurses over the tree, so deeply nested code cannot crash it.
"""

from __future__ import annotations

import ast
import importlib
import types
from dataclasses import dataclass, field

from spade_envs.checks.folding import ConstantFolder, literal_ends
from spade_envs.contract.allowlist import ALLOWED_MODULES, is_allowed_module
from spade_envs.contract.episode import env_class_candidates
from spade_envs.spec.models import CheckFailure
from spade_envs.syntax import parse

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

FORBIDDEN_MODULE_MEMBERS: dict[tuple[str, str], str] = {
    ("typing", "get_type_hints"): "evaluates annotation strings as code",
    ("typing", "ForwardRef"): "evaluates strings as code",
    ("typing", "evaluate_forward_ref"): "evaluates strings as code",
}
"""Library functions of allowed modules that are ``eval`` in disguise."""

ATTRIBUTE_FUNCTIONS: dict[str, tuple[int, ...]] = {
    "getattr": (1,), "setattr": (1,), "delattr": (1,), "hasattr": (1,), "attrgetter": (), "methodcaller": (0,),
}
"""Functions that take an attribute name as a string, and which positional arguments are names
(``()``: all of them, as for ``operator.attrgetter``)."""

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


def run_static_checks(source: str, config: StaticConfig | None = None, *, class_name: str | None = None) -> StaticResult:
    """Run every static check on ``source``; later checks are skipped when the code does not parse.
    ``class_name`` names the environment class where the caller knows it (a pool entry, an adapter placed
    after the user's own code): other public ``*Env`` classes are then the user's helpers, not a second
    environment."""
    config = config or StaticConfig()
    result = StaticResult()
    size = len(source.encode("utf-8", "surrogatepass"))
    lines = source.count("\n") + 1
    if size > config.max_source_bytes or lines > config.max_lines:
        result.fail(
            "file_size",
            f"The file has {size:,} bytes in {lines:,} lines; the limit is {config.max_source_bytes:,} bytes "
            f"and {config.max_lines:,} lines. Generate data in reset() instead of writing it out.",
        )
        return result
    try:
        tree = parse(source)
    except SyntaxError as error:
        result.fail("syntax", f"Syntax error: {error.msg}. Fix the code at this line.", error.lineno)
        return result
    except ValueError as error:  # e.g. null bytes in the source
        result.fail("syntax", f"The source cannot be parsed: {error}. Remove the offending characters.")
        return result
    except (RecursionError, MemoryError):
        result.fail("syntax", "The code is nested too deeply to be read (an expression or block hundreds of "
                    "levels deep); split it into simpler statements.")
        return result

    folder = ConstantFolder(tree)
    strings = _code_strings(tree, folder)
    _check_imports_and_names(tree, folder, result, config.extra_modules)
    _check_strings(strings, result)
    result.failures = _one_per_check_and_line(result.failures)
    env_class = _check_env_class(tree, result, class_name)
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


def _one_per_check_and_line(failures: list[CheckFailure]) -> list[CheckFailure]:
    """The first finding of each check on each line (a getattr string can be flagged twice over)."""
    seen: set[tuple[str, int | None]] = set()
    kept = []
    for failure in failures:
        key = (failure.check, failure.line)
        if key not in seen or failure.line is None:
            seen.add(key)
            kept.append(failure)
    return kept


# ---------------------------------------------------------------------- imports and escape hatches
def _check_imports_and_names(tree: ast.Module, folder: ConstantFolder, result: StaticResult,
                             extra: frozenset[str]) -> None:
    allowed = ", ".join(sorted((ALLOWED_MODULES | extra) - {"__future__"}))
    modules = _ModuleNames(extra)

    def permitted(module: str) -> bool:
        return is_allowed_module(module) or module.split(".", 1)[0] in extra

    for node in folder.order:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if not permitted(alias.name):
                    result.fail(
                        "imports",
                        f"Import of '{alias.name}' is not allowed; environments may import only: {allowed}.",
                        node.lineno,
                    )
                else:
                    modules.bind_import(alias)
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
            else:
                for alias in node.names:
                    problem = modules.bind_from(node.module or "", alias)
                    if problem:
                        result.fail(*problem, node.lineno)
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
    # Module members and attribute names need every import binding, so they come second.
    for node in folder.order:
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
            problem = modules.member_problem(node)
            if problem:
                result.fail(*problem, node.lineno)
        if isinstance(node, (ast.Name, ast.Attribute)) and _attribute_function(node, modules) is not None:
            problem = _attribute_function_problem(node, folder, modules)
            if problem:
                result.fail("forbidden_attribute", problem, node.lineno)


class _ModuleNames:
    """Which names of the file are bound to which allowed modules, and what those modules hold.

    Allowed modules are standard-library modules that are safe to import, so their members are read
    from the host's own copies (the guest's CPython has the same standard library).
    """

    def __init__(self, extra: frozenset[str]) -> None:
        self.extra = extra
        self.bound: dict[str, str] = {}  # local name -> module name
        self.imported: dict[str, tuple[str, str]] = {}  # local name -> (module, member) for `from m import x`

    def bind_import(self, alias: ast.alias) -> None:
        if alias.asname:
            self.bound[alias.asname] = alias.name
        else:
            top = alias.name.split(".", 1)[0]
            self.bound[top] = top

    def bind_from(self, module: str, alias: ast.alias) -> tuple[str, str] | None:
        """Record ``from module import name``; the finding if it reaches into the module."""
        name = alias.name
        local = alias.asname or name
        if name == "*" or module == "__future__":
            return None
        self.imported[local] = (module, name)
        if name.startswith("_"):
            return "imports", (f"'from {module} import {name}' imports a private name of '{module}'; use only its "
                               "public names.")
        if (module, name) in FORBIDDEN_MODULE_MEMBERS:
            return "forbidden_name", (f"'{module}.{name}' is not allowed because it "
                                      f"{FORBIDDEN_MODULE_MEMBERS[module, name]}; compute the value directly.")
        member = getattr(self.module(module), name, None)
        if isinstance(member, types.ModuleType):
            if not is_allowed_module(member.__name__):
                return "imports", (f"'from {module} import {name}' imports the module '{member.__name__}' through "
                                   f"'{module}'; import only allowed modules.")
            self.bound[local] = member.__name__
        return None

    def module(self, name: str) -> types.ModuleType | None:
        """The host's copy of an allowed standard-library module (None for extra or unknown modules)."""
        if not is_allowed_module(name) or name.split(".", 1)[0] in self.extra:
            return None
        try:
            return importlib.import_module(name)
        except ImportError:
            return None

    def resolve(self, node: ast.expr) -> str | None:
        """The module an expression names (``random``, ``collections.abc``), if it names one."""
        path: list[str] = []
        while isinstance(node, ast.Attribute):
            path.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name) or node.id not in self.bound:
            return None
        name = self.bound[node.id]
        for attr in reversed(path):
            member = getattr(self.module(name), attr, None)
            if not isinstance(member, types.ModuleType):
                return None
            name = member.__name__
        return name

    def member_problem(self, node: ast.Attribute) -> tuple[str, str] | None:
        """``module.member`` that reaches a private name, a module not allowed, or eval in disguise."""
        module = self.resolve(node.value)
        if module is None:
            return None
        shown = f"{module}.{node.attr}"
        if node.attr.startswith("_"):
            return "forbidden_attribute", (f"'{shown}' reaches a private name of the module '{module}'; use only "
                                           "its public names.")
        if (module, node.attr) in FORBIDDEN_MODULE_MEMBERS:
            return "forbidden_name", (f"'{shown}' is not allowed because it "
                                      f"{FORBIDDEN_MODULE_MEMBERS[module, node.attr]}; compute the value directly.")
        member = getattr(self.module(module), node.attr, None)
        if isinstance(member, types.ModuleType) and not is_allowed_module(member.__name__):
            return "forbidden_attribute", (f"'{shown}' reaches the module '{member.__name__}' through '{module}'; "
                                           "import only allowed modules.")
        return None

    def members_matching(self, module: str, prefix: str, suffix: str) -> list[str]:
        found = self.module(module)
        names = dir(found) if found is not None else []
        return [n for n in names if n.startswith(prefix) and n.endswith(suffix) and len(n) >= len(prefix + suffix)]


def _attribute_function(node: ast.Name | ast.Attribute, modules: _ModuleNames) -> str | None:
    """``getattr`` and friends, under whatever name this reference uses (None if it is none of them)."""
    if isinstance(node, ast.Name):
        name = modules.imported.get(node.id, ("builtins", node.id))
        if name[0] in ("builtins", "operator") and name[1] in ATTRIBUTE_FUNCTIONS:
            return name[1]
        return None
    if node.attr in ("attrgetter", "methodcaller") and modules.resolve(node.value) == "operator":
        return node.attr
    return None


def _attribute_function_problem(node: ast.Name | ast.Attribute, folder: ConstantFolder,
                                modules: _ModuleNames) -> str | None:
    """Why this use of getattr (or a relative) could reach an interpreter internal, or None."""
    function = _attribute_function(node, modules) or ""
    call = folder.parents.get(id(node))
    if not isinstance(call, ast.Call) or call.func is not node:
        return (f"{function} is used as a value (renamed or passed around), so the names it will get cannot be "
                f"checked; call {function}(obj, 'name') directly with a literal name.")
    positions = ATTRIBUTE_FUNCTIONS[function] or tuple(range(len(call.args)))
    if any(isinstance(arg, ast.Starred) for arg in call.args):
        return f"{function} gets its arguments from an unpacked sequence, so its names cannot be checked; pass them."
    target = call.args[0] if function in ("getattr", "setattr", "delattr", "hasattr") and call.args else None
    target_module = modules.resolve(target) if target is not None else None
    for position in positions:
        if position >= len(call.args):
            continue
        problem = _name_problem(function, call.args[position], folder, modules, target_module)
        if problem:
            return problem
    return None


def _name_problem(function: str, name: ast.expr, folder: ConstantFolder, modules: _ModuleNames,
                  target_module: str | None) -> str | None:
    """Why the attribute name ``name`` could be an internal (of an object, or of ``target_module``), or None.

    A name the folder computes is judged as it is; any other must have literal ends that no internal
    name has (for a module: no private member and no module behind it).
    """
    literal = folder.text(name)
    dotted = function == "attrgetter"
    if literal is not None:
        parts = literal.split(".") if dotted else [literal]
        bad = next((p for p in parts if p in FORBIDDEN_ATTRIBUTES), None)
        if bad is not None:
            given = f"the name '{bad}'" if isinstance(name, ast.Constant) else f"a name the code builds as '{bad}'"
            return (f"{function}() is given {given}, which reaches into interpreter internals; use ordinary "
                    "attributes of your own objects.")
        if target_module is not None and _risky_member(modules, target_module, literal):
            return (f"{function}() reaches '{target_module}.{literal}', a private name of the module or another "
                    f"module behind it; use only the public names of '{target_module}'.")
        return None
    if dotted:
        return (f"{function}() is given a name computed at run time, which may be a dotted path into interpreter "
                "internals; pass literal names.")
    prefix, suffix = literal_ends(name, folder)
    if target_module is not None:
        risky = [n for n in modules.members_matching(target_module, prefix, suffix)
                 if _risky_member(modules, target_module, n)]
    else:
        risky = [n for n in sorted(FORBIDDEN_ATTRIBUTES)
                 if n.startswith(prefix) and n.endswith(suffix) and len(n) >= len(prefix) + len(suffix)]
    if not risky:
        return None
    shape = (f"'{prefix}...'" if prefix else "") + (f" ending in '{suffix}'" if suffix else "")
    return (f"{function}() is given an attribute name computed at run time{' (' + shape.strip() + ')' if shape else ''} "
            f"that could be '{risky[0]}'; use a literal name, or a literal prefix no internal name starts with, "
            "as in getattr(self, 'tool_' + name).")


def _risky_member(modules: _ModuleNames, module: str, name: str) -> bool:
    """A private name of the module, or a module that is not allowed itself."""
    member = getattr(modules.module(module), name, None)
    return name.startswith("_") or (isinstance(member, types.ModuleType) and not is_allowed_module(member.__name__))


# ---------------------------------------------------------------------- strings used by the code
_INTERNAL_NAMES = sorted(
    {name for name in FORBIDDEN_ATTRIBUTES | set(FORBIDDEN_NAMES) if name.startswith("__")}
    | {"f_globals", "f_locals", "f_back", "f_builtins", "gi_frame", "cr_frame", "ag_frame", "tb_frame"}
)


def _docstring_nodes(tree: ast.Module, folder: ConstantFolder) -> set[int]:
    """ids of the string constants that are docstrings (prose, not code)."""
    found = set()
    for node in folder.order:
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(
                first.value.value, str
            ):
                found.add(id(first.value))
    return found


def _code_strings(tree: ast.Module, folder: ConstantFolder) -> list[tuple[str, int]]:
    """Every string the code uses or builds from constants (docstrings excluded), with its line."""
    docstrings = _docstring_nodes(tree, folder)
    return [(text, getattr(node, "lineno", 0)) for text, node in folder.strings() if id(node) not in docstrings]


def _check_strings(strings: list[tuple[str, int]], result: StaticResult) -> None:
    """Strings naming interpreter internals: the raw material of getattr and str.format escapes (one finding a line)."""
    flagged: set[int] = set()
    for text, line in strings:
        if line in flagged:
            continue
        named = next((name for name in _INTERNAL_NAMES if name in text), None)
        if named is not None:
            flagged.add(line)
            result.fail(
                "forbidden_attribute",
                f"The string {text[:60]!r} names the interpreter internal '{named}' (a getattr or format "
                "escape) and is not allowed; use ordinary attributes of your own objects.",
                line,
            )


# ---------------------------------------------------------------------- the environment class
def _module_classes(tree: ast.Module) -> dict[str, ast.ClassDef]:
    return {node.name: node for node in tree.body if isinstance(node, ast.ClassDef)}


def _check_env_class(tree: ast.Module, result: StaticResult, class_name: str | None = None) -> ast.ClassDef | None:
    classes = _module_classes(tree)
    if class_name is not None and class_name in classes and class_name != BASE_CLASS_NAME:
        return classes[class_name]
    if BASE_CLASS_NAME in classes:
        result.fail(
            "env_class",
            f"Do not define {BASE_CLASS_NAME} yourself; subclass it without importing it, the loader provides it.",
            classes[BASE_CLASS_NAME].lineno,
        )
    public = [classes[name] for name in env_class_candidates(classes)]
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
