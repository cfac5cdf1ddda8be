"""A Fixit rule that does work comparable to toolret's: find returns of an int literal.

toolret finds tool functions and infers the shape of every value they return;
this rule visits every function and reports each ``return <int literal>`` in
it (``return 3``, ``return -1``), the simplest wrong tool return (TRV101 and
TRV201 report it too). Fixit computes its metadata (positions, parents) for
every file either way, which is most of its cost.
"""

from __future__ import annotations

from typing import ClassVar

import libcst as cst
from fixit import Invalid, LintRule, Valid


def _is_int_literal(node: cst.BaseExpression | None) -> bool:
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        node = node.expression
    return isinstance(node, cst.Integer)


class ReturnIntLiteral(LintRule):
    """A function returns an int literal (tool functions must return text)."""

    MESSAGE = "Function returns an int literal: a tool function should return a str"
    VALID: ClassVar[list[str | Valid]] = [
        Valid("def f():\n    return 'ok'\n"),
        Valid("def f():\n    return 1.5\n"),
        Valid("x = 1\n"),
    ]
    INVALID: ClassVar[list[str | Invalid]] = [
        Invalid("def f():\n    return 1\n"),
        Invalid("async def f():\n    if x:\n        return -2\n    return 'y'\n"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.depth = 0

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.depth += 1

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self.depth -= 1

    def visit_Return(self, node: cst.Return) -> None:
        if self.depth and _is_int_literal(node.value):
            self.report(node)
