"""TRC002 claude-sdk-iserror-camelcase."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from lint_rules.config import Settings
from lint_rules.frameworks.claude_agent_sdk._examples import HEAD
from lint_rules.frameworks.claude_agent_sdk.recognition import ClaudeSdkFile, returned_displays
from lint_rules.frameworks.tool_loops import dict_entry
from lint_rules.model import Applicability, Severity
from lint_rules.rules import EditSpec, Example, Finding, FixSpec, Rule


class ClaudeSdkIsErrorCamelCase(Rule):
    """
    ## What it does
    Checks the results the Claude Agent SDK's `@tool(...)` handlers return for
    MCP's spelling `"isError"` where the SDK reads `"is_error"`: a returned dict
    literal with `"isError"` and no `"is_error"`.

    ## Why is this bad?
    `create_sdk_mcp_server` reads only `result.get("is_error", False)`
    (claude-agent-sdk 0.2.190): `"isError": True` is ignored, and the error is
    reported to Claude as a **success** — the model goes on as if the tool had
    worked (verified with the SDK's in-process MCP server).

    ## Fix safety
    Renaming the key to `"is_error"` is safe: it is what the handler meant,
    and the SDK reads nothing else.

    ## References
    - [Claude Agent SDK: custom tools](https://docs.claude.com/en/api/agent-sdk/custom-tools)
    """

    code = "TRC002"
    name = "claude-sdk-iserror-camelcase"
    severity = Severity.ERROR
    framework = "claude_agent_sdk"
    fix_applicability = Applicability.SAFE
    message = "A Claude Agent SDK tool result spells `is_error` as MCP's `isError`"

    invalid = (
        Example(
            code=HEAD
            + """\
@tool("query", "Run a query", {"sql": str})
async def query(args):
    try:
        rows = run(args["sql"])
    except ConnectionError as error:
        return {"content": [{"type": "text", "text": f"db down: {error}"}], "isError": True}
    return {"content": [{"type": "text", "text": str(rows)}]}
""",
            fixed=HEAD
            + """\
@tool("query", "Run a query", {"sql": str})
async def query(args):
    try:
        rows = run(args["sql"])
    except ConnectionError as error:
        return {"content": [{"type": "text", "text": f"db down: {error}"}], "is_error": True}
    return {"content": [{"type": "text", "text": str(rows)}]}
""",
        ),
        Example(
            title="a result bound to a name",
            code=HEAD
            + """\
@tool("query", "Run a query", {"sql": str})
async def query(args):
    result = {"content": [{"type": "text", "text": "no rows"}], 'isError': True}
    return result
""",
            fixed=HEAD
            + """\
@tool("query", "Run a query", {"sql": str})
async def query(args):
    result = {"content": [{"type": "text", "text": "no rows"}], 'is_error': True}
    return result
""",
        ),
    )
    valid = (
        Example(
            code=HEAD
            + """\
@tool("query", "Run a query", {"sql": str})
async def query(args):
    return {"content": [{"type": "text", "text": "db down"}], "is_error": True}
""",
        ),
        Example(
            title="an MCP server's tool (FastMCP reads `isError`)",
            code="""\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("db")


@mcp.tool()
async def query(sql: str) -> dict:
    return {"content": [{"type": "text", "text": "db down"}], "isError": True}
""",
        ),
        Example(
            title="both spellings",
            code=HEAD
            + """\
@tool("query", "Run a query", {"sql": str})
async def query(args):
    return {"content": [{"type": "text", "text": "db down"}], "is_error": True, "isError": True}
""",
        ),
    )

    def check(self, context: ClaudeSdkFile, settings: Settings) -> Iterator[Finding]:
        for _, display in returned_displays(context):
            camel = dict_entry(display, "isError")
            if camel is None or dict_entry(display, "is_error") is not None:
                continue
            key = camel.key
            assert isinstance(key, cst.SimpleString)
            quote = key.quote
            yield Finding(
                node=key,
                message=(
                    'The result says `"isError"`, MCP\'s spelling: the SDK reads only '
                    '`"is_error"`, so the error reaches Claude as a success; use `"is_error"`'
                ),
                fix=FixSpec(
                    title='Rename to `"is_error"`',
                    applicability=Applicability.SAFE,
                    edits=(EditSpec(key, f"{key.prefix}{quote}is_error{quote}"),),
                ),
            )
