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

import bisect
import dataclasses
import threading
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


class TreeIndex:
    """Every node of a tree in pre-order, bucketed by type, for repeated subtree queries.

    Rules that ask "which calls / dicts / loops are inside this node?" for many
    nodes of one module would walk the same subtrees over and over; with the
    tree indexed once, each question costs a binary search per type plus the
    answer's length.
    """

    def __init__(self, root: cst.CSTNode) -> None:
        self.position: dict[cst.CSTNode, int] = {root: 0}
        self._end: list[int] = [0]
        self._scope_of: list[int] = [-1]  # index of the nearest enclosing scope, strictly above
        self._types: dict[type[cst.CSTNode], list[int]] = {type(root): [0]}
        stack = [(0, children(root), 0 if isinstance(root, _SCOPES) else -1)]
        while stack:
            index, pending, scope = stack[-1]
            child = next(pending, None)
            if child is None:
                self._end[index] = len(self._end)
                stack.pop()
                continue
            at = len(self._end)
            self.position[child] = at
            self._end.append(0)
            self._scope_of.append(scope)
            self._types.setdefault(type(child), []).append(at)
            stack.append((at, children(child), at if isinstance(child, _SCOPES) else scope))
        self._order = list(self.position)  # insertion order is pre-order
        self._matching: dict[tuple[type[cst.CSTNode], ...], list[type[cst.CSTNode]]] = {}

    def find(
        self, node: cst.CSTNode, types: tuple[type[cst.CSTNode], ...], *, nested: bool
    ) -> list[cst.CSTNode]:
        """``walk.find(node, *types, nested=nested)``, answered from the index."""
        start = self.position[node]
        end = self._end[start]
        kinds = self._matching.get(types)
        if kinds is None:
            kinds = self._matching[types] = [t for t in self._types if issubclass(t, types)]
        found: list[int] = []
        for kind in kinds:
            indices = self._types[kind]
            found.extend(
                indices[bisect.bisect_left(indices, start) : bisect.bisect_left(indices, end)]
            )
        if len(kinds) > 1:
            found.sort()
        if not nested:
            found = [i for i in found if self._scope_of[i] <= start or i == start]
        return [self._order[i] for i in found]


_RECENT_INDEXES: list[TreeIndex] = []
_KEEP_INDEXES = 4
_INDEX_LOCK = threading.Lock()


def find_indexed(
    node: cst.CSTNode, *types: type[cst.CSTNode], nested: bool = True
) -> list[cst.CSTNode]:
    """``find`` for code that queries many subtrees of one tree: the first query
    indexes the tree it is asked about (ask about the module first), later
    queries on any of its nodes are answered from that index. The few most
    recent indexes are kept; a language server's thread may call this too.
    """
    with _INDEX_LOCK:
        for index in reversed(_RECENT_INDEXES):
            if node in index.position:
                return index.find(node, types, nested=nested)
        index = TreeIndex(node)
        _RECENT_INDEXES.append(index)
        del _RECENT_INDEXES[:-_KEEP_INDEXES]
        return index.find(node, types, nested=nested)
