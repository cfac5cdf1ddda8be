"""TRV605 mcp-context-parameter-unannotated."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from lint_rules.config import Settings
from lint_rules.frameworks.mcp._examples import OFFICIAL, STANDALONE
from lint_rules.frameworks.mcp.recognition import McpFile
from lint_rules.model import Severity
from lint_rules.rules import Example, Finding, Rule

_NAMES = frozenset({"ctx", "context"})


class McpContextParameterUnannotated(Rule):
    """
    ## What it does
    Checks MCP tools for a parameter named `ctx` or `context` without an
    annotation.

    ## Why is this bad?
    The server recognises the request context by its annotation (`Context`),
    not by its name. Unannotated, `ctx` is an ordinary argument: it appears in
    the tool's input schema as a required parameter the model must invent
    (verified with mcp 1.30), and the tool never gets the context. Annotate it
    `ctx: Context`.

    ## References
    - [MCP Python SDK: context](https://github.com/modelcontextprotocol/python-sdk#context)
    """

    code = "TRV605"
    name = "mcp-context-parameter-unannotated"
    severity = Severity.WARNING
    framework = "mcp"
    message = "A tool's `ctx` parameter without an annotation"

    invalid = (
        Example(
            code=OFFICIAL
            + """\
@mcp.tool()
async def order_status(order_id: str, ctx) -> str:
    await ctx.info(f"Looking up {order_id}")
    return "shipped"
""",
        ),
        Example(
            code=STANDALONE
            + """\
@mcp.tool
async def refund(order_id: str, context=None) -> str:
    return "refunded"
""",
        ),
    )
    valid = (
        Example(
            code="""\
from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("orders")


@mcp.tool()
async def order_status(order_id: str, ctx: Context) -> str:
    await ctx.info(f"Looking up {order_id}")
    return "shipped"
""",
        ),
        Example(
            title="a helper, not a tool",
            code=OFFICIAL
            + """\
async def log(ctx, text):
    await ctx.info(text)
""",
        ),
        Example(
            title="a string annotation",
            code="""\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("orders")


@mcp.tool()
async def order_status(order_id: str, ctx: "Context") -> str:
    return "shipped"
""",
        ),
    )

    def check(self, context: McpFile, settings: Settings) -> Iterator[Finding]:
        for tool in context.tools:
            params = tool.function.params
            for param in (*params.posonly_params, *params.params, *params.kwonly_params):
                if param.name.value in _NAMES and param.annotation is None:
                    yield Finding(
                        node=param.name,
                        message=_message(tool.name, param),
                    )


def _message(tool: str, param: cst.Param) -> str:
    name = param.name.value
    return (
        f"Tool `{tool}`'s `{name}` has no annotation: the server does not pass the context, "
        f"and the model is asked for `{name}` as an argument; annotate it `{name}: Context`"
    )
