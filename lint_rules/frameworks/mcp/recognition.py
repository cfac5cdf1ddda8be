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
TOOL_CLASSES = frozenset(
    {
        "mcp.server.fastmcp.tools.Tool",
        "mcp.server.fastmcp.tools.base.Tool",
        "mcp.server.mcpserver.tools.Tool",
        "mcp.server.mcpserver.tools.base.Tool",
        "fastmcp.Tool",
        "fastmcp.tools.Tool",
        "fastmcp.tools.FunctionTool",
        "fastmcp.tools.tool.Tool",
        "fastmcp.tools.tool.FunctionTool",
        "fastmcp.tools.function_tool.FunctionTool",
    }
)
"""Tool classes whose ``from_function(fn, ...)`` makes a tool of ``fn`` (mcp 1.30 / 2.x,
fastmcp 2.x–4.x), for ``add_tool(Tool.from_function(fn))`` and ``tools=[...]``."""
_OWN_SCHEMA = frozenset({"output_schema", "structured_output"})
"""Keywords that replace the output schema the annotation would give: such a registration
is not judged by the annotation (TRV602, TRV604)."""
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
    own_schema: bool = False
    """Registered with an output schema of its own (``structured_output=``,
    ``output_schema=``): the annotation does not decide what the client validates."""

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
        if qualified is None:
            return None
        index = self.project.index if self.project is not None else None
        lookup = getattr(index, "mcp_server", None)
        raw = lookup(self.module.path, qualified) if lookup is not None else None
        if raw is not None:
            return Origin(raw)
        return super().kind_of_import(name)  # a server made by a factory of another module

    def kind_of_qualified(self, qualified: str) -> Origin | None:
        return SERVER_CLASSES.get(qualified)

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
                expr = registration.decorator.decorator
                own = isinstance(expr, cst.Call) and _own_schema(expr)
                found[id(registration.function)] = McpTool(
                    registration.function, registration.origin, registration.decorator, own
                )
        for target, origin, where, own in self.registered_by_calls:
            function = self.function_named(where, target.value)
            if function is not None and id(function) not in found:
                found[id(function)] = McpTool(function, origin, None, own)
        for name, value in self._registered_elsewhere().items():
            function = self.module.functions.get(name)
            if function is not None and name not in self.module.shadowed:
                value_origin, _, flag = value.partition(":")
                tool = McpTool(function, Origin(value_origin), None, own_schema=bool(flag))
                found.setdefault(id(function), tool)
        return sorted(found.values(), key=lambda t: self._position(t.function))

    def _registered_elsewhere(self) -> dict[str, str]:
        """Functions of this module that another module of the project registers as tools
        (``mcp.add_tool(search)``, ``FastMCP(tools=[search])`` after ``from .tools import
        search``): name → the server's origin value (whole-project mode)."""
        if self.project is None or self.project.index is None:
            return {}
        lookup = getattr(self.project.index, "mcp_tools_in", None)
        return lookup(self.module.path) if lookup is not None else {}

    def _position(self, node: cst.CSTNode) -> int:
        return self.module.index.span(node)[0]

    @cached_property
    def registered_by_calls(
        self,
    ) -> list[tuple[cst.Name, Origin, cst.FunctionDef | None, bool]]:
        """The names registered as tools by calls, with their server's origin and the
        function the call is in: ``server.add_tool(fn)``, ``server.add_tool(Tool.
        from_function(fn))``, ``server.tool(...)(fn)`` and ``FastMCP(..., tools=[fn,
        Tool.from_function(fn)])`` (a bare function only where the package takes one:
        standalone ``fastmcp``), and whether it brings its own output schema
        (``structured_output=``, ``output_schema=``: the annotation does not decide)."""
        found: list[tuple[cst.Name, Origin, cst.FunctionDef | None, bool]] = []
        for target, owner, where, own in self._call_registrations():
            origin = owner if isinstance(owner, Origin) else self.kind_in(where, owner)
            if origin is None or origin is Origin.LOWLEVEL:
                continue
            name = self._registered_name(target, bare=self._takes_bare(owner, origin))
            if name is not None:
                found.append((name, origin, where, own))
        return found

    def imported_registrations(self) -> list[tuple[str, str]]:
        """For the project index: ``(server, function)`` of each registration of a function
        this module imports — ``server`` the origin value of a server known here, or
        ``import:<qualified>`` for an imported server; ``function`` qualified, as the
        imports spell it."""
        found: list[tuple[str, str]] = []
        for target, owner, where, own in self._call_registrations():
            origin = owner if isinstance(owner, Origin) else self.kind_in(where, owner)
            server: str | None = None
            if origin is not None:
                server = None if origin is Origin.LOWLEVEL else origin.value
            elif isinstance(owner, cst.Name) and owner.value not in self.module.shadowed:
                imported = self.module.imports.get(owner.value)
                if imported is not None and (
                    where is None or self.local_binding(where, owner.value) is None
                ):
                    server = "import:" + imported
            if server is None:
                continue
            bare = origin is None or self._takes_bare(owner, origin)
            name = self._registered_name(target, bare)
            if name is None or name.value in self.module.shadowed:
                continue
            qualified = self.module.imports.get(name.value)
            if qualified is not None and all(
                self.local_binding(scope, name.value) is None
                for scope in self.enclosing_functions(where)
            ):
                found.append((server + (":own-schema" if own else ""), qualified))
        return found

    @staticmethod
    def _takes_bare(owner: cst.BaseExpression | Origin, origin: Origin) -> bool:
        """Whether a plain function is a tool where it is given: ``add_tool(fn)`` and
        ``tool(...)(fn)`` everywhere, ``tools=[fn]`` only in standalone ``fastmcp``."""
        return not isinstance(owner, Origin) or origin is Origin.STANDALONE

    def _call_registrations(
        self,
    ) -> Iterator[
        tuple[cst.BaseExpression, cst.BaseExpression | Origin, cst.FunctionDef | None, bool]
    ]:
        for call in find_indexed(self.module.tree, cst.Call, nested=True):
            assert isinstance(call, cst.Call)
            targets = list(self._registration_targets(call))
            if targets:
                where = self.function_of(call)
                for target, owner in targets:
                    own = _own_schema(call) or (
                        isinstance(target, cst.Call) and _own_schema(target)
                    )
                    yield target, owner, where, own

    def _registration_targets(
        self, call: cst.Call
    ) -> Iterator[tuple[cst.BaseExpression, cst.BaseExpression | Origin]]:
        """``(what is registered, the server expression or the constructed server's
        origin)`` of one call."""
        func = call.func
        first = call.args[0] if call.args else None
        positional = first is not None and first.keyword is None and not first.star
        if isinstance(func, cst.Attribute) and func.attr.value == "add_tool" and positional:
            assert first is not None
            yield first.value, func.value
        elif (
            isinstance(func, cst.Call)
            and isinstance(func.func, cst.Attribute)
            and func.func.attr.value == "tool"
            and len(call.args) == 1
            and positional
        ):
            assert first is not None
            yield first.value, func.func.value
        else:
            origin = self.kind_of_class(func)
            if origin is None:
                return
            for arg in call.args:
                if (
                    arg.keyword is not None
                    and arg.keyword.value == "tools"
                    and isinstance(arg.value, (cst.List, cst.Tuple))
                ):
                    for element in arg.value.elements:
                        if not isinstance(element, cst.StarredElement):
                            yield element.value, origin

    def _registered_name(self, target: cst.BaseExpression, bare: bool) -> cst.Name | None:
        """The function name a registered value names: ``fn``, or ``fn`` of
        ``Tool.from_function(fn, ...)`` (one of :data:`TOOL_CLASSES`)."""
        if isinstance(target, cst.Name):
            return target if bare else None
        if not (
            isinstance(target, cst.Call)
            and isinstance(target.func, cst.Attribute)
            and target.func.attr.value == "from_function"
            and self.module.qualified_name(target.func.value) in TOOL_CLASSES
        ):
            return None
        for arg in target.args:
            if arg.star:
                return None
            if (arg.keyword is None or arg.keyword.value == "fn") and isinstance(
                arg.value, cst.Name
            ):
                return arg.value
            if arg.keyword is None:
                return None
        return None

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


def _own_schema(call: cst.Call) -> bool:
    """A registration that gives the output schema itself (``structured_output=False``,
    ``output_schema=None``, or any value: not the annotation's)."""
    return any(a.keyword is not None and a.keyword.value in _OWN_SCHEMA for a in call.args)


def recognise(module: ParsedModule, project: Project | None = None) -> McpFile:
    """The module's MCP facts, kept on the module for the rules of one parse."""
    if project is not None and project.index is not None:
        return module.remembered(
            _MEMO, (project, project.index), lambda: McpFile(module, project=project)
        )
    return module.remembered(_MEMO, (), lambda: McpFile(module))


_MEMO = "mcp.recognise"
