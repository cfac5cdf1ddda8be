"""TRV607 mcp-list-return-splits-content."""

from __future__ import annotations

from collections.abc import Iterator

from lint_rules.analysis.shapes import Kind, returned_values
from lint_rules.config import Settings
from lint_rules.frameworks.mcp._examples import OFFICIAL, STANDALONE
from lint_rules.frameworks.mcp.contracts import contract
from lint_rules.frameworks.mcp.recognition import McpFile, Origin
from lint_rules.model import Severity
from lint_rules.rules import Example, Finding, Rule


class McpListReturnSplitsContent(Rule):
    """
    ## What it does
    Checks official-SDK tools without a schema-producing return annotation
    (none, or a bare `list`) that return a list or a tuple. Off by default (an
    info rule). Not reported for standalone `fastmcp`, which merges such a list
    into one text block.

    ## Why is this bad?
    The official SDK turns each item of a returned list or tuple into its own
    content block (`func_metadata.py` `_convert_to_content`, verified with mcp
    1.30): `[{"id": 1}, {"id": 2}]` reaches the client as two text blocks.
    Clients that read only the first block lose the rest (crewAIInc/crewAI#5226,
    grll/mcpadapt#84). Annotate the return (`-> list[dict[str, Any]]`) to send
    one structured result, or return one string.

    ## References
    - [MCP Python SDK: tools](https://github.com/modelcontextprotocol/python-sdk#tools)
    """

    code = "TRV607"
    name = "mcp-list-return-splits-content"
    severity = Severity.INFO
    framework = "mcp"
    message = "A tool's list result is split into one content block per item"

    invalid = (
        Example(
            code=OFFICIAL
            + """\
@mcp.tool()
def orders(customer: str):
    return [{"id": "A1", "status": "shipped"}, {"id": "B2", "status": "open"}]
""",
        ),
        Example(
            code=OFFICIAL
            + """\
@mcp.tool()
def summary(customer: str) -> list:
    totals = {"open": 1, "shipped": 3}
    return ("2 orders", totals)
""",
        ),
    )
    valid = (
        Example(
            code="""\
from typing import Any

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("orders")


@mcp.tool()
def orders(customer: str) -> list[dict[str, Any]]:
    return [{"id": "A1", "status": "shipped"}, {"id": "B2", "status": "open"}]
""",
        ),
        Example(
            title="standalone fastmcp merges the list",
            code=STANDALONE
            + """\
@mcp.tool
def orders(customer: str):
    return [{"id": "A1"}, {"id": "B2"}]
""",
        ),
        Example(
            title="a value whose type is not known",
            code=OFFICIAL
            + """\
@mcp.tool()
def orders(customer: str):
    return DB.orders(customer)
""",
        ),
    )

    def check(self, context: McpFile, settings: Settings) -> Iterator[Finding]:
        for tool in context.tools:
            if tool.origin is not Origin.OFFICIAL:
                continue
            promised = contract(context.module, tool.function)
            if promised is not None and promised.kind != "bare-list":
                continue
            if tool.function.returns is not None and promised is None:
                continue  # an annotation that is not read: it may build a schema
            inference = context.inference(tool.function)
            for site in context.flow(tool.function).sites:
                if site.value is None:
                    continue
                for value in returned_values(site.value):
                    kind = inference.infer(value).kind
                    if kind in (Kind.LIST, Kind.TUPLE):
                        yield Finding(
                            node=value,
                            message=(
                                f"Tool `{tool.name}` returns a `{kind.value}` without an "
                                "annotation that builds a schema: the official SDK sends one "
                                "content block per item, and clients that read the first "
                                "lose the rest"
                            ),
                        )
