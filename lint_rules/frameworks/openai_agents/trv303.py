"""TRV303 agents-behavior-wrong-return."""

from __future__ import annotations

from collections.abc import Iterator

from lint_rules.config import Settings
from lint_rules.frameworks.openai_agents.checks import describe, with_article, wrong_return
from lint_rules.frameworks.openai_agents.recognition import AgentsFile
from lint_rules.model import Severity
from lint_rules.rules import Example, Finding, Rule


class AgentsBehaviorWrongReturn(Rule):
    """
    ## What it does
    Checks behaviour functions — the callable given as
    `Agent(tool_use_behavior=...)`, or any function annotated to return
    `ToolsToFinalOutputResult` — for returns that are certainly not a
    `ToolsToFinalOutputResult`: a dict shaped like one, a bool, a string,
    `None` (also a bare `return` or falling off the end).
    A callable given under the misspelling TRV310 renames
    (`tool_use_behaviour=`) is a behaviour function too: the rename is the
    fix, and then its returns must be right.

    ## Why is this bad?
    After the tools of a turn ran, the runner calls the function and raises
    `UserError("Agent tool_use_behavior callable must return
    ToolsToFinalOutputResult.")` for anything else (openai-agents 0.24.0,
    `run_internal/turn_resolution.py:799-806`) — in the middle of a run, after
    the tools' side effects happened. `{"is_final_output": True,
    "final_output": ...}` looks right and is not.

    In whole-project mode (`toolret check`) the function may be defined in a
    file that the `Agent(...)` using it imports it from; flake8 sees only
    agents built in the same file.

    ## References
    - [OpenAI Agents SDK: agents, tool use behavior](https://openai.github.io/openai-agents-python/agents/)
    """

    code = "TRV303"
    name = "agents-behavior-wrong-return"
    severity = Severity.ERROR
    framework = "openai_agents"
    message = "Behaviour function returns something other than `ToolsToFinalOutputResult`"

    invalid = (
        Example(
            code="""\
from agents import Agent, FunctionToolResult, RunContextWrapper


def stop_after_booking(
    context: RunContextWrapper, results: list[FunctionToolResult]
):
    for result in results:
        if result.tool.name == "book_flight":
            return {"is_final_output": True, "final_output": result.output}
    return {"is_final_output": False}


booking_agent = Agent(name="Booking", tool_use_behavior=stop_after_booking)
""",
        ),
        Example(
            title="a bool, and falling off the end",
            code="""\
from agents import Agent, ToolsToFinalOutputResult


def done_when_saved(context, results) -> ToolsToFinalOutputResult:
    if any(r.tool.name == "save" for r in results):
        return True


saver = Agent(name="Saver", tool_use_behavior=done_when_saved)
""",
        ),
        Example(
            title="a lambda",
            code="""\
from agents import Agent

agent = Agent(name="Echo", tool_use_behavior=lambda ctx, results: results[0].output)
agent2 = Agent(name="Echo", tool_use_behavior=lambda ctx, results: {"is_final_output": True})
""",
        ),
        Example(
            title="under the British spelling TRV310 renames",
            code="""\
from agents import Agent, function_tool


@function_tool
def search_flights(origin: str, destination: str) -> str:
    return f"3 flights from {origin} to {destination}"


def stop_after_search(context, results):
    for result in results:
        if result.tool.name == "search_flights":
            return {"is_final_output": True, "final_output": result.output}
    return {"is_final_output": False, "final_output": None}


travel_agent = Agent(
    name="Travel agent",
    tools=[search_flights],
    tool_use_behaviour=stop_after_search,
)
""",
        ),
    )
    valid = (
        Example(
            code="""\
from typing import Any

from agents import Agent, FunctionToolResult, RunContextWrapper, ToolsToFinalOutputResult


async def custom_tool_use_behavior(
    context: RunContextWrapper[Any], results: list[FunctionToolResult]
) -> ToolsToFinalOutputResult:
    weather = results[0].output
    return ToolsToFinalOutputResult(
        is_final_output=True, final_output=f"{weather.city} is {weather.conditions}."
    )


agent = Agent(name="Weather agent", tool_use_behavior=custom_tool_use_behavior)
""",
        ),
        Example(
            title="a shared constant and a helper's result",
            code="""\
from agents import Agent, ToolsToFinalOutputResult

NOT_FINAL = ToolsToFinalOutputResult(is_final_output=False, final_output=None)


def decide(context, results):
    if not results:
        return NOT_FINAL
    return summarise(results)


agent = Agent(name="Summariser", tool_use_behavior=decide)
""",
        ),
        Example(
            title="a helper function that is not the behaviour",
            code="""\
from agents import Agent, ToolsToFinalOutputResult


def is_final(results) -> bool:
    return any(r.tool.name == "finish" for r in results)


def behaviour(context, results) -> ToolsToFinalOutputResult:
    if is_final(results):
        return ToolsToFinalOutputResult(is_final_output=True, final_output=results[-1].output)
    raise RuntimeError("unreachable")


agent = Agent(name="Finisher", tool_use_behavior=behaviour)
""",
        ),
    )

    def check(self, context: AgentsFile, settings: Settings) -> Iterator[Finding]:
        extra = frozenset(settings.openai_agents.extra_agent_arguments)
        for behaviour in context.behaviours:
            if not behaviour.is_behaviour_under(extra):
                continue
            for node, shape in behaviour.returned:
                if not wrong_return(shape):
                    continue
                what = describe(shape)
                if shape.kind.value == "dict":
                    advice = (
                        "; build `ToolsToFinalOutputResult(is_final_output=..., final_output=...)`"
                    )
                else:
                    advice = ""
                yield Finding(
                    node=node,
                    message=(
                        f"Behaviour function `{behaviour.name}` returns {_article(what)}, not a "
                        "`ToolsToFinalOutputResult`: the runner raises `UserError` after the "
                        f"tools ran{advice}"
                    ),
                )


def _article(what: str) -> str:
    if what == "None":
        return "`None`"
    return with_article(what)
