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
    annotation, or annotated with a type that is certainly not a context (a
    class of `mcp.types` such as `CallToolResult`). A parameter annotated with
    a builtin type (`context: str`) is a real argument and is not reported.

    ## Why is this bad?
    The server recognises the request context by its annotation (`Context`),
    not by its name. Unannotated, `ctx` is an ordinary argument: it appears in
    the tool's input schema as a parameter the model must invent — required,
    or optional when it has a default (verified with mcp 1.30, 2.3 and fastmcp
    4.2; awslabs/mcp's IAM server annotates `ctx: CallToolResult` on three
    tools) — and the tool never gets the context. Annotate it `ctx: Context`.

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
        Example(
            title="annotated with a type that is not a context",
            code="""\
from mcp.server.fastmcp import FastMCP
from mcp.types import CallToolResult

mcp = FastMCP("iam")


@mcp.tool()
async def list_users(ctx: CallToolResult, path_prefix: str = "/") -> str:
    return "alice, bob"
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
                if param.name.value not in _NAMES:
                    continue
                if param.annotation is None:
                    yield Finding(node=param.name, message=_message(tool.name, param, None))
                    continue
                wrong = _not_a_context(context, param.annotation.annotation)
                if wrong is not None:
                    yield Finding(
                        node=param.annotation.annotation, message=_message(tool.name, param, wrong)
                    )


def _not_a_context(context: McpFile, annotation: cst.BaseExpression) -> str | None:
    """The annotation's name when it is certainly not a context class: a class of
    ``mcp.types`` (``CallToolResult``…). A builtin type is not: a tool may well take a
    real argument named ``context`` (``context: str``)."""
    qualified = context.module.qualified_name(annotation)
    if qualified is not None and qualified.startswith("mcp.types."):
        return qualified.rsplit(".", 1)[1]
    return None


def _message(tool: str, param: cst.Param, wrong: str | None) -> str:
    name = param.name.value
    how = "an optional argument" if param.default is not None else "a required argument"
    said = f"is annotated `{wrong}`" if wrong is not None else "has no annotation"
    return (
        f"Tool `{tool}`'s `{name}` {said}: the server does not pass the context, and the "
        f"model sees `{name}` as {how} to invent; annotate it `{name}: Context`"
    )
