"""TRV305 agents-final-output-type-mismatch."""

from __future__ import annotations

from collections.abc import Iterator

from lint_rules.config import Settings
from lint_rules.frameworks.openai_agents.checks import conflict, final_results, with_article
from lint_rules.frameworks.openai_agents.recognition import AgentsFile
from lint_rules.model import Severity
from lint_rules.rules import Example, Finding, Rule


class AgentsFinalOutputTypeMismatch(Rule):
    """
    ## What it does
    Checks the `final_output` of `ToolsToFinalOutputResult(is_final_output=True,
    ...)` built by a behaviour function against the `output_type` declared by
    each `Agent(...)` that uses that function: a `str`, number, dict or list
    where a pydantic model, dataclass or other class is declared; anything but
    a dict where a `TypedDict` is declared; a `str` where `list[str]` is
    declared; `AgentOutputSchema(X)` is judged as `X`.
    The agent's keywords are also read under the misspellings TRV310 renames
    (`tool_use_behaviour=`, `output_types=`): the rename is the fix, and then
    the type must match.

    ## Why is this bad?
    The SDK documents that `final_output` "must match the `output_type` of the
    agent" and never checks it: for a non-`str` output type the runner passes
    the value through unchanged (openai-agents 0.24.0,
    `run_internal/turn_resolution.py:248-270`). `result.final_output` then is
    not what the code that reads it expects — `result.final_output.city`
    raises `AttributeError` far from the mistake, or a wrong-typed value flows
    on silently.

    Only definite conflicts are reported: both the declared type and the
    value's type must be certain. A value of unknown type, a `None` (TRV304),
    or an unset / `str` output type (TRV312) is not this rule's.

    ## Known problems
    The agent must be found: in the same file (flake8, editors) or, with
    `toolret check`, anywhere in the project — a behaviour function in
    `behaviors.py` is judged against the `Agent(...)` in `main.py` that
    imports it. A function used by two agents is judged against each.

    ## References
    - [OpenAI Agents SDK: agents, output types](https://openai.github.io/openai-agents-python/agents/)
    """

    code = "TRV305"
    name = "agents-final-output-type-mismatch"
    severity = Severity.ERROR
    framework = "openai_agents"
    message = "`final_output` conflicts with the agent's `output_type`"

    invalid = (
        Example(
            code="""\
from pydantic import BaseModel

from agents import Agent, FunctionToolResult, RunContextWrapper, ToolsToFinalOutputResult


class Weather(BaseModel):
    city: str
    conditions: str


async def weather_behavior(
    context: RunContextWrapper, results: list[FunctionToolResult]
) -> ToolsToFinalOutputResult:
    weather = results[0].output
    return ToolsToFinalOutputResult(
        is_final_output=True, final_output=f"{weather.city} is {weather.conditions}."
    )


agent = Agent(name="Weather agent", output_type=Weather, tool_use_behavior=weather_behavior)
""",
        ),
        Example(
            title="a dict where a dataclass is declared, through AgentOutputSchema",
            code="""\
from dataclasses import dataclass

from agents import Agent, AgentOutputSchema, ToolsToFinalOutputResult


@dataclass
class Quote:
    symbol: str
    price: float


def quote_from_tool(context, results):
    price = results[0].output
    return ToolsToFinalOutputResult(
        is_final_output=True, final_output={"symbol": "ACME", "price": price}
    )


quotes = Agent(
    name="Quotes",
    output_type=AgentOutputSchema(Quote, strict_json_schema=False),
    tool_use_behavior=quote_from_tool,
)
""",
        ),
        Example(
            title="an output type given under another library's name",
            code="""\
from pydantic import BaseModel

from agents import Agent, ToolsToFinalOutputResult


class Invoice(BaseModel):
    number: str
    total: float


def invoice_from_tool(context, results):
    return ToolsToFinalOutputResult(is_final_output=True, final_output=str(results[0].output))


billing = Agent(name="Billing", output_types=Invoice, tool_use_behavior=invoice_from_tool)
""",
        ),
    )
    valid = (
        Example(
            code="""\
from pydantic import BaseModel

from agents import Agent, FunctionToolResult, RunContextWrapper, ToolsToFinalOutputResult


class Weather(BaseModel):
    city: str
    conditions: str


async def weather_behavior(
    context: RunContextWrapper, results: list[FunctionToolResult]
) -> ToolsToFinalOutputResult:
    weather = results[0].output
    return ToolsToFinalOutputResult(is_final_output=True, final_output=weather)


agent = Agent(name="Weather agent", output_type=Weather, tool_use_behavior=weather_behavior)
""",
        ),
        Example(
            title="a model built from the tool output",
            code="""\
from pydantic import BaseModel

from agents import Agent, ToolsToFinalOutputResult


class Weather(BaseModel):
    city: str
    conditions: str


def weather_behavior(context, results):
    return ToolsToFinalOutputResult(
        is_final_output=True, final_output=Weather(city="Tokyo", conditions="Sunny")
    )


agent = Agent(name="Weather agent", output_type=Weather, tool_use_behavior=weather_behavior)
""",
        ),
        Example(
            title="a TypedDict output takes a dict; an imported type is unknown to flake8",
            code="""\
from typing import TypedDict

from agents import Agent, ToolsToFinalOutputResult

from .models import Report


class Totals(TypedDict):
    count: int


def count_behavior(context, results):
    return ToolsToFinalOutputResult(is_final_output=True, final_output={"count": len(results)})


def report_behavior(context, results):
    return ToolsToFinalOutputResult(is_final_output=True, final_output="done")


totals = Agent(name="Totals", output_type=Totals, tool_use_behavior=count_behavior)
reports = Agent(name="Reports", output_type=Report, tool_use_behavior=report_behavior)
""",
        ),
    )

    def check(self, context: AgentsFile, settings: Settings) -> Iterator[Finding]:
        extra = frozenset(settings.openai_agents.extra_agent_arguments)
        for result, behaviour in final_results(context):
            assert result.final_output is not None
            shape = result.shape(result.final_output)
            if shape is None:
                continue
            node = result.final_output.keyword or result.final_output.value
            for use in behaviour.uses_under(extra):
                found = conflict(context.module, use.output_type, shape)
                if found is None:
                    continue
                where = f" ({use.where})" if use.where else ""
                yield Finding(
                    node=node,
                    message=(
                        f"`final_output` is {with_article(found)} but {use.label}{where} declares "
                        f"`output_type={use.output_type.display}`: the runner passes it through "
                        "unchecked, so the caller gets the wrong type"
                    ),
                )
