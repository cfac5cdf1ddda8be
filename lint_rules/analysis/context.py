"""What a recogniser's walk knows about the statement around a call.

Two facts the framework recognisers (browser-use, OpenAI Agents) read alike:

* :func:`expects_error` — whether a ``with`` statement is a test that expects
  its body to raise: ``with pytest.raises(...)`` (through imports) or
  ``with self.assertRaises...(...)``. Calls inside are not checked.
* :func:`assigned_name` — the one plain name a statement ``x = <value>`` /
  ``x: T = <value>`` assigns its value to.

:class:`StatementContext` is the visitor mixin that keeps both while a walk
runs: ``expecting_errors`` counts the error-expecting ``with`` blocks open
around the node being visited, and :meth:`StatementContext.assigned_to` names
the variable an expression being walked is assigned to.
"""

from __future__ import annotations

import libcst as cst

from lint_rules.analysis.module import ParsedModule


def expects_error(node: cst.With, module: ParsedModule) -> bool:
    """Whether one of ``node``'s items is ``pytest.raises(...)`` or ``<x>.assertRaises*(...)``."""
    return any(_expects_error(item.item, module) for item in node.items)


def _expects_error(expr: cst.BaseExpression, module: ParsedModule) -> bool:
    if not isinstance(expr, cst.Call):
        return False
    func = expr.func
    if isinstance(func, cst.Attribute) and func.attr.value.startswith("assertRaises"):
        return True
    return module.qualified_name(func) == "pytest.raises"


def assigned_name(node: cst.Assign | cst.AnnAssign) -> str | None:
    """``x`` for ``x = value`` / ``x: T = value``; ``None`` for several targets, a
    target that is not a plain name, or an annotation without a value."""
    if isinstance(node, cst.Assign):
        if len(node.targets) == 1 and isinstance(node.targets[0].target, cst.Name):
            return node.targets[0].target.value
        return None
    if node.value is not None and isinstance(node.target, cst.Name):
        return node.target.value
    return None


class StatementContext(cst.CSTVisitor):
    """Visitor mixin: the error-expecting ``with`` blocks around the node being
    visited, and which name each assigned value goes to."""

    def __init__(self, module: ParsedModule) -> None:
        super().__init__()
        self.module = module
        self.expecting_errors = 0
        """How many ``with pytest.raises(...)``-style blocks enclose the current node."""
        self.assigned: dict[int, str] = {}
        """``id(value)`` → target name, for the ``x = value`` statements walked."""

    def assigned_to(self, value: cst.BaseExpression) -> str | None:
        """``x`` when ``value`` is the value of a statement ``x = value`` already visited."""
        return self.assigned.get(id(value))

    def visit_With(self, node: cst.With) -> None:
        if expects_error(node, self.module):
            self.expecting_errors += 1

    def leave_With(self, original_node: cst.With) -> None:
        if expects_error(original_node, self.module):
            self.expecting_errors -= 1

    def visit_Assign(self, node: cst.Assign) -> None:
        self._assign(node)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._assign(node)

    def _assign(self, node: cst.Assign | cst.AnnAssign) -> None:
        name = assigned_name(node)
        if name is not None and node.value is not None:
            self.assigned[id(node.value)] = name
