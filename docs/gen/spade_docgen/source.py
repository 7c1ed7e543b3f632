"""What the generators read from source code that Python does not keep at run time."""

from __future__ import annotations

import ast
import inspect
import itertools
import textwrap


def attribute_docstrings(cls: type) -> dict[str, str]:
    """``{field: docstring}`` for the string literal that follows each annotated field in the class body."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
    except (OSError, TypeError, SyntaxError):
        return {}
    body = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.ClassDef) else []
    found: dict[str, str] = {}
    for statement, following in itertools.pairwise(body):
        if (isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name)
                and isinstance(following, ast.Expr) and isinstance(following.value, ast.Constant)
                and isinstance(following.value.value, str)):
            found[statement.target.id] = inspect.cleandoc(following.value.value)
    return found
