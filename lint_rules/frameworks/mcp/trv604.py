"""TRV604 mcp-optional-call-tool-result."""

from __future__ import annotations

from collections.abc import Iterator

from lint_rules.config import Settings
from lint_rules.frameworks.mcp._examples import OFFICIAL
from lint_rules.frameworks.mcp.contracts import contract
from lint_rules.frameworks.mcp.recognition import McpFile, Origin
from lint_rules.model import Severity
from lint_rules.rules import Example, Finding, Rule

_HEAD = OFFICIAL.replace(
    "from mcp.server.fastmcp import FastMCP\n",
    "from mcp.server.fastmcp import FastMCP\nfrom mcp.types import CallToolResult, TextContent\n",
)


class McpOptionalCallToolResult(Rule):
    """
    ## What it does
    Checks for official-SDK tools annotated `-> Optional[CallToolResult]` or
    `-> CallToolResult | None`.

    ## Why is this bad?
    The SDK refuses the annotation when the tool is registered: `InvalidSignature`
    at import (mcp 1.30 `func_metadata.py`), so the server does not start. A tool
    that has nothing to say returns a `CallToolResult` with empty content.

    ## References
    - [MCP Python SDK: structured output](https://github.com/modelcontextprotocol/python-sdk#structured-output)
    """

    code = "TRV604"
    name = "mcp-optional-call-tool-result"
    severity = Severity.ERROR
    framework = "mcp"
    message = "An optional `CallToolResult` annotation"

    invalid = (
        Example(
            code=_HEAD
            + """\
@mcp.tool()
def order_status(order_id: str) -> CallToolResult | None:
    if not order_id:
        return None
    return CallToolResult(content=[TextContent(type="text", text="shipped")])
""",
        ),
        Example(
            code="""\
from typing import Optional

from mcp import types
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("orders")


@mcp.tool()
def order_status(order_id: str) -> Optional[types.CallToolResult]:
    return None
""",
        ),
    )
    valid = (
        Example(
            code=_HEAD
            + """\
@mcp.tool()
def order_status(order_id: str) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text="shipped")])
""",
        ),
        Example(
            title="an optional string",
            code=OFFICIAL
            + """\
@mcp.tool()
def order_status(order_id: str) -> str | None:
    return None if not order_id else "shipped"
""",
        ),
        Example(
            title="a function that is not a tool",
            code="""\
from mcp.types import CallToolResult


def cached(order_id: str) -> CallToolResult | None:
    return CACHE.get(order_id)
""",
        ),
    )

    def check(self, context: McpFile, settings: Settings) -> Iterator[Finding]:
        for tool in context.tools:
            if tool.origin is not Origin.OFFICIAL:
                continue
            promised = contract(context.module, tool.function)
            if promised is None or promised.kind != "call-tool-result" or not promised.optional:
                continue
            yield Finding(
                node=promised.annotation,
                message=(
                    f"Tool `{tool.name}` is annotated with an optional `CallToolResult`: the "
                    "official SDK raises `InvalidSignature` when it is registered; return a "
                    "`CallToolResult` (empty content for nothing)"
                ),
            )
