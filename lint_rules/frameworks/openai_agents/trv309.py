"""TRV309 agents-function-tool-returns-handoff."""

from __future__ import annotations

from collections.abc import Iterator

from lint_rules.config import Settings
from lint_rules.frameworks.openai_agents.checks import returns_agent_or_handoff
from lint_rules.frameworks.openai_agents.recognition import HANDOFF, AgentsFile
from lint_rules.model import Severity
from lint_rules.rules import Example, Finding, Rule


class AgentsFunctionToolReturnsHandoff(Rule):
    """
    ## What it does
    Checks `@function_tool` functions that return `handoff(...)` or an
    `Agent` (built in the return, or a module-level agent of this file).

    ## Why is this bad?
    A function tool's return value is tool *output*: the SDK turns it into a
    string for the model (openai-agents 0.24.0, `items.py:845-951`). Returning
    an agent does not hand the conversation over — the model receives
    `"Agent(name='Billing', handoff_description=None, ...)"` and the same
    agent keeps running. Handoffs are declared on the agent:
    `Agent(handoffs=[billing_agent])`, or `handoff(billing_agent, ...)` in
    that list; to call another agent from a tool, use `billing_agent.as_tool(...)`.

    ## References
    - [OpenAI Agents SDK: handoffs](https://openai.github.io/openai-agents-python/handoffs/)
    """

    code = "TRV309"
    name = "agents-function-tool-returns-handoff"
    severity = Severity.ERROR
    framework = "openai_agents"
    message = "Function tool returns an agent or handoff, which is stringified"

    invalid = (
        Example(
            code="""\
from agents import Agent, function_tool

billing_agent = Agent(name="Billing", instructions="Handle billing questions.")


@function_tool
def transfer_to_billing(reason: str):
    \"\"\"Transfer the customer to billing.\"\"\"
    return billing_agent
""",
        ),
        Example(
            title="a handoff object",
            code="""\
from agents import Agent, function_tool, handoff

refunds = Agent(name="Refunds")


@function_tool
def escalate(reason: str):
    return handoff(refunds, tool_description_override=reason)
""",
        ),
    )
    valid = (
        Example(
            code="""\
from agents import Agent

billing_agent = Agent(name="Billing", instructions="Handle billing questions.")
triage_agent = Agent(name="Triage", handoffs=[billing_agent])
""",
        ),
        Example(
            title="an agent used as a tool",
            code="""\
from agents import Agent

billing_agent = Agent(name="Billing", instructions="Handle billing questions.")
triage_agent = Agent(
    name="Triage",
    tools=[billing_agent.as_tool(tool_name="ask_billing", tool_description="Billing help")],
)
""",
        ),
        Example(
            title="a factory that is not a tool",
            code="""\
from agents import Agent, function_tool


def make_specialist(topic: str) -> Agent:
    return Agent(name=f"{topic} expert")


@function_tool
def list_topics() -> str:
    return "billing, refunds"
""",
        ),
    )

    def check(self, context: AgentsFile, settings: Settings) -> Iterator[Finding]:
        for tool in context.tools:
            for _site, node, shape in tool.returned:
                if not returns_agent_or_handoff(shape):
                    continue
                what = "a handoff" if shape.type_name == HANDOFF else "an agent"
                yield Finding(
                    node=node,
                    message=(
                        f"Function tool `{tool.node.name.value}` returns {what}: the model "
                        "receives its repr as text and no handoff happens; put the agent in "
                        "`Agent(handoffs=[...])` instead"
                    ),
                )
