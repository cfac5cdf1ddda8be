"""TRV307 agents-ignored-final-output."""

from __future__ import annotations

from collections.abc import Iterator

from lint_rules.analysis.shapes import Kind
from lint_rules.config import Settings
from lint_rules.frameworks.openai_agents.checks import is_literal
from lint_rules.frameworks.openai_agents.recognition import AgentsFile
from lint_rules.model import Severity
from lint_rules.rules import Example, Finding, Rule


class AgentsIgnoredFinalOutput(Rule):
    """
    ## What it does
    Checks for `ToolsToFinalOutputResult(is_final_output=False,
    final_output=...)` with a value that is certainly not `None`.

    ## Why is this bad?
    When the result is not final the runner goes back to the model and never
    reads `final_output` (openai-agents 0.24.0,
    `run_internal/turn_resolution.py:245-246`): the value is dropped. It is
    legal, and sometimes kept on purpose for debugging, so this rule is
    `info` and off by default; it usually means the flag is inverted.

    ## References
    - [OpenAI Agents SDK: agents, tool use behavior](https://openai.github.io/openai-agents-python/agents/)
    """

    code = "TRV307"
    name = "agents-ignored-final-output"
    severity = Severity.INFO
    framework = "openai_agents"
    message = "`final_output` given with `is_final_output=False` is ignored"

    invalid = (
        Example(
            code="""\
from agents import ToolsToFinalOutputResult


def answer_when_found(context, results) -> ToolsToFinalOutputResult:
    for result in results:
        if result.tool.name == "search":
            return ToolsToFinalOutputResult(is_final_output=False, final_output="Found it")
    return ToolsToFinalOutputResult(is_final_output=False)
""",
        ),
        Example(
            title="positional arguments",
            code="""\
from agents import ToolsToFinalOutputResult


def keep_going(context, results) -> ToolsToFinalOutputResult:
    return ToolsToFinalOutputResult(False, {"status": "pending"})
""",
        ),
    )
    valid = (
        Example(
            code="""\
from agents import ToolsToFinalOutputResult


def answer_when_found(context, results) -> ToolsToFinalOutputResult:
    for result in results:
        if result.tool.name == "search":
            return ToolsToFinalOutputResult(is_final_output=True, final_output="Found it")
    return ToolsToFinalOutputResult(is_final_output=False)
""",
        ),
        Example(
            title="an explicit None",
            code="""\
from agents import ToolsToFinalOutputResult

NOT_FINAL = ToolsToFinalOutputResult(is_final_output=False, final_output=None)
""",
        ),
        Example(
            title="a flag that is not known",
            code="""\
from agents import ToolsToFinalOutputResult


def decide(context, results) -> ToolsToFinalOutputResult:
    done = any(r.tool.name == "finish" for r in results)
    return ToolsToFinalOutputResult(is_final_output=done, final_output=results[-1].output)
""",
        ),
    )

    def check(self, context: AgentsFile, settings: Settings) -> Iterator[Finding]:
        for result in context.results:
            if result.final_output is None or not is_literal(result.shape(result.is_final), False):
                continue
            shape = result.shape(result.final_output)
            if shape is None or not shape.is_known or shape.kind is Kind.NONE:
                continue
            node = result.final_output.keyword or result.final_output.value
            yield Finding(
                node=node,
                message=(
                    "`final_output` is ignored when `is_final_output=False`: the model runs "
                    "again and never sees it; was `is_final_output=True` meant?"
                ),
            )
