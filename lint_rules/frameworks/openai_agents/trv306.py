"""TRV306 agents-non-bool-final-flag."""

from __future__ import annotations

from collections.abc import Iterator

from lint_rules.analysis.shapes import Kind
from lint_rules.config import Settings
from lint_rules.frameworks.openai_agents.checks import with_article
from lint_rules.frameworks.openai_agents.recognition import AgentsFile
from lint_rules.model import Severity
from lint_rules.rules import Example, Finding, Rule


class AgentsNonBoolFinalFlag(Rule):
    """
    ## What it does
    Checks for `ToolsToFinalOutputResult(is_final_output=...)` given a value
    that is certainly not a `bool`: a string, a number, `None`, a container.

    ## Why is this bad?
    The runner tests the flag for truth (`if not check_tool_use.is_final_output`,
    openai-agents 0.24.0, `run_internal/turn_resolution.py:245-246`), so
    `is_final_output="False"` — a non-empty string — ends the run, and
    `is_final_output=result.output` ends it whenever a tool returned
    anything. Pass `True` or `False`, or a comparison.

    ## References
    - [OpenAI Agents SDK: agents, tool use behavior](https://openai.github.io/openai-agents-python/agents/)
    """

    code = "TRV306"
    name = "agents-non-bool-final-flag"
    severity = Severity.WARNING
    framework = "openai_agents"
    message = "`is_final_output` given a value that is not a bool"

    invalid = (
        Example(
            code="""\
from agents import ToolsToFinalOutputResult


def keep_going(context, results) -> ToolsToFinalOutputResult:
    return ToolsToFinalOutputResult(is_final_output="False", final_output=None)
""",
        ),
        Example(
            title="a number read from configuration",
            code="""\
from agents import ToolsToFinalOutputResult

STOP = 1


def stop(context, results) -> ToolsToFinalOutputResult:
    return ToolsToFinalOutputResult(is_final_output=STOP, final_output=results[0].output)
""",
        ),
    )
    valid = (
        Example(
            code="""\
from agents import ToolsToFinalOutputResult


def keep_going(context, results) -> ToolsToFinalOutputResult:
    return ToolsToFinalOutputResult(is_final_output=False, final_output=None)
""",
        ),
        Example(
            title="a comparison is a bool",
            code="""\
from agents import ToolsToFinalOutputResult


def stop_on_refund(context, results) -> ToolsToFinalOutputResult:
    last = results[-1]
    return ToolsToFinalOutputResult(
        is_final_output=last.tool.name == "refund", final_output=last.output
    )
""",
        ),
        Example(
            title="a value of unknown type",
            code="""\
from agents import ToolsToFinalOutputResult


def decide(context, results, settings) -> ToolsToFinalOutputResult:
    return ToolsToFinalOutputResult(
        is_final_output=settings.stop_early, final_output=results[0].output
    )
""",
        ),
    )

    def check(self, context: AgentsFile, settings: Settings) -> Iterator[Finding]:
        for result in context.results:
            shape = result.shape(result.is_final)
            if shape is None or not shape.is_known or shape.kind is Kind.BOOL:
                continue
            if shape.kind is Kind.INSTANCE:
                continue
            assert result.is_final is not None
            node = result.is_final.keyword or result.is_final.value
            truth = shape.is_truthy()
            effect = (
                " — it is truthy, so the run ends"
                if truth is True
                else " — it is falsy, so the run goes on"
                if truth is False
                else ""
            )
            yield Finding(
                node=node,
                message=(
                    f"`is_final_output` is {_kind(shape.kind)}, not a bool{effect}; "
                    "pass `True` or `False`"
                ),
            )


def _kind(kind: Kind) -> str:
    if kind is Kind.NONE:
        return "`None`"
    return with_article(kind.value)
