"""TRV311 agents-duplicate-tool-name."""

from __future__ import annotations

from collections.abc import Iterator

from lint_rules.config import Settings
from lint_rules.frameworks.openai_agents.recognition import AgentsFile
from lint_rules.model import Severity
from lint_rules.rules import Example, Finding, Rule


class AgentsDuplicateToolName(Rule):
    """
    ## What it does
    Checks an agent's `tools=[...]` for two tools with the same name — the
    function's name, or its `name_override=` — including the same tool listed
    twice.

    ## Why is this bad?
    The model sees one tool per name. The SDK logs "Tool name collision
    detected" and keeps only the last tool of that name (openai-agents 0.24.0,
    `_tool_identity.py:503-549`): the other one can never be called, and the
    model's calls meant for it run the wrong function. Give one of them a
    `name_override=`.

    Only tools whose names are certain are compared (`@function_tool`s of
    this file, `function_tool(fn, ...)`, `agent.as_tool(tool_name="...")`).

    ## References
    - [OpenAI Agents SDK: tools](https://openai.github.io/openai-agents-python/tools/)
    """

    code = "TRV311"
    name = "agents-duplicate-tool-name"
    severity = Severity.WARNING
    framework = "openai_agents"
    message = "Two tools of one agent share a name"

    invalid = (
        Example(
            code="""\
from agents import Agent, function_tool


@function_tool
def search(query: str) -> str:
    return "web results"


def search_docs(query: str) -> str:
    return "doc results"


docs_search = function_tool(search_docs, name_override="search")

researcher = Agent(name="Researcher", tools=[search, docs_search])
""",
        ),
        Example(
            title="the same tool twice",
            code="""\
from agents import Agent, function_tool


@function_tool
def get_time(timezone: str) -> str:
    return "12:00"


assistant = Agent(name="Assistant", tools=[get_time, get_time])
""",
        ),
    )
    valid = (
        Example(
            code="""\
from agents import Agent, function_tool


@function_tool
def search(query: str) -> str:
    return "web results"


def search_docs(query: str) -> str:
    return "doc results"


docs_search = function_tool(search_docs, name_override="search_docs")

researcher = Agent(name="Researcher", tools=[search, docs_search])
""",
        ),
        Example(
            title="tools of unknown names",
            code="""\
from agents import Agent, WebSearchTool

from .tools import search

researcher = Agent(name="Researcher", tools=[WebSearchTool(), search])
""",
        ),
        Example(
            title="agents as tools with their own names",
            code="""\
from agents import Agent

spanish = Agent(name="Spanish")
french = Agent(name="French")
orchestrator = Agent(
    name="Orchestrator",
    tools=[
        spanish.as_tool(tool_name="translate_to_spanish", tool_description="To Spanish"),
        french.as_tool(tool_name="translate_to_french", tool_description="To French"),
    ],
)
""",
        ),
    )

    def check(self, context: AgentsFile, settings: Settings) -> Iterator[Finding]:
        for agent in context.agents:
            if agent.tools is None:
                continue
            seen: dict[str, str] = {}
            for entry in agent.tools:
                if entry.name is None:
                    continue
                source = context.module.code_for(entry.node).strip()
                first = seen.get(entry.name)
                if first is None:
                    seen[entry.name] = source
                    continue
                if first == source:
                    what = f"Tool `{entry.name}` is listed twice in {agent.label}'s tools"
                else:
                    what = (
                        f"`{source}` has the tool name `{entry.name}`, like `{first}` in "
                        f"{agent.label}'s tools"
                    )
                yield Finding(
                    node=entry.node,
                    message=(
                        f"{what}: the SDK keeps only the last tool of a name, so the other can "
                        "never be called"
                    ),
                )
