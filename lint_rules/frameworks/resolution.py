"""What a name in a module certainly refers to, for families whose tools hang off an object.

An MCP tool is registered on a *server* (``@mcp.tool()``), a Pydantic AI tool on
an *agent* or a *toolset* (``@agent.tool``): before a decorator means anything,
the family must know what ``mcp`` / ``agent`` is where it is used. The answer is a
family-defined *kind* (the server's origin, agent vs toolset), and the ways a name
gets one are the same for both:

- a call the family recognises (a constructor through imports; MCP also follows
  same-module factories);
- a local of the function the name is used in, or of a function around it,
  bound once (``mcp = FastMCP(...)`` in a ``create_server()``), or a parameter
  annotated with one of the classes (``def register(mcp: FastMCP)``);
- ``self.<name>``, when every assignment of ``self.<name>`` in the module gives
  the same kind;
- a module-level name bound once (resolution guarded: a factory returning the
  module's own server is not followed round in circles);
- the family's last resort (MCP: a server imported from another module of the
  project).

Anything else — a lambda's names, a string annotation, a name bound twice — is not
known, and the family's rules say nothing about it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property
from typing import Generic, TypeVar

import libcst as cst

from lint_rules.analysis.bindings import local_bindings
from lint_rules.analysis.module import ParsedModule
from lint_rules.analysis.returns import FunctionFlow, analyse_function
from lint_rules.analysis.walk import find_indexed

K = TypeVar("K")
MAX_DEPTH = 4
"""How many assignments, factories or aliases are followed before giving up."""


@dataclass
class FlowCache:
    """A module's functions' return flows (``analysis.returns``), each computed once."""

    module: ParsedModule
    _flows: dict[int, FunctionFlow] = field(default_factory=dict, repr=False)

    def flow(self, function: cst.FunctionDef) -> FunctionFlow:
        kept = self._flows.get(id(function))
        if kept is None:
            kept = self._flows[id(function)] = analyse_function(function, self.module)
        return kept


@dataclass
class NameResolver(FlowCache, Generic[K]):
    """The resolution above; a family defines ``kind_of_call`` and ``kind_of_class``
    (and, if it has one, ``kind_of_import``)."""

    _locals: dict[int, dict[str, tuple[str, cst.BaseExpression | None]]] = field(
        default_factory=dict, repr=False
    )
    _module_kinds: dict[str, K | None] = field(default_factory=dict, repr=False)
    _resolving: set[str] = field(default_factory=set, repr=False)
    _attributes_resolving: bool = field(default=False, repr=False)

    # -- what the family defines

    def kind_of_call(self, node: cst.BaseExpression | None, depth: int = 0) -> K | None:
        """The kind of the object a call builds (``None``: not one of the family's)."""
        raise NotImplementedError

    def kind_of_class(self, node: cst.BaseExpression) -> K | None:
        """The kind of an instance of the class ``node`` names (an annotation)."""
        raise NotImplementedError

    def kind_of_qualified(self, qualified: str) -> K | None:
        """The kind of an instance of the class with this qualified name (default: none).
        A family that defines it gets objects made in other modules of the project:
        ``agent = build_agent()`` with an imported factory, ``from .app import agent``."""
        return None

    def kind_of_import(self, name: str) -> K | None:
        """The kind of a module-level name bound by an import: the object another module
        of the project binds it to (the project's summaries, ``analysis.summaries``)."""
        qualified = self.module.imports.get(name)
        if qualified is None:
            return None
        found = self.module.summaries.class_of_value(self.module.path, qualified)
        return None if found is None else self.kind_of_qualified(found)

    def call_kind(self, node: cst.BaseExpression | None, depth: int = 0) -> K | None:
        """``kind_of_call``, else what a call of a function of another project module
        returns (a factory: ``build_agent()``, ``create_server()``)."""
        kind = self.kind_of_call(node, depth)
        if kind is not None or not isinstance(node, cst.Call):
            return kind
        func = node.func.value if isinstance(node.func, cst.Subscript) else node.func
        root = func
        while isinstance(root, cst.Attribute):
            root = root.value
        if not isinstance(root, cst.Name) or root.value in self.module.shadowed:
            return None
        qualified = self.module.qualified_name(func)
        if qualified is None:
            return None
        found = self.module.summaries.class_of_call(self.module.path, qualified)
        return None if found is None else self.kind_of_qualified(found)

    # -- resolution

    def kind_in(
        self, function: cst.FunctionDef | None, node: cst.BaseExpression | None, depth: int = 0
    ) -> K | None:
        """What the expression ``node`` of ``function`` (``None``: the module body) is."""
        if node is None or depth > MAX_DEPTH:
            return None
        if isinstance(node, cst.Call):
            return self.call_kind(node, depth)
        if isinstance(node, cst.Attribute):
            if isinstance(node.value, cst.Name) and node.value.value == "self":
                if self._attributes_resolving:
                    return None  # ``self.a = self.b``: not followed
                return self.attribute_kinds.get(node.attr.value)
            return None
        if not isinstance(node, cst.Name):
            return None
        name = node.value
        for scope in self.enclosing_functions(function):
            local = self.local_binding(scope, name)
            if local is not None:
                how, value = local
                if how == "parameter":
                    return self.annotated_kind(value)
                if how == "assigned":
                    return self.kind_in(scope, value, depth + 1)
                return None  # bound some other way
        if name in self.module.shadowed:
            return None
        kind = self.module_kind(name)
        if kind is not None:
            return kind
        return self.kind_of_import(name)

    def annotated_kind(self, annotation: cst.BaseExpression | None) -> K | None:
        if annotation is None or isinstance(annotation, (cst.SimpleString, cst.ConcatenatedString)):
            return None  # no annotation, or a string one: not resolved
        return self.kind_of_class(annotation)

    def module_kind(self, name: str) -> K | None:
        """The kind of a module-level name bound once; a name whose resolution is under
        way (a factory that returns the module's own object) is not known."""
        if name in self._module_kinds:
            return self._module_kinds[name]
        value = self.module.constants.get(name)
        if value is None or name in self._resolving:
            return None
        self._resolving.add(name)
        try:
            kind = self.call_kind(value)
        finally:
            self._resolving.discard(name)
        self._module_kinds[name] = kind
        return kind

    @cached_property
    def attribute_kinds(self) -> dict[str, K]:
        """``self.<name>`` attributes assigned (anywhere in the module) only objects of
        one kind: ``self.mcp = FastMCP(...)``, or ``self.mcp = mcp`` of an annotated
        parameter."""
        found: dict[str, set[K | None]] = {}
        self._attributes_resolving = True
        try:
            for node in find_indexed(self.module.tree, cst.Assign, cst.AnnAssign, nested=True):
                targets: list[cst.BaseExpression]
                if isinstance(node, cst.Assign):
                    targets = [t.target for t in node.targets]
                    value: cst.BaseExpression | None = node.value
                else:
                    assert isinstance(node, cst.AnnAssign)
                    targets, value = [node.target], node.value
                for target in targets:
                    if (
                        isinstance(target, cst.Attribute)
                        and isinstance(target.value, cst.Name)
                        and target.value.value == "self"
                    ):
                        kind = self.kind_in(self.function_of(node), value)
                        found.setdefault(target.attr.value, set()).add(kind)
        finally:
            self._attributes_resolving = False
        known: dict[str, K] = {}
        for name, kinds in found.items():
            only = next(iter(kinds)) if len(kinds) == 1 else None
            if only is not None:
                known[name] = only
        return known

    # -- scopes

    def function_of(self, node: cst.CSTNode) -> cst.FunctionDef | None:
        """The function whose own code holds ``node`` (``None``: the module body or a
        class body)."""
        index = self.module.index
        scope = index.enclosing_scope(node)
        while isinstance(scope, cst.ClassDef):
            scope = index.enclosing_scope(scope)
        return scope if isinstance(scope, cst.FunctionDef) else None

    def enclosing_functions(self, function: cst.FunctionDef | None) -> Iterator[cst.FunctionDef]:
        """``function`` and the functions around it (through classes; a lambda stops)."""
        index = self.module.index
        node: cst.CSTNode | None = function
        while isinstance(node, cst.FunctionDef):
            yield node
            node = index.enclosing_scope(node)
            while node is not None and not isinstance(node, cst.FunctionDef):
                if isinstance(node, cst.ClassDef):
                    node = index.enclosing_scope(node)
                    continue
                return  # a lambda: its names are not followed

    def local_binding(
        self, function: cst.FunctionDef, name: str
    ) -> tuple[str, cst.BaseExpression | None] | None:
        """How ``function`` binds ``name`` itself (``analysis.bindings.local_bindings``);
        ``None`` if it does not."""
        table = self._locals.get(id(function))
        if table is None:
            table = self._locals[id(function)] = local_bindings(function)
        return table.get(name)

    def function_named(self, where: cst.FunctionDef | None, name: str) -> cst.FunctionDef | None:
        """The ``def`` a name refers to where it is used: a nested ``def`` of an enclosing
        function (defined once, not otherwise bound), else a top-level one."""
        for scope in self.enclosing_functions(where):
            binding = self.local_binding(scope, name)
            if binding is None:
                continue
            defs = [
                n
                for n in find_indexed(scope.body, cst.FunctionDef)
                if isinstance(n, cst.FunctionDef) and n.name.value == name
            ]
            return defs[0] if binding[0] == "def" and len(defs) == 1 else None
        if name in self.module.shadowed or name in self.module.constants:
            return None
        return self.module.functions.get(name)
