"""TRV304 agents-final-output-none."""

from __future__ import annotations

from collections.abc import Iterator

from lint_rules.analysis.shapes import Kind
from lint_rules.config import Settings
from lint_rules.frameworks.openai_agents.checks import is_literal
from lint_rules.frameworks.openai_agents.recognition import AgentsFile
from lint_rules.model import Severity
from lint_rules.rules import Example, Finding, Rule


class AgentsFinalOutputNone(Rule):
    """
    ## What it does
    Checks for `ToolsToFinalOutputResult(is_final_output=True)` without a
    `final_output`, or with `final_output=None`.

    ## Why is this bad?
    The run ends with that value as its result. With `output_type` unset or
    `str` the runner turns it into `str(None)`, so `result.final_output` is
    the four-character string `"None"`; with any other output type the runner
    only logs "Model returned a final output of None" and the caller gets
    `None` where it expects its model (openai-agents 0.24.0,
    `run_internal/turn_resolution.py:249-258`). Either way the answer is
    lost: pass the value the run should return, or `is_final_output=False`
    to let the model continue.

    ## References
    - [OpenAI Agents SDK: agents, tool use behavior](https://openai.github.io/openai-agents-python/agents/)
    """

    code = "TRV304"
    name = "agents-final-output-none"
    severity = Severity.WARNING
    framework = "openai_agents"
    message = "Final `ToolsToFinalOutputResult` without a `final_output`"

    invalid = (
        Example(
            code="""\
from agents import FunctionToolResult, RunContextWrapper, ToolsToFinalOutputResult


def stop_after_send(
    context: RunContextWrapper, results: list[FunctionToolResult]
) -> ToolsToFinalOutputResult:
    if any(r.tool.name == "send_email" for r in results):
        return ToolsToFinalOutputResult(is_final_output=True)
    return ToolsToFinalOutputResult(is_final_output=False)
""",
        ),
        Example(
            title="an explicit None",
            code="""\
from agents import ToolsToFinalOutputResult


def finish(context, results) -> ToolsToFinalOutputResult:
    answer = None
    return ToolsToFinalOutputResult(is_final_output=True, final_output=answer)
""",
        ),
    )
    valid = (
        Example(
            code="""\
from agents import FunctionToolResult, RunContextWrapper, ToolsToFinalOutputResult


def stop_after_send(
    context: RunContextWrapper, results: list[FunctionToolResult]
) -> ToolsToFinalOutputResult:
    for result in results:
        if result.tool.name == "send_email":
            return ToolsToFinalOutputResult(is_final_output=True, final_output=result.output)
    return ToolsToFinalOutputResult(is_final_output=False)
""",
        ),
        Example(
            title="not final: no output needed",
            code="""\
from agents import ToolsToFinalOutputResult

NOT_FINAL_OUTPUT = ToolsToFinalOutputResult(is_final_output=False, final_output=None)
""",
        ),
        Example(
            title="a value that may be None is not reported",
            code="""\
from agents import ToolsToFinalOutputResult


def finish(context, results) -> ToolsToFinalOutputResult:
    outputs = [r.output for r in results if r.output is not None]
    answer = outputs[0] if outputs else ""
    return ToolsToFinalOutputResult(is_final_output=True, final_output=answer)
""",
        ),
    )

    def check(self, context: AgentsFile, settings: Settings) -> Iterator[Finding]:
        for result in context.results:
            if result.has_star_arguments or result.is_final is None:
                continue
            if not is_literal(result.shape(result.is_final), True):
                continue
            if result.final_output is None:
                node = result.is_final.keyword or result.is_final.value
                what = "without a `final_output`"
            else:
                shape = result.shape(result.final_output)
                if shape is None or shape.kind is not Kind.NONE:
                    continue
                node = result.final_output.keyword or result.final_output.value
                what = "with `final_output=None`"
            yield Finding(
                node=node,
                message=(
                    f"`ToolsToFinalOutputResult(is_final_output=True)` {what}: the run ends "
                    'with `None` (or the string `"None"` when `output_type` is unset or `str`)'
                ),
            )
