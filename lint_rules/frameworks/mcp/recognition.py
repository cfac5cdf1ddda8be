"""Recognition of MCP server tools: where each server comes from, and its tools.

**The origin of the server decides the rules.** A server is a call of one of
the server classes, resolved through imports (never by the bare name
``FastMCP``): the official SDK's ``FastMCP`` (``mcp.server.fastmcp``, 1.x) and
``MCPServer`` (``mcp.server.mcpserver``, 2.x), the standalone ``fastmcp``
package's ``FastMCP``, or the low-level ``Server``. An expression is known to
be a server when it is

- a module-level name bound to such a call, or to a call of a same-module
  factory function that returns one;
- a local of the function that binds it so, or a parameter annotated with one
  of the classes (``def register(mcp: FastMCP)``);
- ``self.<name>`` where some method of the module assigns ``self.<name>`` such
  a call;
- a name imported from another module of the project where it is so bound
  (whole-project mode: ``from .server import mcp``).

Tools are the functions decorated ``@server.tool`` / ``@server.tool(...)``, or
registered with ``server.add_tool(fn)`` / ``server.tool(...)(fn)``; low-level
handlers are ``@server.call_tool()`` functions and 2.x ``Server(...,
on_call_tool=fn)``.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property

import libcst as cst

from lint_rules import prefilter
from lint_rules.analysis.bindings import local_bindings
from lint_rules.analysis.module import ParsedModule
from lint_rules.analysis.project import Project
from lint_rules.analysis.returns import FunctionFlow, analyse_function
from lint_rules.analysis.shapes import ShapeInference
from lint_rules.analysis.walk import find_indexed
from lint_rules.frameworks.tool_function import in_expected_failure, may_fall_through


class Origin(enum.Enum):
    OFFICIAL = "official"
    """The official SDK's high-level server (``mcp`` 1.x ``FastMCP``, 2.x ``MCPServer``)."""
    STANDALONE = "fastmcp"
    """The standalone ``fastmcp`` package."""
    LOWLEVEL = "lowlevel"
    """The official SDK's low-level ``Server``."""


SERVER_CLASSES: dict[str, Origin] = {
    "mcp.server.FastMCP": Origin.OFFICIAL,
    "mcp.server.fastmcp.FastMCP": Origin.OFFICIAL,
    "mcp.server.fastmcp.server.FastMCP": Origin.OFFICIAL,
    "mcp.server.MCPServer": Origin.OFFICIAL,
    "mcp.server.mcpserver.MCPServer": Origin.OFFICIAL,
    "mcp.server.mcpserver.server.MCPServer": Origin.OFFICIAL,
    "fastmcp.FastMCP": Origin.STANDALONE,
    "fastmcp.server.FastMCP": Origin.STANDALONE,
    "fastmcp.server.server.FastMCP": Origin.STANDALONE,
    "mcp.server.Server": Origin.LOWLEVEL,
    "mcp.server.lowlevel.Server": Origin.LOWLEVEL,
    "mcp.server.lowlevel.server.Server": Origin.LOWLEVEL,
}
"""Qualified names of the server classes (mcp 1.x and 2.x, fastmcp)."""
REGISTRARS = frozenset({"tool", "resource", "prompt"})
_OVERRIDES = frozenset(
    {"tool", "add_tool", "resource", "prompt", "call_tool", "_call_tool", "_mcp_call_tool"}
)
"""Methods a server subclass may override to change what a tool's return value does."""
_MAX_DEPTH = 4


def has_signal(source: str, path: str) -> bool:
    return prefilter.has_signal("mcp", source, path)


@dataclass
class McpTool:
    """A function an MCP server calls as a tool."""

    function: cst.FunctionDef
    origin: Origin
    decorator: cst.Decorator | None
    """The ``@server.tool...`` decorator (``None``: registered by a call)."""

    @property
    def name(self) -> str:
        return self.function.name.value


@dataclass
class Registration:
    """A decorator ``@server.tool`` / ``.resource`` / ``.prompt`` of a known server."""

    decorator: cst.Decorator
    function: cst.FunctionDef
    origin: Origin
    kind: str
    """``tool``, ``resource`` or ``prompt``."""
    called: bool
    """``@server.tool()`` rather than ``@server.tool``."""


@dataclass
class McpFile:
    """One module that may define MCP server tools."""

    module: ParsedModule
    project: Project | None = None
    _flows: dict[int, FunctionFlow] = field(default_factory=dict, repr=False)
    _module_servers: dict[str, Origin | None] = field(default_factory=dict, repr=False)
    _resolving: set[str] = field(default_factory=set, repr=False)
    _factories: dict[int, Origin | None] = field(default_factory=dict, repr=False)
    _attributes_resolving: bool = field(default=False, repr=False)
    _subclasses: set[int] = field(default_factory=set, repr=False)

    # -- servers

    def class_origin(self, node: cst.BaseExpression) -> Origin | None:
        """The origin of a server class: one of the SDKs' classes through imports, or a
        same-module subclass of one that does not override how tools are registered or
        called (``class OrdersServer(FastMCP): ...``)."""
        if isinstance(node, cst.Subscript):
            node = node.value  # FastMCP[State]
        qualified = self.module.qualified_name(node)
        if qualified is not None and qualified in SERVER_CLASSES:
            return SERVER_CLASSES[qualified]
        if (
            isinstance(node, cst.Name)
            and node.value in self.module.classes
            and node.value not in self.module.shadowed
        ):
            return self._subclass_origin(self.module.classes[node.value])
        return None

    def _subclass_origin(self, cls: cst.ClassDef) -> Origin | None:
        bases = [arg.value for arg in cls.bases if arg.keyword is None]
        if len(bases) != 1 or id(cls) in self._subclasses:
            return None
        self._subclasses.add(id(cls))
        try:
            origin = self.class_origin(bases[0])
        finally:
            self._subclasses.discard(id(cls))
        if origin is None:
            return None
        for node in find_indexed(cls.body, cst.FunctionDef):
            assert isinstance(node, cst.FunctionDef)
            if node.name.value in _OVERRIDES:
                return None  # its own registration or calling: not the SDK's
        return origin

    def call_origin(self, node: cst.BaseExpression | None, depth: int = 0) -> Origin | None:
        """The origin of a server built by ``node``: a constructor call, or a call of a
        same-module factory that returns one."""
        if isinstance(node, cst.Await):
            node = node.expression
        if not isinstance(node, cst.Call):
            return None
        origin = self.class_origin(node.func)
        if origin is not None:
            return origin
        if depth < _MAX_DEPTH and isinstance(node.func, cst.Name):
            name = node.func.value
            if name not in self.module.shadowed and name in self.module.functions:
                return self.factory_origin(self.module.functions[name], depth + 1)
        return None

    def factory_origin(self, function: cst.FunctionDef, depth: int = 0) -> Origin | None:
        """The origin every return of a factory function agrees on, if it returns a server."""
        key = id(function)
        if key in self._factories:
            return self._factories[key]
        self._factories[key] = None  # while it is resolved: not known (recursion)
        found: set[Origin | None] = set()
        flow = self.flow(function)
        for site in flow.sites:
            value = site.value
            found.add(self.origin_in(function, value, depth) if value is not None else None)
        origin = found.pop() if len(found) == 1 else None
        self._factories[key] = origin
        return origin

    def flow(self, function: cst.FunctionDef) -> FunctionFlow:
        kept = self._flows.get(id(function))
        if kept is None:
            kept = self._flows[id(function)] = analyse_function(
                function, self.module.never_returning()
            )
        return kept

    def module_server(self, name: str) -> Origin | None:
        """The origin of a module-level name bound (once) to a server. A name whose
        resolution is under way (a factory that returns the module's own server) is not
        known."""
        if name in self._module_servers:
            return self._module_servers[name]
        value = self.module.constants.get(name)
        if value is None or name in self._resolving:
            return None
        self._resolving.add(name)
        try:
            origin = self.call_origin(value)
        finally:
            self._resolving.discard(name)
        self._module_servers[name] = origin
        return origin

    @cached_property
    def attribute_servers(self) -> dict[str, Origin]:
        """``self.<name>`` attributes assigned a server (and nothing else) in the module."""
        found: dict[str, set[Origin | None]] = {}
        self._attributes_resolving = True
        try:
            self._attribute_origins(found)
        finally:
            self._attributes_resolving = False
        known: dict[str, Origin] = {}
        for name, origins in found.items():
            only = next(iter(origins)) if len(origins) == 1 else None
            if only is not None:
                known[name] = only
        return known

    def _attribute_origins(self, found: dict[str, set[Origin | None]]) -> None:
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
                    # ``self.mcp = FastMCP(...)``, or ``self.mcp = mcp`` of a parameter
                    # annotated with a server class
                    origin = self.origin_in(self.function_of(node), value)
                    found.setdefault(target.attr.value, set()).add(origin)

    def origin_in(
        self, function: cst.FunctionDef | None, node: cst.BaseExpression | None, depth: int = 0
    ) -> Origin | None:
        """The origin of the server an expression of ``function`` (``None``: the module
        body) refers to, if it is certainly one."""
        if node is None or depth > _MAX_DEPTH:
            return None
        if isinstance(node, cst.Call):
            return self.call_origin(node, depth)
        if isinstance(node, cst.Attribute):
            if isinstance(node.value, cst.Name) and node.value.value == "self":
                if self._attributes_resolving:
                    return None  # ``self.a = self.b``: not followed
                return self.attribute_servers.get(node.attr.value)
            return None
        if not isinstance(node, cst.Name):
            return None
        name = node.value
        for scope in self._enclosing_functions(function):
            local = self._local_binding(scope, name)
            if local is not None:
                kind, value = local
                if kind == "parameter":
                    return self._annotated_origin(value)
                if kind == "assigned":
                    return self.origin_in(scope, value, depth + 1)
                return None  # bound some other way
        if name in self.module.shadowed:
            return None
        origin = self.module_server(name)
        if origin is not None:
            return origin
        return self.imported_server(name)

    def imported_server(self, name: str) -> Origin | None:
        """A server imported from another module of the project (whole-project mode)."""
        qualified = self.module.imports.get(name)
        if qualified is None or self.project is None or self.project.index is None:
            return None
        lookup = getattr(self.project.index, "mcp_server", None)
        raw = lookup(self.module.path, qualified) if lookup is not None else None
        return Origin(raw) if raw is not None else None

    def _enclosing_functions(self, function: cst.FunctionDef | None) -> Iterator[cst.FunctionDef]:
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

    @cached_property
    def _locals(self) -> dict[int, dict[str, tuple[str, cst.BaseExpression | None]]]:
        return {}

    def _local_binding(
        self, function: cst.FunctionDef, name: str
    ) -> tuple[str, cst.BaseExpression | None] | None:
        """How ``function`` binds ``name`` itself: ``("parameter", annotation)``,
        ``("assigned", value)`` (assigned once), ``("other", None)``; ``None`` if it does
        not bind it."""
        table = self._locals.get(id(function))
        if table is None:
            table = self._locals[id(function)] = local_bindings(function)
        return table.get(name)

    def _annotated_origin(self, annotation: cst.BaseExpression | None) -> Origin | None:
        if annotation is None:
            return None
        if isinstance(annotation, (cst.SimpleString, cst.ConcatenatedString)):
            return None  # a string annotation: not resolved
        return self.class_origin(annotation)

    # -- registrations and tools

    def function_of(self, node: cst.CSTNode) -> cst.FunctionDef | None:
        """The function whose own code holds ``node`` (``None``: the module body or a
        class body)."""
        index = self.module.index
        scope = index.enclosing_scope(node)
        while isinstance(scope, cst.ClassDef):
            scope = index.enclosing_scope(scope)
        return scope if isinstance(scope, cst.FunctionDef) else None

    @cached_property
    def registrations(self) -> list[Registration]:
        """Every ``@server.tool`` / ``.resource`` / ``.prompt`` decorator of a known server."""
        found = []
        for node in find_indexed(self.module.tree, cst.FunctionDef, nested=True):
            assert isinstance(node, cst.FunctionDef)
            for decorator in node.decorators:
                expr = decorator.decorator
                called = isinstance(expr, cst.Call)
                if isinstance(expr, cst.Call):
                    expr = expr.func
                if not isinstance(expr, cst.Attribute) or expr.attr.value not in REGISTRARS:
                    continue
                origin = self.origin_in(self.function_of(node), expr.value)
                if origin is None or origin is Origin.LOWLEVEL:
                    continue
                found.append(Registration(decorator, node, origin, expr.attr.value, called))
        return found

    @cached_property
    def tools(self) -> list[McpTool]:
        """The module's tool functions, each once."""
        found: dict[int, McpTool] = {}
        for registration in self.registrations:
            if registration.kind == "tool" and id(registration.function) not in found:
                found[id(registration.function)] = McpTool(
                    registration.function, registration.origin, registration.decorator
                )
        for call in find_indexed(self.module.tree, cst.Call, nested=True):
            assert isinstance(call, cst.Call)
            registered = self._registered_by_call(call)
            if registered is not None and id(registered[0]) not in found:
                found[id(registered[0])] = McpTool(registered[0], registered[1], None)
        return sorted(found.values(), key=lambda t: self._position(t.function))

    def _position(self, node: cst.CSTNode) -> int:
        return self.module.index.span(node)[0]

    def _registered_by_call(self, call: cst.Call) -> tuple[cst.FunctionDef, Origin] | None:
        """``server.add_tool(fn)`` or ``server.tool(...)(fn)`` of a same-module function."""
        func = call.func
        if len(call.args) < 1 or call.args[0].keyword is not None or call.args[0].star:
            return None
        if isinstance(func, cst.Attribute) and func.attr.value == "add_tool":
            owner: cst.BaseExpression = func.value
        elif (
            isinstance(func, cst.Call)
            and isinstance(func.func, cst.Attribute)
            and func.func.attr.value == "tool"
            and len(call.args) == 1
        ):
            owner = func.func.value
        else:
            return None
        target = call.args[0].value
        if not isinstance(target, cst.Name):
            return None
        where = self.function_of(call)
        origin = self.origin_in(where, owner)
        if origin is None or origin is Origin.LOWLEVEL:
            return None
        function = self._function_named(where, target.value)
        return (function, origin) if function is not None else None

    def _function_named(self, where: cst.FunctionDef | None, name: str) -> cst.FunctionDef | None:
        """The ``def`` a name refers to where it is used: a nested ``def`` of the enclosing
        function (defined once, not otherwise bound), else a top-level one."""
        for scope in self._enclosing_functions(where):
            binding = self._local_binding(scope, name)
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

    @cached_property
    def call_tool_handlers(self) -> list[tuple[cst.FunctionDef, str]]:
        """Low-level handlers: ``@server.call_tool()`` functions (``"decorated"``) and the
        functions given as ``Server(..., on_call_tool=fn)`` (``"on_call_tool"``)."""
        found: list[tuple[cst.FunctionDef, str]] = []
        for node in find_indexed(self.module.tree, cst.FunctionDef, nested=True):
            assert isinstance(node, cst.FunctionDef)
            for decorator in node.decorators:
                expr = decorator.decorator
                if not isinstance(expr, cst.Call):
                    continue
                func = expr.func
                if (
                    isinstance(func, cst.Attribute)
                    and func.attr.value == "call_tool"
                    and self.origin_in(self.function_of(node), func.value) is Origin.LOWLEVEL
                ):
                    found.append((node, "decorated"))
        for call in find_indexed(self.module.tree, cst.Call, nested=True):
            assert isinstance(call, cst.Call)
            if self.class_origin(call.func) is not Origin.LOWLEVEL:
                continue
            for arg in call.args:
                if (
                    arg.keyword is not None
                    and arg.keyword.value == "on_call_tool"
                    and isinstance(arg.value, cst.Name)
                ):
                    function = self._function_named(self.function_of(call), arg.value.value)
                    if function is not None:
                        found.append((function, "on_call_tool"))
        return found

    def may_fall_through(self, function: cst.FunctionDef) -> bool:
        return may_fall_through(self.module, function)

    def in_expected_failure(self, node: cst.CSTNode) -> bool:
        return in_expected_failure(self.module, node)

    def inference(self, function: cst.FunctionDef) -> ShapeInference:
        return ShapeInference(self.module, function)


def recognise(module: ParsedModule, project: Project | None = None) -> McpFile:
    """The module's MCP facts, kept on the module for the rules of one parse."""
    if project is not None and project.index is not None:
        return module.remembered(_MEMO, (project, project.index), lambda: McpFile(module, project))
    return module.remembered(_MEMO, (), lambda: McpFile(module))


_MEMO = "mcp.recognise"
