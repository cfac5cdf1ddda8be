"""A fast read-only walk over a LibCST tree.

``node.visit(visitor)`` rebuilds every node it passes (LibCST's visitor and
transformer share one machinery), which costs several times a parse; the
``children`` property does the same. A linter only reads, so this walks the
dataclass fields directly: the child fields of each node type are computed
once, whitespace, comments and punctuation are skipped, and nothing is
constructed. Children come in field order, which is source order for every
node except ``a if c else b`` (the test first) and decorators (first here too).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator

import libcst as cst

# Fields that only hold whitespace, comments, parentheses or punctuation.
_SKIPPED_FIELDS = frozenset(
    {
        "lpar",
        "rpar",
        "leading_lines",
        "lines_after_decorators",
        "header",
        "footer",
        "trailing_whitespace",
        "newline",
        "semicolon",
        "comma",
        "equal",
        "colon",
        "star_tok",
        "lbracket",
        "rbracket",
        "lbrace",
        "rbrace",
        "dot",
    }
)
_CHILD_FIELDS: dict[type[cst.CSTNode], tuple[str, ...]] = {}
_SCOPES = (cst.FunctionDef, cst.ClassDef, cst.Lambda)


def _child_fields(cls: type[cst.CSTNode]) -> tuple[str, ...]:
    fields = _CHILD_FIELDS.get(cls)
    if fields is None:
        names = [
            f.name
            for f in dataclasses.fields(cls)
            if f.name not in _SKIPPED_FIELDS and not f.name.startswith("whitespace")
        ]
        if "decorators" in names:  # decorators come first in the source
            names.remove("decorators")
            names.insert(0, "decorators")
        fields = _CHILD_FIELDS[cls] = tuple(names)
    return fields


def children(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """The direct child nodes that carry meaning (no whitespace or punctuation)."""
    for name in _child_fields(type(node)):
        value = getattr(node, name)
        if isinstance(value, cst.CSTNode):
            yield value
        elif isinstance(value, (tuple, list)):
            for item in value:
                if isinstance(item, cst.CSTNode):
                    yield item


def iter_nodes(
    node: cst.CSTNode, *, descend: Callable[[cst.CSTNode], bool] | None = None
) -> Iterator[cst.CSTNode]:
    """``node`` and every node below it, depth first in (nearly) source order.

    ``descend(n)`` false: ``n`` is yielded but not entered (``node`` itself is
    always entered).
    """
    yield node
    stack = [children(node)]
    while stack:
        for child in stack[-1]:
            yield child
            if descend is None or descend(child):
                stack.append(children(child))
            break
        else:
            stack.pop()


def outside_nested_scopes(node: cst.CSTNode) -> bool:
    """A ``descend`` that stays out of nested functions, classes and lambdas."""
    return not isinstance(node, _SCOPES)


def find(node: cst.CSTNode, *types: type[cst.CSTNode], nested: bool = True) -> list[cst.CSTNode]:
    """Every node of ``types`` at or below ``node``; ``nested=False`` skips nested scopes."""
    descend = None if nested else outside_nested_scopes
    return [n for n in iter_nodes(node, descend=descend) if isinstance(n, types)]


def run_visitor(node: cst.CSTNode, visitor: cst.CSTVisitor) -> None:
    """``node.visit(visitor)`` without rebuilding the tree.

    The visitor's ``visit_*`` / ``leave_*`` methods are called as LibCST calls
    them (a ``visit_*`` returning False skips the node's children), but only
    for nodes that carry meaning: whitespace, comments and punctuation are not
    visited.
    """
    if visitor.on_visit(node):
        for child in children(node):
            run_visitor(child, visitor)
    visitor.on_leave(node)
