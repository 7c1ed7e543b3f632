"""Constant folding for the static tier: the values of expressions built only from constants.

The static tier looks for strings that name interpreter internals (``"__glob" + "als__"``,
``"%sglobals%s" % ("__", "__")``, ``"".join(reversed("__slabolg__"))``, ``chr(95) * 2 + ...``). To see
them it evaluates what it safely can without running the environment: literals, ``+``, ``*`` and ``%``
on strings, ``str.join``/``format``/``replace`` and the case methods, f-strings, ``chr``/``ord``/``len``,
indexes and slices, small integer arithmetic, and names assigned exactly once in the module.

Folding is bottom-up over a post-order list of nodes (no recursion, whatever the nesting), and bounded:
no folded string is longer than ``MAX_CHARS`` and all of them together stay under ``MAX_TOTAL_CHARS``,
so a hostile file cannot make the checker build huge values. Whatever is not folded is unknown, and
the checks treat unknown as "could be anything".
"""

from __future__ import annotations

import ast
import re
import string
from collections.abc import Callable
from typing import Any

MAX_CHARS = 10_000
"""Longest folded string; longer results are left unknown."""
MAX_TOTAL_CHARS = 2_000_000
"""Budget of folded characters for one file."""
MAX_INT_BITS = 64
MAX_ITEMS = 1_000
MAX_PASSES = 4
"""Rounds of resolving names assigned once (``A = "__"; B = A + "globals"``...)."""

_PRINTF_SPEC = re.compile(r"%(?:\([^)]*\))?[-#0 +]*\d{0,3}(?:\.\d{0,3})?[hlL]?[diouxXeEfFgGcrsa%]")
_PRINTF_ANY = re.compile(r"%[^a-zA-Z%]*[a-zA-Z%]?")
_FORMAT_SPEC = re.compile(r"[^{}]*")
_CASE_METHODS: dict[str, Callable[[str], str]] = {
    "upper": str.upper, "lower": str.lower, "swapcase": str.swapcase, "casefold": str.casefold,
    "title": str.title, "capitalize": str.capitalize,
}
_STRIP_METHODS = {"strip": str.strip, "lstrip": str.lstrip, "rstrip": str.rstrip,
                  "removeprefix": str.removeprefix, "removesuffix": str.removesuffix}


def post_order(tree: ast.AST) -> tuple[list[ast.AST], dict[int, ast.AST]]:
    """Every node, children before parents, and each node's parent (by id), without recursion."""
    order: list[ast.AST] = []
    parents: dict[int, ast.AST] = {}
    stack: list[tuple[ast.AST, bool]] = [(tree, False)]
    while stack:
        node, expanded = stack.pop()
        if expanded:
            order.append(node)
            continue
        stack.append((node, True))
        for child in ast.iter_child_nodes(node):
            parents[id(child)] = node
            stack.append((child, False))
    return order, parents


def _bounded(value: Any) -> bool:
    """Folded values stay small: short strings, 64-bit ints, and flat tuples of those."""
    if isinstance(value, str):
        return len(value) <= MAX_CHARS
    if isinstance(value, int):
        return value.bit_length() <= MAX_INT_BITS
    if isinstance(value, tuple):
        return len(value) <= MAX_ITEMS and not any(isinstance(v, tuple) for v in value) and _size(value) <= MAX_CHARS
    return value is None


def _size(value: Any) -> int:
    """An upper bound on the length of ``str(value)`` (tuples are flat, so this does not recurse)."""
    if isinstance(value, str):
        return len(value)
    if isinstance(value, tuple):
        return 2 + sum(_size(item) + 4 for item in value)
    return 24


def _single_assignments(order: list[ast.AST]) -> dict[str, ast.expr]:
    """Names bound exactly once in the whole module, by a plain ``name = expression``."""
    bindings: dict[str, int] = {}
    values: dict[str, ast.expr] = {}

    def bind(name: str) -> None:
        bindings[name] = bindings.get(name, 0) + 1

    for node in order:
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            bind(node.id)
        elif isinstance(node, ast.arg):
            bind(node.arg)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bind(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                bind((alias.asname or alias.name).split(".")[0])
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            for name in node.names:
                bind(name)
                bind(name)  # rebound elsewhere by definition
        elif isinstance(node, (ast.ExceptHandler, ast.MatchAs, ast.MatchStar)) and node.name:
            bind(node.name)
        if isinstance(node, ast.Assign) and all(isinstance(t, ast.Name) for t in node.targets):
            for target in node.targets:
                values[target.id] = node.value  # type: ignore[union-attr]
    return {name: value for name, value in values.items() if bindings.get(name) == 1}


class ConstantFolder:
    """Folded values of the nodes of one module: ``value(node)`` is the value, or None when unknown.

    Values are str, int, None (the constant) or tuples of values; "unknown" is kept apart from the
    constant None by ``known(node)``.
    """

    def __init__(self, tree: ast.AST) -> None:
        self.order, self.parents = post_order(tree)
        self._values: dict[int, Any] = {}
        self._names: dict[str, Any] = {}
        assignments = _single_assignments(self.order)
        for _ in range(MAX_PASSES):
            self._fold_all()
            resolved = {name: self._values[id(expr)] for name, expr in assignments.items() if id(expr) in self._values}
            if resolved == self._names:
                break
            self._names = resolved

    def known(self, node: ast.AST) -> bool:
        return id(node) in self._values

    def value(self, node: ast.AST) -> Any:
        return self._values.get(id(node))

    def text(self, node: ast.AST) -> str | None:
        """The node's folded value if it is a string."""
        value = self._values.get(id(node))
        return value if isinstance(value, str) else None

    def strings(self) -> list[tuple[str, ast.AST]]:
        """Every folded string with the node it came from."""
        return [(value, node) for node in self.order if isinstance(value := self._values.get(id(node)), str)]

    # ------------------------------------------------------------------ one pass over the tree
    def _fold_all(self) -> None:
        self._values = {}
        budget = MAX_TOTAL_CHARS
        for node in self.order:
            if not isinstance(node, ast.expr):
                continue
            try:
                value = self._fold(node)
            except (ArithmeticError, ValueError, TypeError, IndexError, KeyError, RecursionError, MemoryError):
                continue
            if value is _UNKNOWN or not _bounded(value):
                continue
            if isinstance(value, str):
                budget -= len(value)
                if budget < 0:
                    return  # out of budget: the rest stays unknown
            self._values[id(node)] = value

    def _get(self, node: ast.AST | None) -> Any:
        if node is None:
            return None
        return self._values.get(id(node), _UNKNOWN)

    def _fold(self, node: ast.expr) -> Any:
        if isinstance(node, ast.Constant):
            value = node.value
            return value if isinstance(value, (str, int)) or value is None else _UNKNOWN
        if isinstance(node, ast.Name):
            return self._names.get(node.id, _UNKNOWN) if isinstance(node.ctx, ast.Load) else _UNKNOWN
        if isinstance(node, (ast.Tuple, ast.List)):
            items = tuple(self._get(item) for item in node.elts)
            return _UNKNOWN if any(item is _UNKNOWN for item in items) else items
        if isinstance(node, ast.BinOp):
            return _binary(node.op, self._get(node.left), self._get(node.right))
        if isinstance(node, ast.UnaryOp):
            operand = self._get(node.operand)
            if isinstance(operand, int) and isinstance(node.op, (ast.USub, ast.UAdd, ast.Invert)):
                return {ast.USub: lambda v: -v, ast.UAdd: lambda v: v, ast.Invert: lambda v: ~v}[type(node.op)](operand)
            return _UNKNOWN
        if isinstance(node, ast.Subscript):
            return _subscript(self._get(node.value), node.slice, self._get)
        if isinstance(node, ast.JoinedStr):
            parts = [self._get(part) for part in node.values]
            if any(not isinstance(p, str) for p in parts) or sum(map(len, parts)) > MAX_CHARS:
                return _UNKNOWN
            return "".join(parts)
        if isinstance(node, ast.FormattedValue):
            value = self._get(node.value)
            spec = self._get(node.format_spec) if node.format_spec is not None else ""
            if value is _UNKNOWN or not isinstance(spec, str) or not _safe_spec(spec):
                return _UNKNOWN
            value = {-1: value, 115: str(value), 114: repr(value), 97: ascii(value)}.get(node.conversion, _UNKNOWN)
            return _UNKNOWN if value is _UNKNOWN else _capped(format(value, spec))
        if isinstance(node, ast.Call) and not node.keywords:
            args = [self._get(arg) for arg in node.args]
            if any(arg is _UNKNOWN for arg in args) or any(isinstance(a, ast.Starred) for a in node.args):
                return _UNKNOWN
            if isinstance(node.func, ast.Name):
                return _builtin_call(node.func.id, args)
            if isinstance(node.func, ast.Attribute):
                receiver = self._get(node.func.value)
                if isinstance(receiver, str):
                    return _string_method(receiver, node.func.attr, args)
        return _UNKNOWN


class _Unknown:
    def __repr__(self) -> str:
        return "<unknown>"


_UNKNOWN: Any = _Unknown()


def _capped(text: str) -> Any:
    return text if len(text) <= MAX_CHARS else _UNKNOWN


def _small(number: Any) -> bool:
    return isinstance(number, int) and number.bit_length() <= MAX_INT_BITS


def _binary(op: ast.operator, left: Any, right: Any) -> Any:
    if left is _UNKNOWN or right is _UNKNOWN:
        return _UNKNOWN
    if isinstance(op, ast.Add):
        if isinstance(left, str) and isinstance(right, str):
            return left + right if len(left) + len(right) <= MAX_CHARS else _UNKNOWN
        if _small(left) and _small(right):
            return left + right
        if isinstance(left, tuple) and isinstance(right, tuple) and len(left) + len(right) <= MAX_ITEMS:
            return left + right
        return _UNKNOWN
    if isinstance(op, ast.Mult):
        if isinstance(right, str) and isinstance(left, int):
            left, right = right, left
        if isinstance(left, str) and isinstance(right, int):
            return left * right if len(left) * max(right, 0) <= MAX_CHARS else _UNKNOWN
        if _small(left) and _small(right):
            return left * right
        return _UNKNOWN
    if isinstance(op, ast.Mod) and isinstance(left, str):
        return _printf(left, right)
    if _small(left) and _small(right):
        if isinstance(op, ast.Sub):
            return left - right
        if isinstance(op, ast.FloorDiv):
            return left // right
        if isinstance(op, ast.Mod):
            return left % right
        if isinstance(op, ast.Pow) and 0 <= right <= MAX_INT_BITS and abs(left) <= 1 << 16:
            return left**right
        if isinstance(op, ast.BitOr):
            return left | right
        if isinstance(op, ast.BitAnd):
            return left & right
        if isinstance(op, ast.BitXor):
            return left ^ right
    return _UNKNOWN


def _printf(template: str, args: Any) -> Any:
    """``template % args`` when every conversion has a small width and precision (no ``*``)."""
    specs = _PRINTF_ANY.findall(template)
    if any(not _PRINTF_SPEC.fullmatch(spec) for spec in specs):
        return _UNKNOWN
    if len(template) + len(specs) * (_size(args) + 1000) > MAX_CHARS:
        return _UNKNOWN
    return _capped(template % args)


def _safe_spec(spec: str) -> bool:
    """A format spec without nested fields whose widths and precisions have at most three digits."""
    return bool(_FORMAT_SPEC.fullmatch(spec)) and all(len(run) <= 3 for run in re.findall(r"\d+", spec))


def _format(template: str, args: list[Any]) -> Any:
    """``template.format(*args)`` for plain positional or automatic fields only (no attribute access)."""
    fields = 0
    for _, field, spec, _ in string.Formatter().parse(template):
        if field is None:
            continue
        if (field and not field.isdigit()) or not _safe_spec(spec or ""):
            return _UNKNOWN
        fields += 1
    if len(template) + fields * (max(map(_size, args), default=0) + 1000) > MAX_CHARS:
        return _UNKNOWN
    return _capped(template.format(*args))


def _subscript(value: Any, index: ast.expr, get: Callable[[ast.AST | None], Any]) -> Any:
    if not isinstance(value, (str, tuple)):
        return _UNKNOWN
    if isinstance(index, ast.Slice):
        bounds = [get(index.lower), get(index.upper), get(index.step)]
        if any(b is _UNKNOWN or not (b is None or _small(b)) for b in bounds) or bounds[2] == 0:
            return _UNKNOWN
        return value[slice(*bounds)]
    position = get(index)
    return value[position] if _small(position) else _UNKNOWN


def _builtin_call(name: str, args: list[Any]) -> Any:
    if name == "chr" and len(args) == 1 and _small(args[0]):
        return chr(args[0])
    if name == "ord" and len(args) == 1 and isinstance(args[0], str) and len(args[0]) == 1:
        return ord(args[0])
    if name == "len" and len(args) == 1 and isinstance(args[0], (str, tuple)):
        return len(args[0])
    if name in ("str", "repr", "ascii") and len(args) == 1 and isinstance(args[0], (str, int)):
        return _capped({"str": str, "repr": repr, "ascii": ascii}[name](args[0]))
    if name in ("reversed", "sorted", "list", "tuple") and len(args) == 1 and isinstance(args[0], (str, tuple)):
        items = tuple(args[0])
        return tuple(reversed(items)) if name == "reversed" else tuple(sorted(items)) if name == "sorted" else items
    if name == "format" and 1 <= len(args) <= 2 and isinstance(args[0], (str, int)):
        spec = args[1] if len(args) == 2 else ""
        return _capped(format(args[0], spec)) if isinstance(spec, str) and _safe_spec(spec) else _UNKNOWN
    return _UNKNOWN


def _string_method(text: str, method: str, args: list[Any]) -> Any:
    if method == "join" and len(args) == 1:
        items = tuple(args[0]) if isinstance(args[0], str) else args[0]
        if not isinstance(items, tuple) or not all(isinstance(item, str) for item in items):
            return _UNKNOWN
        if len(text) * len(items) + sum(map(len, items)) > MAX_CHARS:
            return _UNKNOWN
        return text.join(items)
    if method == "format":
        return _format(text, args)
    if method in _CASE_METHODS and not args:
        return _capped(_CASE_METHODS[method](text))
    if method in _STRIP_METHODS and len(args) <= 1 and all(isinstance(a, str) or a is None for a in args):
        return _STRIP_METHODS[method](text, *args)
    if method == "replace" and len(args) in (2, 3) and isinstance(args[0], str) and isinstance(args[1], str):
        count = args[2] if len(args) == 3 else -1
        if not _small(count):
            return _UNKNOWN
        occurrences = len(text) + 1 if not args[0] else text.count(args[0])
        if len(text) + occurrences * len(args[1]) > MAX_CHARS:
            return _UNKNOWN
        return text.replace(args[0], args[1], count)
    if method in ("split", "rsplit") and len(args) <= 1 and all(isinstance(a, str) for a in args):
        parts = tuple(getattr(text, method)(*args))
        return parts if len(parts) <= MAX_ITEMS else _UNKNOWN
    return _UNKNOWN


def literal_ends(node: ast.AST, folder: ConstantFolder) -> tuple[str, str]:
    """The text a string expression certainly starts and ends with, even when its middle is unknown.

    ``"tool_" + name`` starts with ``"tool_"``; ``f"{kind}_handler"`` ends with ``"_handler"``;
    ``"cmd_{}".format(x)`` starts with ``"cmd_"``. Unknown ends are ``""``. Concatenation chains are
    flattened iteratively, so a chain of any length costs no recursion.
    """
    known = folder.text(node)
    if known is not None:
        return known, known
    parts = _concatenation(node)
    prefix = suffix = ""
    for part in parts:
        text = folder.text(part)
        if text is None:
            prefix += _own_ends(part, folder)[0]
            break
        prefix += text
    for part in reversed(parts):
        text = folder.text(part)
        if text is None:
            suffix = _own_ends(part, folder)[1] + suffix
            break
        suffix = text + suffix
    return prefix, suffix


def _concatenation(node: ast.AST) -> list[ast.AST]:
    """The operands of a chain of ``+``, left to right."""
    operands: list[ast.AST] = []
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, ast.BinOp) and isinstance(current.op, ast.Add):
            stack.extend((current.right, current.left))
        else:
            operands.append(current)
    return operands


def _own_ends(node: ast.AST, folder: ConstantFolder) -> tuple[str, str]:
    """Literal ends of one operand: an f-string's outer literal parts, a format or % template's outer text."""
    if isinstance(node, ast.JoinedStr):
        texts = [folder.text(part) for part in node.values]
        prefix = "".join(t for t in _leading_known(texts))
        suffix = "".join(reversed(list(_leading_known(list(reversed(texts))))))
        return prefix, suffix
    template = None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
        template = folder.text(node.func.value)
        if template is not None:
            return template.split("{", 1)[0].replace("}}", "}"), template.rsplit("}", 1)[-1].replace("{{", "{")
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        template = folder.text(node.left)
        if template is not None:
            specs = list(_PRINTF_ANY.finditer(template))
            if specs:
                return template[: specs[0].start()], template[specs[-1].end():]
    return "", ""


def _leading_known(texts: list[str | None]) -> list[str]:
    known = []
    for text in texts:
        if text is None:
            break
        known.append(text)
    return known
