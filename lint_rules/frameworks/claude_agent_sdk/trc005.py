"""TRC005 claude-sdk-sync-handler."""

from __future__ import annotations

from collections.abc import Iterator

from lint_rules.config import Settings
from lint_rules.frameworks.claude_agent_sdk._examples import HEAD
from lint_rules.frameworks.claude_agent_sdk.recognition import ClaudeSdkFile
from lint_rules.model import Severity
from lint_rules.rules import Example, Finding, Rule


class ClaudeSdkSyncHandler(Rule):
    """
    ## What it does
    Checks for the Claude Agent SDK's `@tool(...)` on a plain `def`.

    ## Why is this bad?
    The SDK awaits every handler (`await tool_def.handler(arguments)`,
    claude-agent-sdk 0.2.190): a plain function's dict cannot be awaited, and
    every call fails with an error result "object dict can't be used in
    'await' expression" (verified) — the tool never works. Declare it `async
    def`.

    ## References
    - [Claude Agent SDK: custom tools](https://docs.claude.com/en/api/agent-sdk/custom-tools)
    """

    code = "TRC005"
    name = "claude-sdk-sync-handler"
    severity = Severity.ERROR
    framework = "claude_agent_sdk"
    message = "A Claude Agent SDK tool handler is not `async`"

    invalid = (
        Example(
            code=HEAD
            + """\
@tool("get_weather", "The weather in a city", {"city": str})
def get_weather(args):
    return {"content": [{"type": "text", "text": f"Sunny in {args['city']}"}]}
""",
        ),
        Example(
            title="through the module's name",
            code="""\
import claude_agent_sdk as sdk


@sdk.tool("add", "Add two numbers", {"a": float, "b": float})
def add(args):
    return {"content": [{"type": "text", "text": str(args["a"] + args["b"])}]}
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
""",
        ),
        Example(
            title="Strands' `tool` (sync tools are fine there)",
            code="""\
from strands import tool


@tool
def get_weather(city: str) -> str:
    \"\"\"The weather in a city.\"\"\"
    return f"Sunny in {city}"
""",
        ),
        Example(
            title="a project's own `tool` decorator",
            code="""\
from .registry import tool


@tool("get_weather")
def get_weather(city: str) -> str:
    return f"Sunny in {city}"
""",
        ),
    )

    def check(self, context: ClaudeSdkFile, settings: Settings) -> Iterator[Finding]:
        for handler in context.handlers:
            function = handler.function
            if handler.called and function.asynchronous is None:
                yield Finding(
                    node=function.name,
                    message=(
                        f"`{function.name.value}` is a plain `def`: the SDK awaits every "
                        "handler, so every call fails (\"object dict can't be used in 'await' "
                        'expression"); declare it `async def`'
                    ),
                )
