"""Which names a function binds, and whether code mentions names.

Two analyses read a function's bindings, over the same binding forms:

* :func:`bound_names` — the names a function binds in its own scope, as Python
  decides what is local: parameters, assignment and loop targets, imports,
  nested ``def``/``class`` names, minus ``global``/``nonlocal`` ones. Nested
  functions, classes, lambdas and comprehensions are scopes of their own and
  are not entered. (browser-use recognition: is ``tools`` here a local?)
* value inference (``shapes._BindingCollector``) reads every assignment *and
  mutation* anywhere in the function, nested scopes included, keeping each
  assigned value; it reads the shared forms through :data:`BINDING_FORMS` and
  adds its own (assignments with their values, ``del``, comprehension and
  ``match`` targets, ``global``/``nonlocal``, calls that may mutate).
  OpenAI Agents recognition asks this broader question
  (``ShapeInference.local_name_is_bound``: bound *or possibly mutated*, anywhere
  in the function) when it decides that an SDK name is not the import any more.

:data:`BINDING_FORMS` is the core both read alike: for each node type that
binds names wherever it stands, the targets it binds through; :func:`target_names`
turns a target into names. :func:`mentions` / :func:`names_in` answer "does this
expression use any of these names".

Everything walks with :mod:`lint_rules.analysis.walk` (read-only, no tree rebuilt).
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterator, Mapping
from typing import Any, Final, cast

import libcst as cst

from lint_rules.analysis.walk import child_list, find_indexed, iter_nodes

Targets = Callable[[Any], tuple[cst.BaseExpression, ...]]
"""The targets a binding node binds through: ``x`` of ``for x in …``, ``(a, b)`` of
``with … as (a, b)``."""


def _target(node: cst.AugAssign | cst.For | cst.NamedExpr) -> tuple[cst.BaseExpression, ...]:
    return (node.target,)


def _name(node: cst.FunctionDef | cst.ClassDef) -> tuple[cst.BaseExpression, ...]:
    return (node.name,)


def _with_item(node: cst.WithItem) -> tuple[cst.BaseExpression, ...]:
    return () if node.asname is None else (node.asname.name,)


def _except_handler(node: cst.ExceptHandler) -> tuple[cst.BaseExpression, ...]:
    return () if node.name is None else (node.name.name,)


def _import(node: cst.Import) -> tuple[cst.BaseExpression, ...]:
    """``import a.b`` binds ``a``; ``import a.b as c`` binds ``c``."""
    found: list[cst.BaseExpression] = []
    for alias in node.names:
        name: cst.BaseExpression = alias.asname.name if alias.asname else alias.name
        while isinstance(name, cst.Attribute):
            name = name.value
        found.append(name)
    return tuple(found)


def _import_from(node: cst.ImportFrom) -> tuple[cst.BaseExpression, ...]:
    if isinstance(node.names, cst.ImportStar):
        return ()
    return tuple(alias.asname.name if alias.asname else alias.name for alias in node.names)


BINDING_FORMS: Final[Mapping[type[cst.CSTNode], Targets]] = {
    cst.AugAssign: _target,
    cst.For: _target,
    cst.NamedExpr: _target,
    cst.WithItem: _with_item,
    cst.ExceptHandler: _except_handler,
    cst.Import: _import,
    cst.ImportFrom: _import_from,
    cst.FunctionDef: _name,
    cst.ClassDef: _name,
}
"""Node type → the targets it binds names through, for the forms every analysis here
reads alike. Plain and annotated assignments are not in it: value inference reads them
with their values (:data:`_SCOPE_FORMS` adds them for :func:`bound_names`)."""


def root_name(node: cst.BaseExpression) -> str | None:
    """``x`` of ``x``, ``x.a.b``, ``x[0].a``; ``None`` when no name is at the root."""
    while isinstance(node, (cst.Attribute, cst.Subscript)):
        node = node.value
    return node.value if isinstance(node, cst.Name) else None


def target_names(target: cst.BaseExpression, *, roots: bool = False) -> list[str]:
    """The names an assignment to ``target`` binds: ``x``, each name of ``x, (y, *z)``.

    With ``roots``, also the name a subscript or attribute target hangs off (``x`` of
    ``x[0] = …`` or ``x.a.b = …``): the store does not rebind it but mutates it.
    """
    if isinstance(target, cst.Name):
        return [target.value]
    if isinstance(target, (cst.Tuple, cst.List)):
        return [
            name for element in target.elements for name in target_names(element.value, roots=roots)
        ]
    if isinstance(target, cst.StarredElement):
        return target_names(target.value, roots=roots)
    if roots and isinstance(target, (cst.Subscript, cst.Attribute)):
        root = root_name(target)
        return [] if root is None else [root]
    return []


def parameters(params: cst.Parameters) -> list[cst.Param]:
    """Every parameter: positional-only, ordinary, keyword-only, then ``*args``, ``**kwargs``."""
    found = [*params.posonly_params, *params.params, *params.kwonly_params]
    for star in (params.star_arg, params.star_kwarg):
        if isinstance(star, cst.Param):
            found.append(star)
    return found


# ------------------------------------------------------------ a function's own scope

_SCOPE_FORMS: Final[Mapping[type[cst.CSTNode], Targets]] = {
    **BINDING_FORMS,
    cst.AssignTarget: _target,
    cst.AnnAssign: _target,  # ``x: int`` without a value makes ``x`` local too
}
_DECLARATIONS: Final = (cst.Global, cst.Nonlocal)
_OWN_SCOPES: Final = frozenset({cst.FunctionDef, cst.ClassDef, cst.Lambda, cst.CompFor})
"""Not entered by :func:`bound_names`: their bodies (and a comprehension's targets) bind
in a scope of their own. A nested ``def``/``class`` still binds its name here."""
_READ_BY_BOUND_NAMES: Final = frozenset({*_SCOPE_FORMS, *_DECLARATIONS, *_OWN_SCOPES})


def bound_names(function: cst.FunctionDef) -> frozenset[str]:
    """The names ``function`` binds in its own scope: parameters, assignment, augmented
    and annotated assignment targets, walrus, ``for``/``with``/``except … as`` targets,
    imports and nested ``def``/``class`` names; not the names it declares ``global``
    or ``nonlocal``, nor those bound inside nested functions, classes, lambdas or
    comprehensions.

    Not counted either (kept as browser-use recognition has always read them):
    ``del`` targets, ``match`` capture patterns, ``except*`` names, and a walrus in a
    comprehension's ``for``/``if`` clauses or in a nested ``def``'s decorators/defaults.
    """
    names = {param.name.value for param in parameters(function.params)}
    declared_outer: set[str] = set()
    forms = _SCOPE_FORMS
    # ``iter_nodes`` with a ``descend`` test, unrolled: the order does not matter for a set,
    # and a function-call per node would cost more than the rest of the work here.
    stack = child_list(function.body)
    pop, extend = stack.pop, stack.extend
    while stack:
        node = pop()
        cls = node.__class__
        if cls in _READ_BY_BOUND_NAMES:
            targets = forms.get(cls)
            if targets is not None:
                for target in targets(node):
                    names.update(target_names(target))
            elif cls in _DECLARATIONS:
                declaration = cast("cst.Global | cst.Nonlocal", node)
                declared_outer.update(item.name.value for item in declaration.names)
            if cls in _OWN_SCOPES:
                continue
        extend(child_list(node))
    return frozenset(names - declared_outer)


# ------------------------------------------------------------------- mentions


def names_in(node: cst.CSTNode) -> Iterator[str]:
    """The identifier of every ``Name`` at or below ``node``, in (nearly) source order,
    lazily: attribute names (``b`` of ``a.b``) and keyword names (``k`` of ``f(k=1)``)
    are ``Name`` nodes too."""
    for found in iter_nodes(node):
        if found.__class__ is cst.Name:
            yield found.value


def mentions(node: cst.CSTNode, names: Container[str]) -> bool:
    """Whether a ``Name`` at or below ``node`` is one of ``names``."""
    return any(name in names for name in names_in(node))


def local_bindings(function: cst.FunctionDef) -> dict[str, tuple[str, cst.BaseExpression | None]]:
    """How a function binds each of its own names (not those of nested scopes):
    ``("parameter", annotation)``, ``("assigned", value)`` for a name assigned exactly
    once with a plain target, ``("def", None)`` for a nested ``def`` bound once, and
    ``("other", None)`` for any other binding or a name bound more than once. (The
    MCP and Pydantic AI recognitions ask what a name of the function refers to.)"""
    found: dict[str, tuple[str, cst.BaseExpression | None]] = {}
    counts: dict[str, int] = {}
    params = function.params
    for param in (
        *params.posonly_params,
        *params.params,
        *params.kwonly_params,
        *(p for p in (params.star_arg, params.star_kwarg) if isinstance(p, cst.Param)),
    ):
        annotation = param.annotation.annotation if param.annotation is not None else None
        found[param.name.value] = ("parameter", annotation)
        counts[param.name.value] = 1
    for node in find_indexed(function.body, cst.Assign, cst.AnnAssign, cst.AugAssign):
        if isinstance(node, cst.Assign):
            single = len(node.targets) == 1
            for target in node.targets:
                for name in _plain_names(target.target):
                    simple = single and isinstance(target.target, cst.Name)
                    binding = ("assigned", node.value) if simple else ("other", None)
                    _bind_once(found, counts, name, binding)
        elif isinstance(node, cst.AnnAssign):
            for name in _plain_names(node.target):
                value = node.value
                _bind_once(found, counts, name, ("assigned", value) if value else ("other", None))
        else:
            assert isinstance(node, cst.AugAssign)
            for name in _plain_names(node.target):
                _bind_once(found, counts, name, ("other", None))
    for node in find_indexed(
        function.body,
        cst.For,
        cst.With,
        cst.NamedExpr,
        cst.ExceptHandler,
        cst.Import,
        cst.ImportFrom,
        cst.Global,
        cst.Nonlocal,
    ):
        for name in _bound_by_node(node):
            _bind_once(found, counts, name, ("other", None))
    for node in find_indexed(function.body, cst.FunctionDef, cst.ClassDef):
        # nested scopes are not entered: these are the function's own ``def``s
        assert isinstance(node, (cst.FunctionDef, cst.ClassDef))
        kind = "def" if isinstance(node, cst.FunctionDef) else "other"
        _bind_once(found, counts, node.name.value, (kind, None))
    return found


def _bind_once(
    found: dict[str, tuple[str, cst.BaseExpression | None]],
    counts: dict[str, int],
    name: str,
    binding: tuple[str, cst.BaseExpression | None],
) -> None:
    counts[name] = counts.get(name, 0) + 1
    found[name] = binding if counts[name] == 1 else ("other", None)


def _plain_names(target: cst.BaseExpression) -> Iterator[str]:
    if isinstance(target, cst.Name):
        yield target.value
    elif isinstance(target, (cst.Tuple, cst.List)):
        for element in target.elements:
            yield from _plain_names(element.value)
    elif isinstance(target, cst.StarredElement):
        yield from _plain_names(target.value)


def _bound_by_node(node: cst.CSTNode) -> Iterator[str]:
    if isinstance(node, cst.For):
        yield from _plain_names(node.target)
    elif isinstance(node, cst.With):
        for with_item in node.items:
            if with_item.asname is not None:
                yield from _plain_names(with_item.asname.name)
    elif isinstance(node, cst.NamedExpr):
        yield from _plain_names(node.target)
    elif isinstance(node, cst.ExceptHandler):
        if node.name is not None and isinstance(node.name.name, cst.Name):
            yield node.name.name.value
    elif isinstance(node, (cst.Import, cst.ImportFrom)):
        names = node.names
        if isinstance(names, cst.ImportStar):
            return
        for alias in names:
            bound: cst.BaseExpression = (
                alias.asname.name if alias.asname is not None else alias.name
            )
            while isinstance(bound, cst.Attribute):
                bound = bound.value
            if isinstance(bound, cst.Name):
                yield bound.value
    elif isinstance(node, (cst.Global, cst.Nonlocal)):
        for item in node.names:
            yield item.name.value
