"""Structural fingerprints of environment code: an exact "same game" hash and a fuzzy similarity.

Self-play collapses when the designer keeps writing the game the agent has already memorised, often
re-skinned: new class and variable names, new flavour text, different magic numbers, reformatted. A
content hash (``env_id_for``) sees those as brand new. Two measures here see through the skin:

``normalized_ast_hash``
    Parse with :mod:`ast` (comments vanish), then normalise the tree: drop docstrings and other bare
    string statements, drop type annotations, rename *every* identifier (variables, arguments,
    functions, classes, attributes, imports, keywords) to ``_0``, ``_1``, ... in order of first
    appearance, replace every string constant by one placeholder (f-strings keep only their
    interpolated expressions) and every number by ``0``. ``True``, ``False`` and ``None`` stay: they
    are control flow, not skin. Two sources hash equal exactly when their normalised trees are equal,
    i.e. when one is the other up to a consistent renaming, reformatting and new constants.

``similarity``
    Jaccard index of the two sources' sets of *node-type n-grams*: the sequence of AST node types in
    pre-order (over the normalised tree, without Load/Store/Del context markers), cut into overlapping
    runs of ``NGRAM`` types. Node types ignore names and constants, so renaming does not move the score,
    while n-grams keep enough local structure (a loop over a comparison inside a call...) to tell two
    different games apart. We chose this over token shingles because tokens carry the skin (names,
    literals) that re-skinning changes, and over whole-subtree hashes because one changed leaf changes
    every enclosing subtree, which makes small edits look like new games. Equal normalised hashes imply
    a similarity of 1.0. Code that does not parse falls back to shingles of its raw tokens, so broken
    environments can still be compared with each other (they score near 0 against parsable code).

Both are pure functions of the source text; callers cache fingerprints if they compare often.
"""

from __future__ import annotations

import ast
import hashlib
import re

from spade_envs.syntax import parse

NGRAM = 5
"""Length of the node-type runs compared by ``similarity``.

Measured on the 13 bundled environments (all different games): n=5 puts distinct pairs at 0.14 on
average (0.33 at most, two guessing games), while a one-line edit scores 0.98 and dropping a whole
method 0.83. Shorter runs (n=3: 0.32 average) make every Python class look alike; longer ones make
small edits cost more."""

_STRING_PLACEHOLDER = "S"
_CONTEXT_NODES = (ast.Load, ast.Store, ast.Del)

Fingerprint = frozenset[tuple[str, ...]]


class _Normaliser(ast.NodeTransformer):
    """Rewrites a tree in place into its re-skin-invariant form (see the module docstring)."""

    def __init__(self) -> None:
        self._names: dict[str, str] = {}

    def canonical(self, name: str | None) -> str | None:
        if name is None:
            return None
        return self._names.setdefault(name, f"_{len(self._names)}")

    # -- statements: docstrings and annotations go, bodies never end up empty
    def generic_visit(self, node: ast.AST) -> ast.AST:
        super().generic_visit(node)
        for field in ("body", "orelse", "finalbody"):
            body = getattr(node, field, None)
            if isinstance(body, list) and body and isinstance(body[0], ast.stmt):
                kept = [stmt for stmt in body if not _is_bare_string(stmt)]
                setattr(node, field, kept or [ast.Pass()])
        return node

    def visit_AnnAssign(self, node: ast.AnnAssign) -> ast.AST | None:
        if node.value is None:  # a bare declaration `x: int` does nothing at run time
            return None
        return self.visit(ast.Assign(targets=[node.target], value=node.value))

    def visit_arg(self, node: ast.arg) -> ast.AST:
        node.arg = self.canonical(node.arg)  # type: ignore[assignment]
        node.annotation = None
        node.type_comment = None
        return node

    def _visit_function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> ast.AST:
        node.name = self.canonical(node.name)  # type: ignore[assignment]
        node.returns = None
        node.type_comment = None
        return self.generic_visit(node)

    visit_FunctionDef = _visit_function
    visit_AsyncFunctionDef = _visit_function

    def visit_ClassDef(self, node: ast.ClassDef) -> ast.AST:
        node.name = self.canonical(node.name)  # type: ignore[assignment]
        return self.generic_visit(node)

    # -- identifiers everywhere else
    def visit_Name(self, node: ast.Name) -> ast.AST:
        node.id = self.canonical(node.id)  # type: ignore[assignment]
        return node

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        node.attr = self.canonical(node.attr)  # type: ignore[assignment]
        return self.generic_visit(node)

    def visit_alias(self, node: ast.alias) -> ast.AST:
        node.name = ".".join(self.canonical(part) for part in node.name.split("."))  # type: ignore[misc]
        node.asname = self.canonical(node.asname)
        return node

    def visit_ImportFrom(self, node: ast.ImportFrom) -> ast.AST:
        if node.module:
            node.module = ".".join(self.canonical(part) for part in node.module.split("."))  # type: ignore[misc]
        return self.generic_visit(node)

    def visit_keyword(self, node: ast.keyword) -> ast.AST:
        node.arg = self.canonical(node.arg)
        return self.generic_visit(node)

    def _visit_scoped_names(self, node: ast.Global | ast.Nonlocal) -> ast.AST:
        node.names = [self.canonical(name) for name in node.names]  # type: ignore[misc]
        return node

    visit_Global = _visit_scoped_names
    visit_Nonlocal = _visit_scoped_names

    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> ast.AST:
        node.name = self.canonical(node.name)
        return self.generic_visit(node)

    def visit_MatchAs(self, node: ast.MatchAs) -> ast.AST:
        node.name = self.canonical(node.name)
        return self.generic_visit(node)

    def visit_MatchStar(self, node: ast.MatchStar) -> ast.AST:
        node.name = self.canonical(node.name)
        return node

    def visit_MatchMapping(self, node: ast.MatchMapping) -> ast.AST:
        node.rest = self.canonical(node.rest)
        return self.generic_visit(node)

    def visit_MatchClass(self, node: ast.MatchClass) -> ast.AST:
        node.kwd_attrs = [self.canonical(name) for name in node.kwd_attrs]  # type: ignore[misc]
        return self.generic_visit(node)

    # -- constants: the skin
    def visit_Constant(self, node: ast.Constant) -> ast.AST:
        value = node.value
        if isinstance(value, str):
            node.value = _STRING_PLACEHOLDER
        elif isinstance(value, bytes):
            node.value = b""
        elif isinstance(value, (int, float, complex)) and not isinstance(value, bool):
            node.value = 0
        node.kind = None
        return node

    def visit_JoinedStr(self, node: ast.JoinedStr) -> ast.AST:
        node.values = [self.visit(part) for part in node.values if isinstance(part, ast.FormattedValue)]
        return node


def _is_bare_string(stmt: ast.stmt) -> bool:
    """A docstring, or a string used as a comment: an expression statement that is only a string."""
    return (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)
            and isinstance(stmt.value.value, str))


def normalized_tree(source: str) -> ast.Module:
    """The normalised AST of ``source``; raises ``SyntaxError`` (or ``ValueError``) if it does not parse."""
    tree = parse(source)
    return _Normaliser().visit(tree)


def normalized_ast_hash(source: str) -> str:
    """SHA-256 (hex) of the normalised AST: equal for renamed, reformatted, re-worded copies.

    Raises ``SyntaxError`` (or ``ValueError`` for null bytes) when the source does not parse.
    """
    dump = ast.dump(normalized_tree(source), annotate_fields=True, include_attributes=False)
    return hashlib.sha256(dump.encode("utf-8")).hexdigest()


def _node_types(tree: ast.AST) -> list[str]:
    """Node type names in pre-order (iterative, so deeply nested code cannot exhaust the stack)."""
    order: list[str] = []
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, _CONTEXT_NODES):
            continue
        order.append(type(node).__name__)
        stack.extend(reversed(list(ast.iter_child_nodes(node))))
    return order


def _shingles(items: list[str], n: int) -> Fingerprint:
    if len(items) < n:
        return frozenset({tuple(items)}) if items else frozenset()
    return frozenset(tuple(items[i:i + n]) for i in range(len(items) - n + 1))


def fingerprint(source: str, n: int = NGRAM) -> Fingerprint:
    """The set of node-type n-grams of ``source`` (raw-token n-grams if it does not parse)."""
    try:
        return _shingles(_node_types(normalized_tree(source)), n)
    except (SyntaxError, ValueError, RecursionError, MemoryError):  # MemoryError: nesting too deep to parse
        tokens = re.findall(r"\w+|[^\w\s]", source)
        return _shingles(["tok:" + token for token in tokens], n)


def jaccard(a: Fingerprint, b: Fingerprint) -> float:
    """|a & b| / |a | b| in [0, 1]; two empty sets count as identical."""
    if not a and not b:
        return 1.0
    return len(a & b) / len(a | b)


def similarity(source_a: str, source_b: str, n: int = NGRAM) -> float:
    """Structural similarity in [0, 1] of two sources (1.0 for the same game re-skinned)."""
    return jaccard(fingerprint(source_a, n), fingerprint(source_b, n))
