"""TRV603 mcp-call-tool-handler-return."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from lint_rules.analysis.shapes import Kind, Shape, returned_values
from lint_rules.config import Settings
from lint_rules.frameworks.mcp.recognition import McpFile
from lint_rules.model import Severity
from lint_rules.rules import Example, Finding, Rule

CONTENT_BLOCKS = frozenset(
    {
        "mcp.types.TextContent",
        "mcp.types.ImageContent",
        "mcp.types.AudioContent",
        "mcp.types.EmbeddedResource",
        "mcp.types.ResourceLink",
    }
)
CALL_TOOL_RESULT = frozenset({"mcp.types.CallToolResult"})

_LOWLEVEL = """\
import mcp.types as types
from mcp.server.lowlevel import Server

server = Server("orders")


"""


class McpCallToolHandlerReturn(Rule):
    """
    ## What it does
    Checks the low-level server's tool handlers. For a `@server.call_tool()`
    handler: a return of a `str`, of a single content block not in a list
    (`types.TextContent(...)`), or of a list of plain strings, and a handler
    that can fall off its end (an unknown tool name that is not raised). For a
    2.x `Server(..., on_call_tool=handler)`: any return whose type is known
    and is not a `CallToolResult`.

    ## Why is this bad?
    The 1.x decorator accepts a `CallToolResult`, a dict (structured
    content), a `(content, structured)` pair or an iterable of content blocks
    (`lowlevel/server.py`); anything else becomes an `isError` result: "25
    validation errors for CallToolResult" for a string, "Unexpected return
    type from tool: NoneType" when the handler falls through
    (modelcontextprotocol/docs#198; verified with mcp 1.30). A 2.x
    `on_call_tool` handler must return a `CallToolResult`: anything else is a
    protocol-level error ("Handler returned an invalid result"), not even an
    error result the model could read (verified with mcp 2.3).

    ## References
    - [MCP Python SDK: low-level server](https://github.com/modelcontextprotocol/python-sdk#low-level-server)
    """

    code = "TRV603"
    name = "mcp-call-tool-handler-return"
    severity = Severity.ERROR
    framework = "mcp"
    message = "A low-level `call_tool` handler returns what the SDK cannot send"

    invalid = (
        Example(
            title="a bare string",
            code=_LOWLEVEL
            + """\
@server.call_tool()
async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:
    if name == "order_status":
        return f"Order {arguments['order_id']} has shipped"
    raise ValueError(f"Unknown tool: {name}")
""",
        ),
        Example(
            title="an unknown tool name falls through to `None`",
            code=_LOWLEVEL
            + """\
@server.call_tool()
async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:
    if name == "order_status":
        return [types.TextContent(type="text", text="shipped")]
""",
        ),
    )
    valid = (
        Example(
            code=_LOWLEVEL
            + """\
@server.call_tool()
async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:
    if name == "order_status":
        return [types.TextContent(type="text", text="shipped")]
    raise ValueError(f"Unknown tool: {name}")
""",
        ),
        Example(
            title="structured content as a dict",
            code=_LOWLEVEL
            + """\
@server.call_tool()
async def call_tool(name: str, arguments: dict) -> dict:
    if name != "order":
        raise ValueError(f"Unknown tool: {name}")
    return {"id": arguments["order_id"], "status": "shipped"}
""",
        ),
        Example(
            title="a handler of a server whose origin is not known",
            code="""\
from .app import server


@server.call_tool()
async def call_tool(name: str, arguments: dict):
    return f"called {name}"
""",
        ),
    )

    def check(self, context: McpFile, settings: Settings) -> Iterator[Finding]:
        for handler, how in context.call_tool_handlers:
            flow = context.flow(handler)
            if flow.is_generator:
                continue
            inference = context.inference(handler)
            for site in flow.sites:
                if site.value is None:
                    if site.statement is None and not context.may_fall_through(handler):
                        continue
                    node = site.statement if site.statement is not None else handler.name
                    what = (
                        "`None`"
                        if site.statement is not None
                        else "`None` (it can fall off its end)"
                    )
                    yield _finding(handler, node, what, how)
                    continue
                for value in returned_values(site.value):
                    rejected = _rejected(context, inference.infer(value), value, how)
                    if rejected is not None:
                        yield _finding(handler, value, rejected, how)


def _rejected(context: McpFile, shape: Shape, value: cst.BaseExpression, how: str) -> str | None:
    kind = shape.kind
    if kind is Kind.NONE:
        return "`None`"
    if kind is Kind.STR:
        return "a `str`"
    instance = _instance_of(context, value)
    if how == "on_call_tool":
        if instance in CALL_TOOL_RESULT:
            return None
        if kind in (Kind.DICT, Kind.LIST, Kind.TUPLE, Kind.INT, Kind.FLOAT, Kind.BOOL):
            return f"a `{kind.value}`"
        if instance is not None and instance in CONTENT_BLOCKS:
            return f"a bare `{instance.rsplit('.', 1)[1]}`"
        return None
    if instance is not None and instance in CONTENT_BLOCKS:
        return f"a bare `{instance.rsplit('.', 1)[1]}` (not in a list)"
    elements = shape.element_shapes() if kind is Kind.LIST else ()
    if elements and all(e.kind is Kind.STR for e in elements):
        return "a list of strings (not content blocks)"
    return None


def _instance_of(context: McpFile, value: cst.BaseExpression) -> str | None:
    """The qualified class a returned call builds (``types.TextContent(...)``)."""
    if isinstance(value, cst.Call):
        return context.module.qualified_name(value.func)
    return None


def _finding(handler: cst.FunctionDef, node: cst.CSTNode, what: str, how: str) -> Finding:
    if how == "on_call_tool":
        detail = (
            "a 2.x `on_call_tool` handler must return a `CallToolResult` (anything else is "
            "a protocol error)"
        )
    else:
        detail = (
            "the SDK answers with an `isError` result (`N validation errors for "
            "CallToolResult` / `Unexpected return type`); return a list of content blocks"
        )
    return Finding(
        node=node,
        message=f"Low-level tool handler `{handler.name.value}` returns {what}: {detail}",
    )
