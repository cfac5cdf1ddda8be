"""TRV312 agents-final-output-not-str."""

from __future__ import annotations

from collections.abc import Iterator

from lint_rules.analysis.shapes import Kind
from lint_rules.config import Settings
from lint_rules.frameworks.openai_agents.checks import (
    certain_instance_name,
    final_results,
    with_article,
)
from lint_rules.frameworks.openai_agents.recognition import AgentsFile
from lint_rules.model import Applicability, Severity
from lint_rules.rules import Example, Finding, Rule, wrap_in_str

_WRAPPABLE = frozenset({Kind.INT, Kind.FLOAT})


class AgentsFinalOutputNotStr(Rule):
    """
    ## What it does
    Checks the `final_output` of `ToolsToFinalOutputResult(is_final_output=True,
    ...)` built by a behaviour function whose agent's `output_type` is unset
    or `str`, for values that are certainly not a `str`: numbers, dicts,
    lists, model instances.
    The agent's keywords are also read under the misspellings TRV310 renames
    (`output_types=Plan` declares `Plan`): the value is not converted once the
    rename is made, so this rule does not ask for `str()`.

    ## Why is this bad?
    For such agents the runner silently does `str(final_output)` (openai-agents
    0.24.0, `run_internal/turn_resolution.py:248-249`): `final_output=100`
    comes back as `"100"`, a dict as its Python repr (`"{'total': 3}"`, not
    JSON). What the code returns is not what the caller of `Runner.run` gets.
    Return the string you mean (`json.dumps(...)`, `model.model_dump_json()`)
    or declare the `output_type` the value has.

    `None` is TRV304's. The agent must be found, as for TRV305 (same file, or
    the whole project with `toolret check`); each agent that uses the
    function is judged.

    ## Fix safety
    For an `int` or `float` the fix wraps the value in `str()`: exactly the
    conversion the runner already does, made explicit, so the result is
    unchanged. It is safe.

    No fix is offered where `str` there is not the builtin: a module-level
    `str = ...`, a parameter or local named `str`, a `global str` rebound
    elsewhere, or a star import that could bind it. The diagnostic stays.

    ## References
    - [OpenAI Agents SDK: agents, output types](https://openai.github.io/openai-agents-python/agents/)
    """

    code = "TRV312"
    name = "agents-final-output-not-str"
    severity = Severity.WARNING
    framework = "openai_agents"
    fix_applicability = Applicability.SAFE
    message = "Non-`str` `final_output` silently turned into a string"

    invalid = (
        Example(
            code="""\
from agents import Agent, ToolsToFinalOutputResult, function_tool


@function_tool
def count_open_tickets(team: str) -> int:
    return 7


def return_count(context, results):
    count = len(results)
    return ToolsToFinalOutputResult(is_final_output=True, final_output=count * 100)


agent = Agent(name="Tickets", tools=[count_open_tickets], tool_use_behavior=return_count)
""",
            fixed="""\
from agents import Agent, ToolsToFinalOutputResult, function_tool


@function_tool
def count_open_tickets(team: str) -> int:
    return 7


def return_count(context, results):
    count = len(results)
    return ToolsToFinalOutputResult(is_final_output=True, final_output=str(count * 100))


agent = Agent(name="Tickets", tools=[count_open_tickets], tool_use_behavior=return_count)
""",
        ),
        Example(
            title="a dict with output_type=str",
            code="""\
from agents import Agent, ToolsToFinalOutputResult


def summary(context, results) -> ToolsToFinalOutputResult:
    return ToolsToFinalOutputResult(
        is_final_output=True,
        final_output={"tools": len(results), "status": "ok"},
    )


agent = Agent(name="Summary", output_type=str, tool_use_behavior=summary)
""",
        ),
    )
    valid = (
        Example(
            code="""\
import json

from agents import Agent, ToolsToFinalOutputResult


def summary(context, results) -> ToolsToFinalOutputResult:
    return ToolsToFinalOutputResult(
        is_final_output=True,
        final_output=json.dumps({"tools": len(results), "status": "ok"}),
    )


agent = Agent(name="Summary", output_type=str, tool_use_behavior=summary)
""",
        ),
        Example(
            title="the agent declares the value's type",
            code="""\
from agents import Agent, ToolsToFinalOutputResult


def return_count(context, results):
    return ToolsToFinalOutputResult(is_final_output=True, final_output=len(results))


agent = Agent(name="Counter", output_type=int, tool_use_behavior=return_count)
""",
        ),
        Example(
            title="no agent known to use the function",
            code="""\
from agents import ToolsToFinalOutputResult


def return_count(context, results) -> ToolsToFinalOutputResult:
    return ToolsToFinalOutputResult(is_final_output=True, final_output=len(results))
""",
        ),
        Example(
            title="an output type given under another library's name (TRV310 renames it)",
            code="""\
from pydantic import BaseModel

from agents import Agent, ToolsToFinalOutputResult


class Invoice(BaseModel):
    number: str
    total: float


def invoice_from_tool(context, results):
    invoice = Invoice(number="INV-1", total=results[0].output)
    return ToolsToFinalOutputResult(is_final_output=True, final_output=invoice)


billing = Agent(name="Billing", output_types=Invoice, tool_use_behavior=invoice_from_tool)
""",
        ),
    )

    def check(self, context: AgentsFile, settings: Settings) -> Iterator[Finding]:
        extra = frozenset(settings.openai_agents.extra_agent_arguments)
        for result, behaviour in final_results(context):
            assert result.final_output is not None
            shape = result.shape(result.final_output)
            if shape is None or shape.kind in (Kind.STR, Kind.NONE, Kind.UNKNOWN):
                continue
            if shape.kind is Kind.INSTANCE:
                name = certain_instance_name(context.module, shape)
            else:
                name = shape.kind.value
            if name is None:
                continue
            node = result.final_output.keyword or result.final_output.value
            fixed = False
            for use in behaviour.uses_under(extra):
                if use.output_type.kind not in ("unset", "str"):
                    continue
                where = f" ({use.where})" if use.where else ""
                declared = (
                    "has no `output_type`"
                    if use.output_type.kind == "unset"
                    else "declares `output_type=str`"
                )
                fix = None
                if shape.kind in _WRAPPABLE and not fixed:
                    fix = wrap_in_str(result.final_output.value, context.module)
                    fixed = True
                yield Finding(
                    node=node,
                    message=(
                        f"`final_output` is {with_article(name)} but {use.label}{where} "
                        f"{declared}: the runner silently turns it into `str(value)`"
                    ),
                    fix=fix,
                )
