"""The second screen: whether a module needs LibCST at all, decided on CPython's ``ast``.

The byte prefilter (``lint_rules.prefilter``) passes every file that imports a
framework; most of them hold no construct any rule can report (a module that imports
``openai`` to make a client, ``mcp`` to start a server, ``langchain`` for a prompt). A
LibCST parse costs ten times CPython's, so before it each family signalled in a module
answers, from a :class:`ModuleView` of CPython's tree, whether any of its rules — or the
TRV9xx rules, on its tool functions — could fire there: its ``needs_libcst(view)``, a
small documented *necessary* condition next to its recognition (``screen.py`` in each
family's package). A module no family needs is never LibCST-parsed, and its result is
empty (what the rules would have found: the test ``tests/test_screen.py`` runs every
corpus and example with the screen on and off and compares the output byte for byte).

A condition must be a superset of what the family reports: when in doubt it answers
``True``. It reads *names*, never values: the identifiers and string constants the
module's code holds, the names its decorators, calls and class bases end in (an alias's
imported name too), and its imports. Comments, docstrings and import statements say
nothing the rules read, which is what makes the screen finer than the bytes.

A module is screened only when ``ast.parse`` reads it as it is (not through the stand-in
``analysis.syntax`` builds for syntax newer than this Python), and never for a run that
reports on a module's text whatever its constructs (``TRV005``; ``TRV004`` where the
text has a ``noqa`` comment): see ``lint_rules.engine``.
"""

from __future__ import annotations

import ast
import os
import warnings
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Final

LONGEST_STRING: Final = 200
"""String constants longer than this are prose (docstrings, prompts), not keys or roles:
left out of ``ModuleView.words``."""

ENVIRONMENT: Final = "TOOLRET_SCREEN"
"""``TOOLRET_SCREEN=0`` turns the screen off (every signalled module is parsed), to
compare the two; the default is on."""


def enabled_by_default() -> bool:
    return os.environ.get(ENVIRONMENT, "1") != "0"


@dataclass(frozen=True)
class ModuleView:
    """What a family's screen may read of a module: names, gathered in one walk.

    ``words``: every identifier the code uses or binds (``Name``, attribute names,
    keyword names, ``def``/``class``/parameter names) and every string constant up to
    ``LONGEST_STRING`` characters (dict keys, roles, types) but a string statement's (a
    docstring); ``decorators``, ``called``
    and ``bases``: the last name of each decorator (``@mcp.tool()`` → ``tool``), callee
    (``StructuredTool.from_function(...)`` → ``from_function``) and class base. A local
    name bound by an import counts under its imported name as well (``from agents
    import function_tool as ft``: ``@ft`` → ``ft`` and ``function_tool``). ``imports``:
    local name → qualified name of every import statement, at any depth (the last in
    the text for a local bound twice), ``import_pairs`` every ``(local, qualified)``
    pair in the text's order, both kept for a local bound twice (``import x.y`` binds
    ``x`` to ``x``, ``import x.y as z`` binds ``z`` to ``x.y``, ``from .m import n`` binds
    ``n`` to ``.m.n``);
    ``attribute_decorators``: the last names of the attribute decorators of functions,
    bare or called (``@x.tool``, ``@x.tool(...)``; not ``@tool``); ``functions``: whether
    the module defines a function (``def``, ``async def``, ``lambda``). ``nodes``: the
    tree's nodes, parents before children (``nodes_of``), for a screen that must look
    at shapes, not names, without walking the tree again.
    """

    path: str
    tree: ast.Module
    words: frozenset[str]
    decorators: frozenset[str]
    called: frozenset[str]
    bases: frozenset[str]
    imports: Mapping[str, str]
    functions: bool
    import_pairs: tuple[tuple[str, str], ...] = ()
    attribute_decorators: frozenset[str] = frozenset()
    _folded: str = field(default="", repr=False, compare=False)
    nodes: Sequence[ast.AST] = field(default=(), repr=False, compare=False)

    def has(self, *names: str) -> bool:
        """Whether the code holds one of ``names`` (exactly) as an identifier or string."""
        words = self.words
        return any(name in words for name in names)

    def mentions(self, *fragments: str) -> bool:
        """Whether an identifier or string of the code contains one of ``fragments``,
        case-insensitively (``"tool"`` in ``get_tools``, ``ToolMessage``, ``"tool"``)."""
        folded = self._folded
        return any(fragment.casefold() in folded for fragment in fragments)

    def decorated_by(self, *names: str) -> bool:
        return any(name in self.decorators for name in names)

    def calls(self, *names: str) -> bool:
        return any(name in self.called for name in names)

    def refers(self, names: Iterable[str], targets: Iterable[str]) -> bool:
        """Whether one of ``names`` (a set of the view: ``decorators``, ``called``, …) can
        be a reference to one of the qualified ``targets`` through the module's imports: an
        import binds the target or a package it is in (``ParsedModule.qualified_name``
        resolves nothing else), and the name is the target's last name (``x.Agent``,
        ``Agent``) or a local bound to the target itself (``from agents import Agent as
        A``)."""
        names = names if isinstance(names, (set, frozenset)) else frozenset(names)
        pairs = self.import_pairs
        for target in targets:
            if not any(q == target or target.startswith(q + ".") for _, q in pairs):
                continue
            if target.rpartition(".")[2] in names:
                return True
            if any(q == target and local in names for local, q in pairs):
                return True
        return False

    def imports_from(self, *packages: str) -> bool:
        """Whether an import statement of the module names one of ``packages`` (or a
        module inside one)."""
        return any(
            qualified == package or qualified.startswith(package + ".")
            for qualified in self.imports.values()
            for package in packages
        )


def python_tree_as_written(source: str) -> ast.Module | None:
    """``ast.parse(source)`` when this Python reads it as it is; ``None`` otherwise (the
    check then goes to LibCST, which reports what does not parse)."""
    with warnings.catch_warnings():  # the user's code: no SyntaxWarning on our stderr
        warnings.simplefilter("ignore")
        try:
            return ast.parse(source)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return None


_LEAVES: Final = frozenset({"ctx", "op", "ops", "type_comment", "kind", "conversion"})
"""Fields of ``ast`` nodes that hold no name the view reads (contexts, operators)."""

_CHILD_FIELDS: dict[type, tuple[str, ...]] = {
    ast.Constant: (),
    ast.Name: (),
    ast.Import: (),
    ast.ImportFrom: (),
}
"""Per node class, the fields the walk descends into (filled as classes are met)."""


def _child_fields(kind: type) -> tuple[str, ...]:
    fields = tuple(name for name in kind._fields if name not in _LEAVES)  # type: ignore[attr-defined]
    _CHILD_FIELDS[kind] = fields
    return fields


_last: ModuleView | None = None
"""The last view built: the facts' screen and the check's ask for the same tree."""


def view_of(tree: ast.Module, path: str) -> ModuleView:
    """One walk of ``tree``: the names a family's screen reads (``ModuleView``)."""
    global _last
    last = _last
    if last is not None and last.tree is tree:
        if last.path != path:
            _last = last = replace(last, path=path)
        return last
    words: set[str] = set()
    decorators: set[str] = set()
    called: set[str] = set()
    bases: set[str] = set()
    placed: list[tuple[tuple[int, int], str, str]] = []  # (position, local, qualified)
    attribute_decorators: set[str] = set()
    functions = False
    prose: set[int] = set()  # string statements: docstrings, commented-out code
    child_fields = _CHILD_FIELDS
    node_type = ast.AST
    stack: list[ast.AST] = [tree]  # iterative: any depth
    push = stack.append
    nodes: list[ast.AST] = []
    visit = nodes.append
    while stack:
        node = stack.pop()
        visit(node)
        kind = type(node)
        if kind is ast.Name:
            words.add(node.id)  # type: ignore[attr-defined]
            continue
        if kind is ast.Attribute:
            words.add(node.attr)  # type: ignore[attr-defined]
        elif kind is ast.Constant:
            value = node.value  # type: ignore[attr-defined]
            if type(value) is str and len(value) <= LONGEST_STRING and id(node) not in prose:
                words.add(value)
            continue
        elif kind is ast.Expr:
            if type(node.value) is ast.Constant:  # type: ignore[attr-defined]
                prose.add(id(node.value))  # type: ignore[attr-defined]
        elif kind is ast.Call:
            _add_last(called, node.func)  # type: ignore[attr-defined]
        elif kind is ast.keyword:
            if node.arg is not None:  # type: ignore[attr-defined]
                words.add(node.arg)  # type: ignore[attr-defined]
        elif kind is ast.arg:
            words.add(node.arg)  # type: ignore[attr-defined]
        elif kind is ast.FunctionDef or kind is ast.AsyncFunctionDef:
            functions = True
            words.add(node.name)  # type: ignore[attr-defined]
            for decorator in node.decorator_list:  # type: ignore[attr-defined]
                _add_last(decorators, decorator)
                called_form = decorator.func if type(decorator) is ast.Call else decorator
                if type(called_form) is ast.Attribute:
                    attribute_decorators.add(called_form.attr)
        elif kind is ast.Lambda:
            functions = True
        elif kind is ast.ClassDef:
            words.add(node.name)  # type: ignore[attr-defined]
            for decorator in node.decorator_list:  # type: ignore[attr-defined]
                _add_last(decorators, decorator)
            for base in node.bases:  # type: ignore[attr-defined]
                _add_last(bases, base)
            for keyword in node.keywords:  # type: ignore[attr-defined]
                _add_last(bases, keyword.value)  # ``metaclass=``
        elif kind is ast.Import:
            at = (node.lineno, node.col_offset)  # type: ignore[attr-defined]
            for alias in node.names:  # type: ignore[attr-defined]
                local = alias.asname or alias.name.partition(".")[0]
                placed.append((at, local, alias.name if alias.asname else local))
            continue
        elif kind is ast.ImportFrom:
            module = "." * node.level + (node.module or "")  # type: ignore[attr-defined]
            at = (node.lineno, node.col_offset)  # type: ignore[attr-defined]
            for alias in node.names:  # type: ignore[attr-defined]
                if alias.name != "*":
                    placed.append((at, alias.asname or alias.name, f"{module}.{alias.name}"))
            continue
        elif kind is ast.MatchClass:
            _add_last(called, node.cls)  # type: ignore[attr-defined]
        fields = child_fields.get(kind)
        if fields is None:
            fields = _child_fields(kind)
        for name in fields:
            value = getattr(node, name, None)
            if type(value) is list:
                for item in value:
                    if isinstance(item, node_type):
                        push(item)
            elif isinstance(value, node_type):
                push(value)
    placed.sort()  # the walk is depth-first, last child first: back to the text's order
    pairs = [(local, qualified) for _, local, qualified in placed]
    imports = dict(pairs)
    for local, qualified in pairs:  # an alias counts under its imported name too
        original = qualified.rpartition(".")[2]
        if original == local:
            continue
        for names in (words, decorators, called, bases):
            if local in names:
                names.add(original)
    _last = view = ModuleView(
        path=path,
        tree=tree,
        words=frozenset(words),
        decorators=frozenset(decorators),
        called=frozenset(called),
        bases=frozenset(bases),
        imports=imports,
        functions=functions,
        import_pairs=tuple(pairs),
        attribute_decorators=frozenset(attribute_decorators),
        _folded="\n".join(words).casefold(),
        nodes=nodes,
    )
    return view


def nodes_of(tree: ast.Module) -> Sequence[ast.AST]:
    """The nodes of ``tree`` that can hold a name or an expression, parents before
    children (depth first): every node but expression contexts, operators and an import's
    aliases (which ``ast.walk`` also yields). The last view's list when it is of this
    tree (the screens run just before a parse)."""
    last = _last
    if last is not None and last.tree is tree:
        return last.nodes
    return view_of(tree, "").nodes


def _add_last(names: set[str], node: ast.expr) -> None:
    """The name an expression ends in: ``a.b.c`` → ``c``, ``f(...)`` → ``f``'s, ``x[...]``
    → ``x``'s (``Tool[...]``); nothing for other expressions."""
    while True:
        kind = type(node)
        if kind is ast.Name:
            names.add(node.id)  # type: ignore[attr-defined]
            return
        if kind is ast.Attribute:
            names.add(node.attr)  # type: ignore[attr-defined]
            return
        if kind is ast.Call:
            node = node.func  # type: ignore[attr-defined]
        elif kind is ast.Subscript:
            node = node.value  # type: ignore[attr-defined]
        else:
            return


def needed_by_any(view: ModuleView, screens: Iterable[object]) -> bool:
    """Whether any of the families ``screens`` needs the module parsed: a family without
    a ``needs_libcst`` always does."""
    for family in screens:
        needs = getattr(family, "needs_libcst", None)
        if needs is None or needs(view):
            return True
    return False
