"""TRV601 mcp-decorator-not-called."""

from __future__ import annotations

from collections.abc import Iterator

from lint_rules.config import Settings
from lint_rules.frameworks.mcp._examples import OFFICIAL, STANDALONE
from lint_rules.frameworks.mcp.recognition import McpFile, Origin
from lint_rules.model import Applicability, Severity
from lint_rules.rules import EditSpec, Example, Finding, FixSpec, Rule


class McpDecoratorNotCalled(Rule):
    """
    ## What it does
    Checks for a bare `@mcp.tool`, `@mcp.resource` or `@mcp.prompt` (without
    parentheses) on a server of the official SDK (`FastMCP` from
    `mcp.server.fastmcp`, `MCPServer` from `mcp.server.mcpserver`).

    ## Why is this bad?
    The official SDK's decorators are factories: used bare, they raise
    `TypeError: The @tool decorator was used incorrectly. Did you forget to call
    it? Use @tool() instead of @tool` when the module is imported, so the
    server never starts (verified with mcp 1.30 and 2.3). The standalone
    `fastmcp` package accepts the bare form (since 2.7), which is why examples
    written for it fail when the import is the official one
    (PrefectHQ/fastmcp#199, #1205). Not reported for a bare `@tool` / `@prompt`
    of standalone `fastmcp`; a bare `@resource` raises there too (verified with
    fastmcp 4.2: a resource needs its URI), so it is reported for every server.
    Nothing is reported inside `with pytest.raises(...)` (a test of that very
    error).

    ## Fix safety
    The fix adds `()` after a `@tool` / `@prompt` decorator: what the SDK asks
    for, with the same defaults. It is safe. A bare `@resource` gets no fix: it
    needs its URI, which only you know.

    ## References
    - [MCP Python SDK: tools](https://github.com/modelcontextprotocol/python-sdk#tools)
    """

    code = "TRV601"
    name = "mcp-decorator-not-called"
    severity = Severity.ERROR
    framework = "mcp"
    fix_applicability = Applicability.SAFE
    message = "A bare `@mcp.tool` on an official-SDK server"

    invalid = (
        Example(
            code=OFFICIAL
            + """\
@mcp.tool
def order_status(order_id: str) -> str:
    \"\"\"The status of an order.\"\"\"
    return f"Order {order_id} has shipped"
""",
            fixed=OFFICIAL
            + """\
@mcp.tool()
def order_status(order_id: str) -> str:
    \"\"\"The status of an order.\"\"\"
    return f"Order {order_id} has shipped"
""",
        ),
        Example(
            title="a prompt of a 2.x server",
            code="""\
from mcp.server.mcpserver import MCPServer

server = MCPServer("support")


@server.prompt
def apology(customer: str) -> str:
    return f"Write an apology to {customer}."
""",
            fixed="""\
from mcp.server.mcpserver import MCPServer

server = MCPServer("support")


@server.prompt()
def apology(customer: str) -> str:
    return f"Write an apology to {customer}."
""",
        ),
        Example(
            title="a resource without its URI (any server)",
            code=STANDALONE
            + """\
@mcp.resource
def catalogue() -> str:
    return "A1, B2"
""",
        ),
    )
    valid = (
        Example(
            code=OFFICIAL
            + """\
@mcp.tool()
def order_status(order_id: str) -> str:
    \"\"\"The status of an order.\"\"\"
    return f"Order {order_id} has shipped"
""",
        ),
        Example(
            title="standalone fastmcp accepts the bare decorator",
            code=STANDALONE
            + """\
@mcp.tool
def order_status(order_id: str) -> str:
    \"\"\"The status of an order.\"\"\"
    return f"Order {order_id} has shipped"
""",
        ),
        Example(
            title="a server whose origin is not known",
            code="""\
from .server import build_server

mcp = build_server()


@mcp.tool
def order_status(order_id: str) -> str:
    return f"Order {order_id} has shipped"
""",
        ),
    )

    def check(self, context: McpFile, settings: Settings) -> Iterator[Finding]:
        for registration in context.registrations:
            if registration.called:
                continue
            if registration.origin is not Origin.OFFICIAL and registration.kind != "resource":
                continue  # standalone fastmcp accepts a bare `@tool` / `@prompt`
            if context.in_expected_failure(registration.decorator):
                continue  # a test of the SDK's own error
            expr = registration.decorator.decorator
            text = context.module.code_for(expr).strip()
            if registration.kind == "resource":
                # a resource needs its URI: `()` alone would still raise
                yield Finding(
                    node=expr,
                    message=(
                        f"`@{text}` without its URI: the server raises `TypeError` at import; "
                        f'use `@{text}("scheme://path")`'
                    ),
                )
                continue
            yield Finding(
                node=expr,
                message=(
                    f"`@{text}` without parentheses: the official MCP SDK raises `TypeError` "
                    f"at import; use `@{text}()`"
                ),
                fix=FixSpec(
                    title="Add `()`",
                    applicability=Applicability.SAFE,
                    edits=(EditSpec(expr, "()", "after"),),
                ),
            )
