"""TRV801 pydantic-ai-run-context-placement."""

from __future__ import annotations

from collections.abc import Iterator

from lint_rules.config import Settings
from lint_rules.frameworks.pydantic_ai.recognition import (
    Ctx,
    PydanticAiFile,
    PydanticTool,
    parameters,
)
from lint_rules.model import Severity
from lint_rules.rules import Example, Finding, Rule


class PydanticAiRunContextPlacement(Rule):
    """
    ## What it does
    Checks Pydantic AI tools for a `RunContext` parameter where the framework
    does not pass one:

    - a tool that takes the context (`@agent.tool`, `Tool(fn, takes_ctx=True)`)
      whose first parameter is annotated with something other than
      `RunContext` / `RunContext[...]` (an unannotated first parameter is
      silently the context and is not reported);
    - a context tool with no parameter at all;
    - a parameter annotated `RunContext` in any position but the first, for
      any tool (`@toolset.tool`, `Tool(fn)` and `tools=[fn]` included);
    - a plain tool (`@agent.tool_plain`, `Tool(fn, takes_ctx=False)`) with a
      `RunContext` parameter.

    ## Why is this bad?
    Pydantic AI decides where the context goes by the tool's kind and the
    annotation, never by the parameter's name (`_function_schema.py`,
    pydantic-ai-slim 1.107 and 2.68). A misplaced `RunContext` raises
    `UserError: Error generating schema for <tool>: First parameter of tools
    that take context must be annotated with RunContext[...]` (or "RunContext
    annotations can only be used as the first argument" / "…only be used with
    tools that take context") when the module is imported, so the agent never
    starts. A context tool without parameters passes registration and then
    fails every call with `TypeError: <tool>() takes 0 positional arguments but
    1 was given`, which aborts the run. Take `ctx: RunContext[Deps]` first, or
    register the function with `tool_plain`.

    `@toolset.tool` on a function without a `RunContext` first parameter is
    left alone: Pydantic AI 1.x infers a plain tool (with a
    `DeprecationWarning`), 2.x raises the same `UserError`.

    ## References
    - [Pydantic AI: function tools](https://ai.pydantic.dev/tools/)
    - [Pydantic AI: `RunContext`](https://ai.pydantic.dev/api/tools/#pydantic_ai.tools.RunContext)
    """

    code = "TRV801"
    name = "pydantic-ai-run-context-placement"
    severity = Severity.ERROR
    framework = "pydantic_ai"
    message = "A Pydantic AI tool's `RunContext` parameter is missing or misplaced"

    invalid = (
        Example(
            title="a context tool whose first parameter is the model's argument",
            code="""\
from pydantic_ai import Agent

agent = Agent("openai:gpt-4o-mini", system_prompt="Answer from the knowledge base.")


@agent.tool
async def vector_search(query: str, limit: int = 5) -> str:
    \"\"\"Search the knowledge base.\"\"\"
    rows = await db.search(query, limit)
    return "\\n".join(row.text for row in rows)
""",
        ),
        Example(
            title="a plain tool that asks for the context",
            code="""\
from pydantic_ai import Agent, RunContext

agent = Agent("openai:gpt-4o", deps_type=str)


@agent.tool_plain
def player_name(ctx: RunContext[str]) -> str:
    \"\"\"Get the player's name.\"\"\"
    return ctx.deps
""",
        ),
        Example(
            title="the context after another parameter",
            code="""\
from pydantic_ai import Agent, RunContext, Tool


def lookup_order(order_id: str, ctx: RunContext[dict]) -> str:
    \"\"\"Look up an order.\"\"\"
    return ctx.deps[order_id]


agent = Agent("openai:gpt-4o", tools=[Tool(lookup_order)])
""",
        ),
        Example(
            title="a context tool without parameters",
            code="""\
from datetime import datetime

from pydantic_ai import Agent

agent = Agent("openai:gpt-4o")


@agent.tool
def now() -> str:
    \"\"\"The current time.\"\"\"
    return datetime.now().isoformat()
""",
        ),
    )
    valid = (
        Example(
            code="""\
from pydantic_ai import Agent, RunContext

agent = Agent("openai:gpt-4o-mini", deps_type=Database)


@agent.tool
async def vector_search(ctx: RunContext[Database], query: str, limit: int = 5) -> str:
    \"\"\"Search the knowledge base.\"\"\"
    rows = await ctx.deps.search(query, limit)
    return "\\n".join(row.text for row in rows)
""",
        ),
        Example(
            title="plain tools, registered three ways",
            code="""\
import random

from pydantic_ai import Agent, Tool


def roll_dice() -> str:
    \"\"\"Roll a six-sided die.\"\"\"
    return str(random.randint(1, 6))


def coin() -> str:
    return random.choice(["heads", "tails"])


agent = Agent("openai:gpt-4o", tools=[Tool(roll_dice, takes_ctx=False), coin])


@agent.tool_plain
def now() -> str:
    return "12:00"
""",
        ),
        Example(
            title="an unannotated first parameter is the context",
            code="""\
from pydantic_ai import Agent

agent = Agent("openai:gpt-4o", deps_type=str)


@agent.tool
def player_name(ctx) -> str:
    return ctx.deps
""",
        ),
        Example(
            title="a project's own Agent class",
            code="""\
from myproject.agents import Agent

agent = Agent("support")


@agent.tool
def lookup_order(order_id: str) -> str:
    return order_id
""",
        ),
    )

    def check(self, context: PydanticAiFile, settings: Settings) -> Iterator[Finding]:
        for tool in context.checked_registrations:
            yield from _check_tool(context, tool)


def _check_tool(context: PydanticAiFile, tool: PydanticTool) -> Iterator[Finding]:
    params = parameters(tool.function)
    name = tool.name
    via = context.registered(tool)
    if tool.ctx is Ctx.CONTEXT:
        if not params:
            yield Finding(
                node=tool.function.name,
                message=(
                    f"Tool `{name}` ({via}) takes the context but has no parameter: every "
                    f"call fails with `TypeError: {name}() takes 0 positional arguments but 1 "
                    "was given`; add `ctx: RunContext[...]` or register it with `tool_plain`"
                ),
            )
            return
        first = params[0]
        if first.annotation is not None:
            verdict = context.is_run_context(first.annotation.annotation)
            if verdict is False:
                code = context.module.code_for(first.annotation.annotation).strip()
                yield Finding(
                    node=first,
                    message=(
                        f"Tool `{name}` ({via}) takes the context first, but its first "
                        f"parameter `{first.name.value}` is annotated `{code}`: Pydantic AI "
                        "raises `UserError: First parameter of tools that take context must be "
                        "annotated with RunContext[...]` when it is registered; add "
                        "`ctx: RunContext[...]` "
                        "first or register it with `tool_plain`"
                    ),
                )
    for position, param in enumerate(params):
        if param.annotation is None:
            continue
        if position == 0 and tool.ctx is not Ctx.PLAIN:
            continue
        if context.is_run_context(param.annotation.annotation) is not True:
            continue
        if tool.ctx is Ctx.PLAIN:
            detail = "RunContext annotations can only be used with tools that take context"
            advice = "register it with `tool`"
            if position > 0:
                advice += " and take the context first"
        else:
            first = params[0]
            first_is_context = tool.ctx is Ctx.CONTEXT or (
                first.annotation is not None
                and context.is_run_context(first.annotation.annotation) is True
            )
            if first_is_context or tool.ctx is Ctx.UNKNOWN:
                detail = "RunContext annotations can only be used as the first argument"
            else:  # inferred plain (and 1.x's `FunctionToolset.tool`)
                detail = "RunContext annotations can only be used with tools that take context"
            advice = "make it the first parameter"
        yield Finding(
            node=param,
            message=(
                f"Tool `{name}` ({via}) has `{param.name.value}: RunContext` "
                + ("as a plain tool" if tool.ctx is Ctx.PLAIN else f"in position {position + 1}")
                + f": Pydantic AI raises `UserError: {detail}` when it is registered; {advice}"
            ),
        )
