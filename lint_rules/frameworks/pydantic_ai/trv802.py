"""TRV802 pydantic-ai-plain-tool-context."""

from __future__ import annotations

from collections.abc import Iterator

from lint_rules.config import Settings
from lint_rules.frameworks.pydantic_ai.recognition import Ctx, PydanticAiFile, parameters
from lint_rules.model import Severity
from lint_rules.rules import Example, Finding, Rule

_NAMES = frozenset({"ctx", "context"})


class PydanticAiPlainToolContext(Rule):
    """
    ## What it does
    Checks plain Pydantic AI tools (`@agent.tool_plain`, `@toolset.tool_plain`,
    `Tool(fn, takes_ctx=False)`, and `Tool(fn)` / `tools=[fn]` whose first
    parameter has no annotation) for a first parameter named `ctx` or
    `context` without an annotation and without a default.

    ## Why is this bad?
    Pydantic AI passes the run context by kind and annotation, never by name.
    In a plain tool an unannotated `ctx` is an ordinary argument: it is sent to
    the model in the tool's schema as a required parameter (`{"ctx": {}}`),
    the model has to invent a value, and a call without it comes back as a
    retry (`Field required`) — while the tool never gets the context it
    expects (verified with pydantic-ai-slim 1.107 and 2.68). Register it with
    `@agent.tool` and annotate `ctx: RunContext[Deps]`, or drop the parameter.

    ## References
    - [Pydantic AI: function tools](https://ai.pydantic.dev/tools/)
    """

    code = "TRV802"
    name = "pydantic-ai-plain-tool-context"
    severity = Severity.WARNING
    framework = "pydantic_ai"
    message = "A plain Pydantic AI tool's first parameter is an unannotated `ctx`"

    invalid = (
        Example(
            code="""\
from pydantic_ai import Agent

agent = Agent("openai:gpt-4o", deps_type=dict)


@agent.tool_plain
def customer_balance(ctx, customer_id: int) -> str:
    \"\"\"Return a customer's balance.\"\"\"
    return f"{ctx.deps[customer_id]:.2f} EUR"
""",
        ),
        Example(
            title="a function in `tools=[...]`: inferred plain",
            code="""\
from pydantic_ai import Agent


def search_docs(context, query: str) -> str:
    \"\"\"Search the documentation.\"\"\"
    return context.deps.search(query)


agent = Agent("openai:gpt-4o", tools=[search_docs])
""",
        ),
    )
    valid = (
        Example(
            code="""\
from pydantic_ai import Agent, RunContext

agent = Agent("openai:gpt-4o", deps_type=dict)


@agent.tool
def customer_balance(ctx: RunContext[dict], customer_id: int) -> str:
    \"\"\"Return a customer's balance.\"\"\"
    return f"{ctx.deps[customer_id]:.2f} EUR"
""",
        ),
        Example(
            title="a real argument named `context`",
            code="""\
from pydantic_ai import Agent

agent = Agent("openai:gpt-4o")


@agent.tool_plain
def summarise(context: str, max_words: int = 50) -> str:
    \"\"\"Summarise a passage.\"\"\"
    return " ".join(context.split()[:max_words])
""",
        ),
        Example(
            title="an unannotated `ctx` of a context tool is the context",
            code="""\
from pydantic_ai import Agent

agent = Agent("openai:gpt-4o", deps_type=dict)


@agent.tool
def customer_balance(ctx, customer_id: int) -> str:
    return f"{ctx.deps[customer_id]:.2f} EUR"
""",
        ),
    )

    def check(self, context: PydanticAiFile, settings: Settings) -> Iterator[Finding]:
        for tool in context.checked_registrations:
            if tool.ctx not in (Ctx.PLAIN, Ctx.INFERRED):
                continue
            params = parameters(tool.function)
            if not params:
                continue
            first = params[0]
            if (
                first.name.value not in _NAMES
                or first.annotation is not None
                or first.default is not None
                or first not in (*tool.function.params.posonly_params, *tool.function.params.params)
            ):
                continue
            name = first.name.value
            via = context.registered(tool)
            yield Finding(
                node=first,
                message=(
                    f"Plain tool `{tool.name}` ({via}) takes an unannotated `{name}` "
                    f"first: Pydantic AI does not pass the context, it asks the model for a "
                    f"required `{name}` argument; register it with `@agent.tool` and annotate "
                    f"`{name}: RunContext[...]`"
                ),
            )
