"""Whether a module can hold an MCP server tool or ``call_tool`` handler
(``analysis.screen``)."""

from __future__ import annotations

from lint_rules.analysis.screen import ModuleView

SERVER_CLASSES = frozenset(
    {
        "mcp.server.FastMCP",
        "mcp.server.fastmcp.FastMCP",
        "mcp.server.fastmcp.server.FastMCP",
        "mcp.server.MCPServer",
        "mcp.server.mcpserver.MCPServer",
        "mcp.server.mcpserver.server.MCPServer",
        "fastmcp.FastMCP",
        "fastmcp.server.FastMCP",
        "fastmcp.server.server.FastMCP",
        "mcp.server.Server",
        "mcp.server.lowlevel.Server",
        "mcp.server.lowlevel.server.Server",
    }
)
"""``recognition.SERVER_CLASSES`` (a test keeps them equal)."""
REGISTRARS = ("tool", "resource", "prompt")


def needs_libcst(view: ModuleView) -> bool:
    """Whether the module has an attribute decorator (``@<x>.tool``, ``@<x>.tool(...)``)
    ending in ``tool``, ``resource``, ``prompt`` or ``call_tool``; calls something ending
    in ``add_tool`` or ``tool``; passes ``on_call_tool=``; or passes ``tools=`` in a module
    that calls (or subclasses) a name that can be a server class (its last name, or a
    local the module imports it as, with an import of the class or a package on its path).

    The family's context always exists, but its rules judge only what recognition
    (``recognition.McpFile``) finds, each starting from one of these names:

    - TRV601 judges ``registrations``: ``@<server>.tool``/``.resource``/``.prompt``,
      bare or called — an attribute decorator (``@tool``, Strands' or LangChain's, is
      none).
    - TRV602, TRV604–TRV607 and TRV901/TRV902 judge ``tools``: the ``@<server>.tool``
      registrations; the registrations by call (``registered_by_calls``):
      ``<server>.add_tool(fn)`` (also of ``Tool.from_function(fn)``),
      ``<server>.tool(...)(fn)`` (the inner call's callee ends in ``tool``), and
      ``<ServerClass>(..., tools=[...])``, whose callee is a server class or a
      same-module subclass of one (``kind_of_class``: the class then has it among its
      bases, or those of a class it derives from); and functions another module
      registers, which the project index names (``names_file``: always parsed).
    - TRV603 and TRV901/TRV902 judge ``call_tool_handlers``: ``@<server>.call_tool()``
      and ``Server(..., on_call_tool=fn)`` (a keyword, one of the view's words).

    A client module (``ClientSession``, ``stdio_client``, ``session.call_tool(...)``) or
    a server that only runs (``mcp.run()``) has none of these.
    """
    if view.decorated_by(*REGISTRARS, "call_tool") and not view.attribute_decorators.isdisjoint(
        (*REGISTRARS, "call_tool")
    ):
        return True
    if view.calls("add_tool", "tool") or view.has("on_call_tool"):
        return True
    return view.has("tools") and view.refers(view.called | view.bases, SERVER_CLASSES)
