"""A fast read-only walk over a LibCST tree.

``node.visit(visitor)`` rebuilds every node it passes (LibCST's visitor and
transformer share one machinery), which costs several times a parse; the
``children`` property does the same. A linter only reads, so this walks the
dataclass fields directly: the child fields of each node type are computed
once, whitespace, comments and punctuation are skipped, and nothing is
constructed. Children come in field order, which is source order for every
node except ``a if c else b`` (the test first) and decorators (first here too).

The walk runs over every node of every file, so its per-node work is kept to
dictionary lookups on the node's class: which fields to read (one C-level
``attrgetter``), whether a value is a node (``isinstance`` on LibCST's
abstract classes goes through ``ABCMeta``), which visitor methods to call.
"""

from __future__ import annotations

import bisect
import dataclasses
import operator
import threading
import types
import typing
from collections.abc import Callable, Iterator
from typing import Any

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

# ``isinstance(x, cst.CSTNode)`` goes through ``ABCMeta.__instancecheck__``, which
# costs a Python call per check; the walk asks it several times per node. These
# caches answer the same questions with one dict lookup on ``type(x)``.
_NOT_A_CHILD, _NODE, _SEQUENCE = 0, 1, 2
_KIND: dict[type, int] = {}
_IS_SCOPE: dict[type, bool] = {}
_Getter = tuple[Callable[[cst.CSTNode], Any] | None, bool]
_GETTERS: dict[type, _Getter] = {}


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


def _kind(cls: type) -> int:
    kind = _KIND[cls] = (
        _NODE
        if issubclass(cls, cst.CSTNode)
        else _SEQUENCE
        if issubclass(cls, (tuple, list))
        else _NOT_A_CHILD
    )
    return kind


def _is_scope(cls: type) -> bool:
    found = _IS_SCOPE.get(cls)
    if found is None:
        found = _IS_SCOPE[cls] = issubclass(cls, _SCOPES)
    return found


def _getter(cls: type[cst.CSTNode]) -> _Getter:
    """A C-level getter of the ``cls`` fields that can hold a node (a tuple of values,
    or the one value if ``single``); ``None`` when there are none (``Name``,
    ``Integer``, operators). Fields annotated as strings or flags are left out."""
    annotations = {f.name: f.type for f in dataclasses.fields(cls)}
    names = [name for name in _child_fields(cls) if not _holds_no_node(annotations[name])]
    getter: _Getter = (
        (None, False)
        if not names
        else (operator.attrgetter(names[0]), True)
        if len(names) == 1
        else (operator.attrgetter(*names), False)
    )
    _GETTERS[cls] = getter
    return getter


def _holds_no_node(annotation: object) -> bool:
    """Whether a field annotated ``annotation`` can only hold plain values (``str``,
    ``bool``, a string ``Literal``, or an optional one of these)."""
    if annotation in (str, bool, type(None)):
        return True
    origin = typing.get_origin(annotation)
    if origin is typing.Literal:
        return True
    if origin is typing.Union or origin is types.UnionType:
        return all(_holds_no_node(arg) for arg in typing.get_args(annotation))
    return False


def child_list(node: cst.CSTNode) -> list[cst.CSTNode]:
    """``list(children(node))``, the form the walks here use."""
    entry = _GETTERS.get(node.__class__)
    if entry is None:
        entry = _getter(node.__class__)
    get, single = entry
    found: list[cst.CSTNode] = []
    if get is None:
        return found
    for value in (get(node),) if single else get(node):
        kind = _KIND.get(value.__class__)
        if kind is None:
            kind = _kind(value.__class__)
        if kind == _NODE:
            found.append(value)
        elif kind == _SEQUENCE:
            for item in value:
                item_kind = _KIND.get(item.__class__)
                if item_kind is None:
                    item_kind = _kind(item.__class__)
                if item_kind == _NODE:
                    found.append(item)
    return found


def children(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """The direct child nodes that carry meaning (no whitespace or punctuation)."""
    return iter(child_list(node))


def iter_nodes(
    node: cst.CSTNode, *, descend: Callable[[cst.CSTNode], bool] | None = None
) -> Iterator[cst.CSTNode]:
    """``node`` and every node below it, depth first in (nearly) source order.

    ``descend(n)`` false: ``n`` is yielded but not entered (``node`` itself is
    always entered).
    """
    yield node
    stack = child_list(node)
    stack.reverse()
    pop = stack.pop
    extend = stack.extend
    while stack:
        child = pop()
        yield child
        if descend is None or descend(child):
            below = child_list(child)
            if below:
                below.reverse()
                extend(below)


def parent_map(tree: cst.CSTNode) -> dict[int, cst.CSTNode]:
    """``id`` of a node → its parent (``walk.child_list``: LibCST's ``children`` builds
    a visitor per node, which cost most of a tool-heavy run)."""
    parents: dict[int, cst.CSTNode] = {}
    stack: list[cst.CSTNode] = [tree]
    while stack:
        node = stack.pop()
        for child in child_list(node):
            parents[id(child)] = node
            stack.append(child)
    return parents


def outside_nested_scopes(node: cst.CSTNode) -> bool:
    """A ``descend`` that stays out of nested functions, classes and lambdas."""
    found = _IS_SCOPE.get(node.__class__)
    if found is None:
        found = _is_scope(node.__class__)
    return not found


def find(node: cst.CSTNode, *types: type[cst.CSTNode], nested: bool = True) -> list[cst.CSTNode]:
    """Every node of ``types`` at or below ``node``; ``nested=False`` skips nested scopes."""
    descend = None if nested else outside_nested_scopes
    matches = _matcher(types)
    return [n for n in iter_nodes(node, descend=descend) if matches(n.__class__)]


_MATCHERS: dict[tuple[type[cst.CSTNode], ...], Callable[[type], bool]] = {}


def _matcher(types: tuple[type[cst.CSTNode], ...]) -> Callable[[type], bool]:
    """``issubclass(cls, types)``, cached per class (nodes of a tree come in few classes)."""
    matcher = _MATCHERS.get(types)
    if matcher is None:
        cache: dict[type, bool] = {}

        def matcher(cls: type) -> bool:
            found = cache.get(cls)
            if found is None:
                found = cache[cls] = issubclass(cls, types)
            return found

        _MATCHERS[types] = matcher
    return matcher


# ------------------------------------------------------------------ visitors

_Dispatch = dict[type, tuple[Callable[..., object] | None, Callable[..., object] | None]]
_DISPATCH: dict[type[cst.CSTVisitor], _Dispatch | None] = {}


def run_visitor(node: cst.CSTNode, visitor: cst.CSTVisitor) -> None:
    """``node.visit(visitor)`` without rebuilding the tree.

    The visitor's ``visit_*`` / ``leave_*`` methods are called as LibCST calls
    them (a ``visit_*`` returning False skips the node's children, its
    ``leave_*`` still runs), but only for nodes that carry meaning: whitespace,
    comments and punctuation are not visited.

    LibCST's ``on_visit`` / ``on_leave`` build a method name and look it up on
    every node; here the methods a visitor class defines are looked up once per
    (visitor class, node class) and called directly, and LibCST's no-op stubs
    are not called at all. A visitor that overrides ``on_visit`` / ``on_leave``
    (or sets visit methods on the instance) is driven through those instead.
    """
    cls = type(visitor)
    if cls in _DISPATCH:
        table = _DISPATCH[cls]
    else:
        table = _DISPATCH[cls] = _dispatch_table(cls)
    if table is None or _has_instance_methods(visitor):
        _run_generic(node, visitor)
        return
    index = tree_index(node) if isinstance(node, cst.Module) else _index_holding(node)
    if index is not None:
        index.replay(node, visitor, table)
    else:
        _run(node, visitor, table)


def _dispatch_table(cls: type[cst.CSTVisitor]) -> _Dispatch | None:
    """An empty table to fill per node class, or ``None`` when ``cls`` must be driven
    through ``on_visit``/``on_leave``: it overrides them, or one of its visit methods
    is not a plain function (a static or class method would be called wrongly)."""
    if cls.on_visit is not cst.CSTVisitor.on_visit or cls.on_leave is not cst.CSTVisitor.on_leave:
        return None
    for klass in cls.__mro__:
        if klass.__module__.partition(".")[0] == "libcst":
            continue  # LibCST's own stubs are plain functions
        for name, attribute in vars(klass).items():
            if name.startswith(("visit_", "leave_")) and not isinstance(
                attribute, types.FunctionType
            ):
                return None
    return {}


def _has_instance_methods(visitor: cst.CSTVisitor) -> bool:
    attributes = getattr(visitor, "__dict__", None) or {}
    return any(name.startswith(("visit_", "leave_")) for name in attributes)


def _method(cls: type, name: str) -> Callable[..., object] | None:
    """The function ``cls`` defines for ``name``; ``None`` for LibCST's no-op stubs."""
    function = getattr(cls, name, None)
    if function is None or getattr(function, "_is_no_op", False):
        return None
    return function  # type: ignore[no-any-return]


def _entry(
    table: _Dispatch, node_class: type, visitor_class: type
) -> tuple[Callable[..., object] | None, Callable[..., object] | None]:
    entry = table.get(node_class)
    if entry is None:
        name = node_class.__name__
        entry = table[node_class] = (
            _method(visitor_class, f"visit_{name}"),
            _method(visitor_class, f"leave_{name}"),
        )
    return entry


def _run(node: cst.CSTNode, visitor: cst.CSTVisitor, table: _Dispatch) -> None:
    entry = table.get(node.__class__)
    if entry is None:
        entry = _entry(table, node.__class__, type(visitor))
    visit, leave = entry
    if visit is None or visit(visitor, node) is not False:
        for child in child_list(node):
            _run(child, visitor, table)
    if leave is not None:
        leave(visitor, node)


def _run_generic(node: cst.CSTNode, visitor: cst.CSTVisitor) -> None:
    if visitor.on_visit(node):
        for child in child_list(node):
            _run_generic(child, visitor)
    visitor.on_leave(node)


_N = typing.TypeVar("_N", bound=cst.CSTNode)

_DONE = -2
"""The scope that marks a completed subtree on ``TreeIndex._index``'s stack."""


class TreeIndex:
    """Every node of a tree in pre-order, bucketed by type, for repeated subtree queries.

    Rules that ask "which calls / dicts / loops are inside this node?" for many
    nodes of one module would walk the same subtrees over and over; with the
    tree indexed once, each question costs a binary search per type plus the
    answer's length.
    """

    def __init__(self, root: cst.CSTNode) -> None:
        # Keyed by ``id``: every indexed node stays alive in ``_order``, so no other
        # live object can share its id, and ``id`` is cheaper than ``CSTNode.__hash__``.
        self._order: list[cst.CSTNode] = []
        self._end: list[int] = []
        self._scope_of: list[int] = []  # index of the nearest enclosing scope, strictly above
        self._types: dict[type[cst.CSTNode], list[int]] = {}
        self._index(root)
        # Keyed by ``id``: every indexed node stays alive in ``_order``, so no other live
        # object can share its id, and ``id`` is cheaper than ``CSTNode.__hash__``.
        self._position = dict(zip(map(id, self._order), range(len(self._order)), strict=True))
        self._matching: dict[tuple[type[cst.CSTNode], ...], list[type[cst.CSTNode]]] = {}
        self._originals: dict[int, cst.CSTNode] = {}
        self._displays: dict[int, cst.CSTNode] = {}
        self._stand_ins: list[cst.CSTNode] = []  # keeps them alive: ids stay unique

    # -- stand-ins (``analysis.displays``)

    def stand_in(self, node: cst.CSTNode, original: cst.CSTNode) -> None:
        """Answer for ``node`` (made by an analysis, not parsed) as for ``original``, a
        node of this tree (or another stand-in): same span, same enclosing scope."""
        original = self.original(original)
        self._stand_ins.append(node)
        self._originals[id(node)] = original
        self._position[id(node)] = self._position[id(original)]

    def original(self, node: cst.CSTNode) -> cst.CSTNode:
        """The parsed node a stand-in answers for (``node`` itself when it is parsed)."""
        return self._originals.get(id(node), node)

    def add_display(self, call: cst.CSTNode, display: cst.CSTNode) -> None:
        """``display`` (a stand-in) is what ``call`` makes: ``find(..., displays=True)``
        yields it where the call is."""
        self._displays[id(call)] = display

    def display_of(self, node: cst.CSTNode) -> cst.CSTNode:
        """The display a call stands for, else ``node``."""
        return self._displays.get(id(node), node)

    def _index(self, root: cst.CSTNode) -> None:
        """Number the nodes in pre-order (a loop, not recursion: trees can be deep).

        This is every module's one walk over all its nodes, so ``child_list`` is inlined
        and the stacks' methods are bound once.
        """
        order, end, scope_of, types = self._order, self._end, self._scope_of, self._types
        getters, kinds, scopes_of_class = _GETTERS.get, _KIND.get, _IS_SCOPE.get
        # ``nodes`` holds the nodes to number, each with the index of its enclosing scope
        # in ``scopes``; an int in ``nodes`` (scope ``_DONE``) is a node whose subtree is
        # complete once it is popped.
        nodes: list[Any] = [root]
        scopes: list[int] = [-1]
        pop_node, pop_scope = nodes.pop, scopes.pop
        push_node, push_scope = nodes.append, scopes.append
        extend_nodes, extend_scopes = nodes.extend, scopes.extend
        add_order, add_scope, add_end = order.append, scope_of.append, end.append
        while nodes:
            node = pop_node()
            scope = pop_scope()
            if scope == _DONE:
                end[node] = len(order)
                continue
            at = len(order)
            add_order(node)
            add_scope(scope)
            cls = node.__class__
            bucket = types.get(cls)
            if bucket is None:
                types[cls] = [at]
            else:
                bucket.append(at)
            entry = getters(cls)
            if entry is None:
                entry = _getter(cls)
            get, single = entry
            if get is None:
                add_end(at + 1)
                continue
            below: list[cst.CSTNode] = []
            for value in (get(node),) if single else get(node):
                kind = kinds(value.__class__)
                if kind is None:
                    kind = _kind(value.__class__)
                if kind == _NODE:
                    below.append(value)
                elif kind == _SEQUENCE:
                    for item in value:
                        item_kind = kinds(item.__class__)
                        if item_kind is None:
                            item_kind = _kind(item.__class__)
                        if item_kind == _NODE:
                            below.append(item)
            if not below:
                add_end(at + 1)
                continue
            add_end(0)
            is_scope = scopes_of_class(cls)
            if is_scope is None:
                is_scope = _is_scope(cls)
            push_node(at)
            push_scope(_DONE)
            below.reverse()
            extend_nodes(below)
            extend_scopes([at if is_scope else scope] * len(below))

    def __contains__(self, node: cst.CSTNode) -> bool:
        return id(node) in self._position

    @property
    def root(self) -> cst.CSTNode:
        return self._order[0]

    def __len__(self) -> int:
        return len(self._order)

    def span(self, node: cst.CSTNode) -> tuple[int, int]:
        """The pre-order numbers of ``node`` and of the first node after its subtree."""
        start = self._position[id(node)]
        return start, self._end[start]

    def in_order(self, nodes: list[_N]) -> list[_N]:
        """``nodes`` (all of this tree) sorted in pre-order, i.e. source order."""
        position = self._position
        return sorted(nodes, key=lambda node: position[id(node)])

    def node_at(self, position: int) -> cst.CSTNode:
        return self._order[position]

    def _kinds(self, types: tuple[type[cst.CSTNode], ...]) -> list[type[cst.CSTNode]]:
        kinds = self._matching.get(types)
        if kinds is None:
            matches = _matcher(types)  # ``issubclass`` on LibCST's ABCs is slow: cached
            kinds = self._matching[types] = [t for t in self._types if matches(t)]
        return kinds

    def _positions(self, kinds: list[type[cst.CSTNode]], start: int, end: int) -> list[int]:
        """The pre-order numbers of the nodes of ``kinds`` in ``[start, end)``, ascending."""
        found: list[int] = []
        whole = start == 0 and end == len(self._order)
        for kind in kinds:
            indices = self._types[kind]
            if whole:
                found.extend(indices)
            else:
                found.extend(
                    indices[bisect.bisect_left(indices, start) : bisect.bisect_left(indices, end)]
                )
        if len(kinds) > 1:
            found.sort()
        return found

    def find(
        self,
        node: cst.CSTNode,
        types: tuple[type[cst.CSTNode], ...],
        *,
        nested: bool,
        displays: bool = False,
    ) -> list[cst.CSTNode]:
        """``walk.find(node, *types, nested=nested)``, answered from the index; with
        ``displays``, a search for ``cst.Dict`` also yields the display stand-in of each
        call found (``add_display``), just before the call's own place."""
        start = self._position[id(node)]
        with_displays = displays and bool(self._displays) and cst.Dict in types
        kinds = self._kinds(types)
        if with_displays and cst.Call not in kinds and cst.Call in self._types:
            kinds = [*kinds, cst.Call]
        found = self._positions(kinds, start, self._end[start])
        if not nested:
            scope_of = self._scope_of
            found = [i for i in found if scope_of[i] <= start or i == start]
        order = self._order
        if not with_displays:
            return [order[i] for i in found]
        wanted = _matcher(types)
        made = self._displays
        result: list[cst.CSTNode] = []
        for i in found:
            current = order[i]
            display = made.get(id(current))
            if display is not None:
                result.append(display)
            if wanted(current.__class__):
                result.append(current)
        return result

    def enclosing_scope(self, node: cst.CSTNode) -> cst.CSTNode | None:
        """The nearest function, class or lambda strictly above ``node`` (``None``: none)."""
        scope = self._scope_of[self._position[id(node)]]
        return self._order[scope] if scope >= 0 else None

    def replay(self, node: cst.CSTNode, visitor: cst.CSTVisitor, table: _Dispatch) -> None:
        """``run_visitor(node, visitor)`` from the index: only the nodes of the classes
        ``visitor`` has methods for are touched, in the same order, with the same
        ``visit_*``/``leave_*`` calls (a ``visit_*`` returning False skips the nodes
        below, and its ``leave_*`` still runs once the walk is past them)."""
        visitor_class = type(visitor)
        kinds = []
        for kind in self._types:
            visit, leave = _entry(table, kind, visitor_class)
            if visit is not None or leave is not None:
                kinds.append(kind)
        start = self._position[id(node)]
        order, end = self._order, self._end
        pending: list[tuple[int, cst.CSTNode, Callable[..., object] | None]] = []
        skip_to = -1
        for at in self._positions(kinds, start, end[start]):
            if at < skip_to:
                continue
            while pending and pending[-1][0] <= at:
                _, left, leave = pending.pop()
                if leave is not None:
                    leave(visitor, left)
            current = order[at]
            visit, leave = table[current.__class__]
            if visit is not None and visit(visitor, current) is False:
                skip_to = end[at]
            pending.append((end[at], current, leave))
        while pending:
            _, left, leave = pending.pop()
            if leave is not None:
                leave(visitor, left)


_RECENT_INDEXES: list[TreeIndex] = []
_KEEP_INDEXES = 4
_INDEX_LOCK = threading.Lock()


def tree_index(root: cst.CSTNode) -> TreeIndex:
    """The index of the tree ``root`` heads, built on first use and kept with the few most
    recent ones: every later ``find_indexed``/``run_visitor`` on a node of that tree is
    answered from it (a language server's thread may ask too)."""
    with _INDEX_LOCK:
        for index in reversed(_RECENT_INDEXES):
            if index.root is root:
                return index
    index = TreeIndex(root)
    with _INDEX_LOCK:
        _RECENT_INDEXES.append(index)
        del _RECENT_INDEXES[:-_KEEP_INDEXES]
    return index


def forget_indexes() -> None:
    """Drop the kept indexes (and with them their trees): a run calls it once a file is
    done, so that the tree is freed at once rather than examined by the collector."""
    with _INDEX_LOCK:
        _RECENT_INDEXES.clear()


def _index_holding(node: cst.CSTNode) -> TreeIndex | None:
    with _INDEX_LOCK:
        for index in reversed(_RECENT_INDEXES):
            if node in index:
                return index
    return None


def display_of(node: cst.CSTNode) -> cst.CSTNode:
    """The display stand-in of a call (``analysis.displays``), else ``node``."""
    if not isinstance(node, cst.Call):
        return node
    index = _index_holding(node)
    return node if index is None else index.display_of(node)


def find_indexed(
    node: cst.CSTNode, *types: type[cst.CSTNode], nested: bool = True, displays: bool = False
) -> list[cst.CSTNode]:
    """``find`` for code that queries many subtrees of one tree: answered from the index
    of the tree that holds ``node`` (``tree_index``), or from a new index of ``node``'s
    own subtree when no recent index holds it (ask about the module first)."""
    index = _index_holding(node)
    if index is None:
        index = tree_index(node)
    return index.find(node, types, nested=nested, displays=displays)
