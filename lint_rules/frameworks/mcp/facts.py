"""What one file contributes to the project index for the MCP rules.

Large servers split their tools across modules: ``server.py`` binds
``mcp = FastMCP("x")`` and ``tools/orders.py`` does ``from myserver.server import
mcp`` then ``@mcp.tool()``. Every file whose bytes can hold such a fact
(:func:`lint_rules.analysis.index.wants_mcp_facts`) gives

- ``servers``: its module-level names bound to a server (resolved in the file
  alone, as :meth:`McpFile.module_kind` does), with the origin value
  (``official``, ``fastmcp``, ``lowlevel``);
- ``imports``: local name → qualified name, to follow re-exports
  (``from .server import mcp`` in a package's ``__init__.py``);
- ``functions``: its top-level ``def`` names (also for a file without the MCP signal
  that a registration of another file names: a tools module that imports nothing of
  ``mcp``);
- ``registers``: ``[server, function]`` for each registration of an *imported*
  function (``mcp.add_tool(search)``, ``mcp.add_tool(FunctionTool.from_function(
  search))``, ``FastMCP(tools=[search])`` after ``from .tools import search``): the
  server's origin value, or ``import:<qualified>`` when the server is imported too;
- ``uses``: the imported names (qualified, as ``module.imports`` spells them)
  it uses as the owner of a registration — ``@X.tool`` / ``.resource`` /
  ``.prompt`` / ``.call_tool`` decorators, ``X.add_tool(fn)``, ``X.tool(...)(fn)``.
  Only these make the file's results depend on another file's facts
  (``ProjectIndex.mcp_servers``).

Everything is plain JSON (the result cache keeps it).
"""

from __future__ import annotations

from typing import Any

import libcst as cst

from lint_rules.analysis.index import wants_mcp_facts
from lint_rules.analysis.module import ParsedModule
from lint_rules.analysis.walk import find_indexed
from lint_rules.frameworks.mcp.recognition import REGISTRARS, recognise

_DECORATORS = REGISTRARS | {"call_tool"}


def extract_module(module: ParsedModule, data: bytes) -> dict[str, Any]:
    """The ``mcp`` facts of a parsed module (``{}`` when its bytes cannot hold one)."""
    shadowed = module.shadowed
    imports = {k: v for k, v in module.imports.items() if k not in shadowed}
    functions = sorted(name for name in module.functions if name not in shadowed)
    if not wants_mcp_facts(data):
        # What another module's registration of one of these functions needs (a tools
        # module that does not import ``mcp`` at all).
        return {"functions": functions, "imports": imports} if functions or imports else {}
    mcp = recognise(module)
    servers: dict[str, str] = {}
    for name in module.constants:
        if name in shadowed:
            continue
        origin = mcp.module_kind(name)
        if origin is not None:
            servers[name] = origin.value
    registers = sorted({list_ for list_ in mcp.imported_registrations()})
    return {
        "servers": servers,
        "imports": imports,
        "functions": functions,
        "uses": _uses(module, imports),
        "registers": [list(r) for r in registers],
    }


def _uses(module: ParsedModule, imports: dict[str, str]) -> list[str]:
    """The qualified names of the imported names used as a registration's owner, sorted."""
    if not imports:
        return []
    owners: set[str] = set()
    for node in find_indexed(module.tree, cst.FunctionDef, nested=True):
        assert isinstance(node, cst.FunctionDef)
        for decorator in node.decorators:
            expr = decorator.decorator
            if isinstance(expr, cst.Call):
                expr = expr.func
            if isinstance(expr, cst.Attribute) and expr.attr.value in _DECORATORS:
                _owner(expr.value, owners)
    for call in find_indexed(module.tree, cst.Call, nested=True):
        assert isinstance(call, cst.Call)
        func = call.func
        if isinstance(func, cst.Attribute) and func.attr.value == "add_tool":
            _owner(func.value, owners)
        elif (
            isinstance(func, cst.Call)
            and isinstance(func.func, cst.Attribute)
            and func.func.attr.value == "tool"
        ):
            _owner(func.func.value, owners)
    return sorted({imports[name] for name in owners if name in imports})


def _owner(expr: cst.BaseExpression, owners: set[str]) -> None:
    if isinstance(expr, cst.Name):
        owners.add(expr.value)
