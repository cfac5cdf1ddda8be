"""The screen tests the tool-loop families share (``analysis.screen``): whether a message
display may have a role, whether a dispatch registry may be recognised — on CPython's
tree, without LibCST (this module imports only the standard library and the view)."""

from __future__ import annotations

import ast

from lint_rules.analysis.screen import ModuleView


def role_may_be(view: ModuleView, role: str) -> bool:
    """Whether a message display may have the literal ``"role"`` ``role``: the string is
    a word of the code, and a display's ``"role"`` entry or a ``role=`` keyword (a typed
    constructor's or ``dict(...)``'s display) holds that literal or a name (a helper's
    parameter, which a call — or the parameter's default — may give it). A role is read
    nowhere else (``tool_loops.literal_entry``: a literal; ``analysis.displays``: a
    helper's display takes its parameters' arguments)."""
    if not view.has(role):
        return False
    for node in view.nodes:
        kind = type(node)
        if kind is ast.Dict:
            for key, value in zip(node.keys, node.values, strict=True):  # type: ignore[attr-defined]
                if type(key) is ast.Constant and key.value == "role" and _may_be(value, role):
                    return True
        elif kind is ast.keyword and node.arg == "role" and _may_be(node.value, role):  # type: ignore[attr-defined]
            return True
    return False


def dispatch_registry(view: ModuleView, *, schema: bool = True) -> bool:
    """Whether ``recognition.ChatFile.registries`` may find a registry: a ``globals()``
    call (``globals()[name]``); or a name bound (``=``, ``:``, ``:=``) to a dict display
    with a string key whose value is the name of a ``def`` or an import of the module,
    that is also looked up (``NAME[x]`` with ``x`` not a literal, ``NAME.get(...)``); or —
    where a ``tools=`` schema list may be read (TRV403, the only rule that reads an
    imported registry) — an imported name looked up where a dispatch can follow: the
    lookup called, or assigned.

    ``ChatFile.registries`` starts from each lookup ``NAME[x]`` / ``NAME.get(x, ...)`` with
    ``x`` not a string or integer literal (``_dispatch_target``), then keeps ``NAME`` when
    ``dict_registry`` finds it bound once to a dict display with a literal key whose
    value is a top-level function or an import; or when it is imported
    (``_imported_registry``: no entries, so no tool function) and the lookup is called
    (``registry[name](...)``, or ``fn = registry[name]`` and ``fn(...)``:
    ``_note_dispatch``); or ``globals()``. The same test, in the Responses family's
    screen, covers its registry tools.

    ``schema=False``: the imported lookup counts without a ``tools=`` schema (the index
    facts of a loop that dispatches through an imported registry, ``facts._use``, need
    none: ``index_facts.contributes``).
    """
    if view.calls("globals"):
        return True
    defined: set[str] = set()
    looked_up: set[str] = set()
    dispatched: set[str] = set()
    bound: list[tuple[str, ast.Dict]] = []
    for node in view.nodes:
        kind = type(node)
        if kind is ast.FunctionDef or kind is ast.AsyncFunctionDef:
            defined.add(node.name)  # type: ignore[attr-defined]
            continue
        owner = _looked_up(node)
        if owner is not None:
            looked_up.add(owner)
        if kind is ast.Call:
            owner = _looked_up(node.func)  # type: ignore[attr-defined]
        elif kind is ast.Assign or kind is ast.AnnAssign or kind is ast.NamedExpr:
            value = node.value  # type: ignore[attr-defined]
            owner = _looked_up(value) if value is not None else None
            if type(value) is ast.Dict:
                targets = node.targets if kind is ast.Assign else [node.target]  # type: ignore[attr-defined]
                bound.extend((t.id, value) for t in targets if type(t) is ast.Name)
        else:
            continue
        if owner is not None:
            dispatched.add(owner)
    if not looked_up:
        return False
    callables = defined | set(view.imports)
    for name, display in bound:
        if name in looked_up and _registers(display, callables):
            return True
    if not schema or view.has("tools"):
        imported = {name for name, qualified in view.imports.items() if "." in qualified}
        return not imported.isdisjoint(dispatched)
    return False


def _looked_up(node: ast.AST) -> str | None:
    """``NAME`` of a lookup ``NAME[x]`` (``x`` not a literal: ``_literal_key``) or
    ``NAME.get(...)`` (whatever the key: LibCST's ``"a" "b"``, which CPython folds into
    one string, is a dispatch there)."""
    kind = type(node)
    if kind is ast.Subscript:
        owner = node.value  # type: ignore[attr-defined]
        if type(owner) is ast.Name and not _literal_key(node.slice):  # type: ignore[attr-defined]
            return owner.id
    elif kind is ast.Call:
        func = node.func  # type: ignore[attr-defined]
        if type(func) is ast.Attribute and func.attr == "get" and type(func.value) is ast.Name:
            return func.value.id
    return None


def _literal_key(node: ast.expr) -> bool:
    """A subscript that is no dispatch (``_dispatch_target``): a string, bytes or integer
    literal (implicit concatenations too, which CPython folds), or a slice (``x[1:]``)."""
    if type(node) is ast.Slice:
        return True
    return type(node) is ast.Constant and type(node.value) in (str, bytes, int)


def _registers(display: ast.Dict, callables: set[str]) -> bool:
    """A display entry ``"name": function`` (a string key, a function or import's name)."""
    for key, value in zip(display.keys, display.values, strict=True):
        if (
            type(key) is ast.Constant
            and type(key.value) is str
            and type(value) is ast.Name
            and value.id in callables
        ):
            return True
    return False


def _may_be(node: ast.expr, role: str) -> bool:
    """A literal ``role``, or a name."""
    return type(node) is ast.Name or (type(node) is ast.Constant and node.value == role)
