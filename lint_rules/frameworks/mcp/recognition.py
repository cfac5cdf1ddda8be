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
from dataclasses import dataclass, field
from functools import cached_property

import libcst as cst

from lint_rules import prefilter
from lint_rules.analysis.module import ParsedModule
from lint_rules.analysis.project import Project
from lint_rules.analysis.shapes import ShapeInference
from lint_rules.analysis.walk import find_indexed
from lint_rules.frameworks.resolution import MAX_DEPTH, NameResolver
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
class McpFile(NameResolver[Origin]):
    """One module that may define MCP server tools (the *kind* of a name: its server's
    origin, ``frameworks/resolution.py``)."""

    project: Project | None = None
    _factories: dict[int, Origin | None] = field(default_factory=dict, repr=False)
    _subclasses: set[int] = field(default_factory=set, repr=False)

    # -- servers

    def kind_of_class(self, node: cst.BaseExpression) -> Origin | None:
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
            origin = self.kind_of_class(bases[0])
        finally:
            self._subclasses.discard(id(cls))
        if origin is None:
            return None
        for node in find_indexed(cls.body, cst.FunctionDef):
            assert isinstance(node, cst.FunctionDef)
            if node.name.value in _OVERRIDES:
                return None  # its own registration or calling: not the SDK's
        return origin

    def kind_of_call(self, node: cst.BaseExpression | None, depth: int = 0) -> Origin | None:
        """The origin of a server built by ``node``: a constructor call, or a call of a
        same-module factory that returns one."""
        if isinstance(node, cst.Await):
            node = node.expression
        if not isinstance(node, cst.Call):
            return None
        origin = self.kind_of_class(node.func)
        if origin is not None:
            return origin
        if depth < MAX_DEPTH and isinstance(node.func, cst.Name):
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
            found.add(self.kind_in(function, value, depth) if value is not None else None)
        origin = found.pop() if len(found) == 1 else None
        self._factories[key] = origin
        return origin

    def kind_of_import(self, name: str) -> Origin | None:
        """A server imported from another module of the project (whole-project mode)."""
        qualified = self.module.imports.get(name)
        if qualified is None or self.project is None or self.project.index is None:
            return None
        lookup = getattr(self.project.index, "mcp_server", None)
        raw = lookup(self.module.path, qualified) if lookup is not None else None
        return Origin(raw) if raw is not None else None

    # -- registrations and tools

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
                origin = self.kind_in(self.function_of(node), expr.value)
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
        origin = self.kind_in(where, owner)
        if origin is None or origin is Origin.LOWLEVEL:
            return None
        function = self.function_named(where, target.value)
        return (function, origin) if function is not None else None

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
                    and self.kind_in(self.function_of(node), func.value) is Origin.LOWLEVEL
                ):
                    found.append((node, "decorated"))
        for call in find_indexed(self.module.tree, cst.Call, nested=True):
            assert isinstance(call, cst.Call)
            if self.kind_of_class(call.func) is not Origin.LOWLEVEL:
                continue
            for arg in call.args:
                if (
                    arg.keyword is not None
                    and arg.keyword.value == "on_call_tool"
                    and isinstance(arg.value, cst.Name)
                ):
                    function = self.function_named(self.function_of(call), arg.value.value)
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
        return module.remembered(
            _MEMO, (project, project.index), lambda: McpFile(module, project=project)
        )
    return module.remembered(_MEMO, (), lambda: McpFile(module))


_MEMO = "mcp.recognise"
