"""TRC001 claude-sdk-tool-return-shape."""

from __future__ import annotations

from collections.abc import Iterator

from lint_rules.analysis.shapes import Kind, Shape, returned_values
from lint_rules.config import Settings
from lint_rules.frameworks.claude_agent_sdk._examples import HEAD
from lint_rules.frameworks.claude_agent_sdk.recognition import ClaudeSdkFile
from lint_rules.frameworks.tool_function import may_fall_through
from lint_rules.model import Severity
from lint_rules.rules import Example, Finding, Rule

_NOT_A_RESULT = {
    Kind.STR: "a `str`",
    Kind.BYTES: "`bytes`",
    Kind.INT: "an `int`",
    Kind.FLOAT: "a `float`",
    Kind.BOOL: "a `bool`",
    Kind.NONE: "`None`",
    Kind.LIST: "a `list`",
    Kind.TUPLE: "a `tuple`",
    Kind.SET: "a `set`",
}
_NOT_A_LIST = {
    Kind.STR: "a `str`",
    Kind.DICT: "a dict",
    Kind.INT: "an `int`",
    Kind.FLOAT: "a `float`",
}


class ClaudeSdkToolReturnShape(Rule):
    """
    ## What it does
    Checks the handlers of the Claude Agent SDK's `@tool(...)` for a return
    value that is not a result dict — a string, a number, a list, `None`
    (returned, or by falling off the end of the handler) — or a dict whose
    `"content"` is certainly not a list (a string, a dict).

    An imported helper that always raises (annotated `NoReturn`, or raising
    on every path, in another module of the project) ends the handler: no
    fall-through is reported after it.

    ## Why is this bad?
    `create_sdk_mcp_server` awaits the handler and reads
    `result.get("content", [])` (claude-agent-sdk 0.2.190): any other value
    makes *every* call an error result, and Claude reads a Python
    `AttributeError` — "'str' object has no attribute 'get'" — instead of the
    tool's output (verified with the SDK's in-process MCP server). The tool
    can never succeed.

    ## References
    - [Claude Agent SDK: custom tools](https://docs.claude.com/en/api/agent-sdk/custom-tools)
    """

    code = "TRC001"
    name = "claude-sdk-tool-return-shape"
    severity = Severity.ERROR
    framework = "claude_agent_sdk"
    message = "A Claude Agent SDK tool returns something other than a result dict"

    invalid = (
        Example(
            title="the text itself",
            code=HEAD
            + """\
@tool("get_weather", "The weather in a city", {"city": str})
async def get_weather(args):
    return f"Sunny in {args['city']}"
""",
        ),
        Example(
            title="a string `content`, and falling off the end",
            code=HEAD
            + """\
@tool("lookup", "Look a customer up", {"id": str})
async def lookup(args):
    if args["id"]:
        return {"content": f"customer {args['id']}"}
""",
        ),
    )
    valid = (
        Example(
            code=HEAD
            + """\
@tool("get_weather", "The weather in a city", {"city": str})
async def get_weather(args):
    return {"content": [{"type": "text", "text": f"Sunny in {args['city']}"}]}


server = create_sdk_mcp_server("weather", tools=[get_weather])
""",
        ),
        Example(
            title="an error result, and a helper that always raises",
            code=HEAD
            + """\
from typing import NoReturn


def fail(message: str) -> NoReturn:
    raise RuntimeError(message)


@tool("lookup", "Look a customer up", {"id": str})
async def lookup(args):
    if not args["id"]:
        return {"content": [{"type": "text", "text": "no id"}], "is_error": True}
    if args["id"] == "42":
        return {"content": [{"type": "text", "text": "Ada"}]}
    fail("unknown customer")
""",
        ),
        Example(
            title="another library's `tool`",
            code="""\
from langchain_core.tools import tool


@tool
def get_weather(city: str) -> str:
    \"\"\"The weather in a city.\"\"\"
    return f"Sunny in {city}"
""",
        ),
    )

    def check(self, context: ClaudeSdkFile, settings: Settings) -> Iterator[Finding]:
        module = context.module
        for handler in context.handlers:
            function = handler.function
            flow = context.flow(function)
            if flow.is_generator:
                continue
            inference = context.inference(function)
            for site in flow.sites:
                if site.value is None:
                    if site.statement is None and not may_fall_through(module, function):
                        continue
                    node = site.statement if site.statement is not None else function.name
                    yield _finding(
                        node, function.name.value, "`None`", falls=site.statement is None
                    )
                    continue
                for value in returned_values(site.value):
                    what = _problem(inference.infer(value))
                    if what is not None:
                        yield _finding(value, function.name.value, what)


def _problem(shape: Shape) -> str | None:
    if shape.kind in _NOT_A_RESULT:
        return _NOT_A_RESULT[shape.kind]
    if shape.kind is Kind.DICT:
        content = shape.entry("content")
        if content is not None and content.value.kind in _NOT_A_LIST:
            return f'a dict whose `"content"` is {_NOT_A_LIST[content.value.kind]}'
    return None


def _finding(node: object, name: str, what: str, *, falls: bool = False) -> Finding:
    how = "falls off its end (`None`)" if falls else f"returns {what}"
    return Finding(
        node=node,  # type: ignore[arg-type]
        message=(
            f'The tool handler `{name}` {how}: the SDK reads `result.get("content")`, so every '
            "call is an error result (\"… has no attribute 'get'\"); return "
            '`{"content": [{"type": "text", "text": ...}]}`'
        ),
    )
