"""TRC006 claude-sdk-tool-decorator-not-called."""

from __future__ import annotations

from collections.abc import Iterator

from lint_rules.config import Settings
from lint_rules.frameworks.claude_agent_sdk._examples import HEAD
from lint_rules.frameworks.claude_agent_sdk.recognition import ClaudeSdkFile
from lint_rules.model import Severity
from lint_rules.rules import Example, Finding, Rule


class ClaudeSdkToolDecoratorNotCalled(Rule):
    """
    ## What it does
    Checks for the Claude Agent SDK's `tool` used as a bare decorator
    (`@tool` instead of `@tool(name, description, input_schema)`).

    ## Why is this bad?
    `tool` is a decorator factory that takes the tool's name, description and
    input schema: applied bare, it is called with the function as its name and
    raises `TypeError: tool() missing 2 required positional arguments` when
    the module is imported (verified with claude-agent-sdk 0.2.190) — the
    whole agent fails to start. Unlike LangChain's or Strands' `@tool`, it
    has no bare form.

    ## References
    - [Claude Agent SDK: custom tools](https://docs.claude.com/en/api/agent-sdk/custom-tools)
    """

    code = "TRC006"
    name = "claude-sdk-tool-decorator-not-called"
    severity = Severity.ERROR
    framework = "claude_agent_sdk"
    message = "The Claude Agent SDK's `@tool` is used without its arguments"

    invalid = (
        Example(
            code=HEAD
            + """\
@tool
async def get_weather(args):
    \"\"\"The weather in a city.\"\"\"
    return {"content": [{"type": "text", "text": f"Sunny in {args['city']}"}]}
""",
        ),
        Example(
            title="through the module's name",
            code="""\
import claude_agent_sdk


@claude_agent_sdk.tool
async def get_weather(args):
    return {"content": [{"type": "text", "text": "Sunny"}]}
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
            title="LangChain's bare `@tool`",
            code="""\
from langchain_core.tools import tool


@tool
def get_weather(city: str) -> str:
    \"\"\"The weather in a city.\"\"\"
    return f"Sunny in {city}"
""",
        ),
        Example(
            title="`tool` shadowed by a local decorator",
            code="""\
from claude_agent_sdk import create_sdk_mcp_server


def tool(function):
    return function


@tool
async def get_weather(args):
    return {"content": [{"type": "text", "text": "Sunny"}]}
""",
        ),
    )

    def check(self, context: ClaudeSdkFile, settings: Settings) -> Iterator[Finding]:
        for handler in context.handlers:
            if not handler.called and handler.decorator is not None:
                yield Finding(
                    node=handler.decorator,
                    message=(
                        "`@tool` without its arguments: `tool(name, description, "
                        "input_schema)` is a decorator factory, and the module raises "
                        '`TypeError` when it is imported; write `@tool("name", '
                        '"description", {"arg": str})`'
                    ),
                )
