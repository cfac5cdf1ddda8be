"""What a name means where a fix would write it.

A fix that inserts a name (``str(…)``, ``json.dumps(…)``) assumes the name is the
builtin or the module: ``str = None`` at module level, a parameter ``def t(a,
str=int)``, a local ``str = lambda x: x``, a ``global str`` rebound elsewhere or a
star import could make the same text mean something else, and a "safe" fix would
change what the code does. :func:`means_builtin` and :func:`means_module` answer
for one node of one module, from one walk of the module (kept in its ``memo``):
every binding of every name, each in the scope Python binds it in.

The reading is Python's, made conservative where it is subtle: a class body's
names count for code directly in it (not its methods), a comprehension's targets
and a parameter count for the whole comprehension or function (defaults and the
first iterable included, which Python evaluates outside), a walrus counts for
the comprehension and the scope around it, ``global x`` anywhere counts as a
module-level binding of ``x``, a star import anywhere counts as binding every
name in its scope.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

import libcst as cst

from lint_rules.analysis.bindings import BINDING_FORMS, parameters, target_names
from lint_rules.analysis.walk import child_list

if TYPE_CHECKING:
    from lint_rules.analysis.module import ParsedModule

__all__ = ["means_builtin", "means_module"]

_FUNCTION_SCOPES: Final = (cst.FunctionDef, cst.Lambda)
_COMPREHENSIONS: Final = (cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)
_STAR: Final = "*"
"""The key a star import binds under: every name of its scope."""
_IMPORT: Final = "import"
_OTHER: Final = "other"
_GLOBAL: Final = "global"


@dataclass
class _Table:
    """Per scope (its node's ``id``; the module's for the module), each name bound there
    and how: ``import`` for ``import NAME`` itself, ``other`` for anything else."""

    bound: dict[int, dict[str, set[str]]] = field(default_factory=dict)
    parents: dict[int, cst.CSTNode] = field(default_factory=dict)

    def bind(self, scope: cst.CSTNode, name: str, how: str) -> None:
        self.bound.setdefault(id(scope), {}).setdefault(name, set()).add(how)


def means_builtin(module: ParsedModule, node: cst.CSTNode, name: str) -> bool:
    """Whether ``name`` written at ``node`` is Python's builtin: nothing binds it in the
    module or in a scope around ``node`` (nor could, through a star import)."""
    around = _bindings_around(module, node, name)
    return around is not None and all(not hows for hows in around)


def means_module(module: ParsedModule, node: cst.CSTNode, name: str) -> bool:
    """Whether ``name`` written at ``node`` is the module ``import NAME`` binds: the module
    binds it only by that import and no scope around ``node`` binds it."""
    around = _bindings_around(module, node, name)
    if around is None:
        return False
    *inner, at_module = around
    return at_module == {_IMPORT} and all(not hows for hows in inner)


def _bindings_around(module: ParsedModule, node: cst.CSTNode, name: str) -> list[set[str]] | None:
    """How each scope around ``node`` binds ``name``, innermost first, the module last
    (an empty set where it does not); ``None`` if ``node`` is not in ``module``."""
    table = _table(module)
    if id(node) not in table.parents:
        return None
    found: list[set[str]] = []
    for scope in _scopes_around(table, node, module.tree):
        names = table.bound.get(id(scope), {})
        found.append(names.get(name, set()) | names.get(_STAR, set()))
    return found


def _scopes_around(table: _Table, node: cst.CSTNode, root: cst.Module) -> Iterator[cst.CSTNode]:
    in_function = False
    parent = table.parents.get(id(node))
    while parent is not None:
        if isinstance(parent, (*_FUNCTION_SCOPES, *_COMPREHENSIONS)):
            in_function = in_function or isinstance(parent, _FUNCTION_SCOPES)
            yield parent
        elif isinstance(parent, cst.ClassDef) and not in_function:
            yield parent  # a class body's names reach only the code directly in it
        parent = table.parents.get(id(parent))
    yield root


def _table(module: ParsedModule) -> _Table:
    table = module.memo.get("names.bindings")
    if isinstance(table, _Table):
        return table
    table = _Table()
    _collect(table, module.tree)
    module.memo["names.bindings"] = table
    return table


_SCOPE_CLASSES: Final = frozenset({*_FUNCTION_SCOPES, cst.ClassDef, *_COMPREHENSIONS})
_COMPREHENSION_CLASSES: Final = frozenset(_COMPREHENSIONS)
_BINDER_CLASSES: Final = frozenset(
    {
        *BINDING_FORMS,
        cst.Global,
        cst.AssignTarget,
        cst.AnnAssign,
        cst.CompFor,
        cst.Del,
        cst.MatchAs,
        cst.MatchStar,
        cst.MatchMapping,
        cst.TypeAlias,
        cst.TypeParam,
    }
)
"""The node classes ``_bound_here`` may find a binding in (the walk skips the rest)."""


def _collect(table: _Table, root: cst.Module) -> None:
    """One walk: every node's parent and every binding in its scope."""
    parents = table.parents
    stack: list[tuple[cst.CSTNode, cst.CSTNode, cst.CSTNode]] = []
    for child in child_list(root):
        parents[id(child)] = root
        stack.append((child, root, root))
    pop, push = stack.pop, stack.append
    while stack:
        node, scope, outer = pop()
        cls = node.__class__
        inner, next_outer = scope, outer
        if cls in _SCOPE_CLASSES:
            if cls is cst.FunctionDef or cls is cst.ClassDef:
                table.bind(scope, node.name.value, _OTHER)  # type: ignore[attr-defined]
            if cls is cst.FunctionDef or cls is cst.Lambda:
                for param in parameters(node.params):  # type: ignore[attr-defined]
                    table.bind(node, param.name.value, _OTHER)
            inner, next_outer = node, scope
        if cls in _BINDER_CLASSES:
            for name, how in _bound_here(node):
                if how == _GLOBAL:
                    table.bind(root, name, _OTHER)  # whatever the function assigns to it
                    continue
                table.bind(scope, name, how)
                if cls is cst.NamedExpr and scope.__class__ in _COMPREHENSION_CLASSES:
                    table.bind(outer, name, how)  # a walrus binds outside its comprehension
        for child in child_list(node):
            parents[id(child)] = node
            push((child, inner, next_outer))


def _bound_here(node: cst.CSTNode) -> Iterator[tuple[str, str]]:
    """The names ``node`` itself binds and how: ``import`` where ``import NAME``,
    ``import NAME.sub`` or ``import NAME as NAME`` binds the module of that name,
    ``global`` for a declaration."""
    if isinstance(node, cst.Import):
        for alias in node.names:
            itself = alias.asname is None or (
                isinstance(alias.name, cst.Name)
                and isinstance(alias.asname.name, cst.Name)
                and alias.asname.name.value == alias.name.value
            )
            for name in target_names(_import_target(alias)):
                yield name, _IMPORT if itself else _OTHER
        return
    if isinstance(node, cst.ImportFrom) and isinstance(node.names, cst.ImportStar):
        yield _STAR, _OTHER
        return
    if isinstance(node, cst.Global):
        for item in node.names:
            yield item.name.value, _GLOBAL
        return
    if isinstance(node, (cst.FunctionDef, cst.ClassDef)):
        return  # bound in the scope around it, by ``_collect``
    targets = BINDING_FORMS.get(type(node))
    if targets is not None:
        for target in targets(node):
            for name in target_names(target):
                yield name, _OTHER
        return
    if isinstance(node, cst.AssignTarget | cst.AnnAssign | cst.CompFor | cst.Del):
        yield from ((name, _OTHER) for name in target_names(node.target))
    elif isinstance(node, cst.MatchAs | cst.MatchStar):
        if node.name is not None:
            yield node.name.value, _OTHER
    elif isinstance(node, cst.MatchMapping):
        if node.rest is not None:
            yield node.rest.value, _OTHER
    elif isinstance(node, cst.TypeAlias):
        yield node.name.value, _OTHER
    elif isinstance(node, cst.TypeParam):
        yield node.param.name.value, _OTHER


def _import_target(alias: cst.ImportAlias) -> cst.BaseExpression:
    name: cst.BaseExpression = alias.asname.name if alias.asname is not None else alias.name
    while isinstance(name, cst.Attribute):
        name = name.value
    return name
