"""TRV606 mcp-json-string-return."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from lint_rules.analysis.shapes import returned_values
from lint_rules.config import Settings
from lint_rules.frameworks.mcp._examples import OFFICIAL
from lint_rules.frameworks.mcp.contracts import contract
from lint_rules.frameworks.mcp.recognition import McpFile
from lint_rules.model import Severity
from lint_rules.rules import Example, Finding, Rule

_DUMPS = frozenset({"json.dumps"})


class McpJsonStringReturn(Rule):
    """
    ## What it does
    Checks MCP tools whose `return` statement is a direct `json.dumps(...)`
    call. Off by default (an info rule). Not reported where the annotation
    makes it an error (TRV602: `json.dumps` under `-> dict[...]`); a helper's
    `json.dumps` returned through a call is not traced.

    ## Why is this bad?
    The server sends a returned string as text: the client gets JSON inside a
    string (double-encoded when it serialises the tool result again) and no
    `structuredContent` (cameronrye/openzim-mcp#96: 17 tools). Returning the
    dict and annotating it (`-> dict[str, Any]` or a model) gives the client
    both the text and the structured content.

    ## References
    - [MCP Python SDK: structured output](https://github.com/modelcontextprotocol/python-sdk#structured-output)
    """

    code = "TRV606"
    name = "mcp-json-string-return"
    severity = Severity.INFO
    framework = "mcp"
    message = "A tool returns `json.dumps(...)`"

    invalid = (
        Example(
            code="""\
import json

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("orders")


@mcp.tool()
def order(order_id: str) -> str:
    return json.dumps({"id": order_id, "status": "shipped"})
""",
        ),
        Example(
            code="""\
import json

from fastmcp import FastMCP

mcp = FastMCP("orders")


@mcp.tool
def orders(customer: str):
    rows = [{"id": "A1"}, {"id": "B2"}]
    return json.dumps(rows, indent=2)
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
def order(order_id: str) -> dict[str, Any]:
    return {"id": order_id, "status": "shipped"}
""",
        ),
        Example(
            title="the JSON built by a helper",
            code="""\
import json

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("orders")


def as_json(value):
    return json.dumps(value)


@mcp.tool()
def order(order_id: str) -> str:
    return as_json({"id": order_id})
""",
        ),
        Example(
            title="not a tool",
            code=OFFICIAL
            + """\
import json


def dump(value) -> str:
    return json.dumps(value)
""",
        ),
    )

    def check(self, context: McpFile, settings: Settings) -> Iterator[Finding]:
        for tool in context.tools:
            promised = contract(context.module, tool.function)
            if promised is not None and promised.is_mapping and promised.has_schema(tool.origin):
                continue  # TRV602 reports it
            for site in context.flow(tool.function).sites:
                if site.value is None:
                    continue
                for value in returned_values(site.value):
                    if (
                        isinstance(value, cst.Call)
                        and context.module.qualified_name(value.func) in _DUMPS
                    ):
                        yield Finding(
                            node=value,
                            message=(
                                f"Tool `{tool.name}` returns `json.dumps(...)`: the client gets "
                                "JSON inside a string and no structured content; return the "
                                "value and annotate it"
                            ),
                        )
