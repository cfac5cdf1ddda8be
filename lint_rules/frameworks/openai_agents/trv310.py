"""TRV310 agents-unknown-agent-argument."""

from __future__ import annotations

from collections.abc import Iterator

from lint_rules.config import Settings
from lint_rules.frameworks.openai_agents.recognition import (
    AGENT_FIELDS,
    INTENDED_AGENT_ARGUMENTS,
    SANDBOX_AGENT,
    SANDBOX_AGENT_FIELDS,
    AgentsFile,
    certain_renames,
    suggest,
)
from lint_rules.model import Applicability, Severity
from lint_rules.rules import EditSpec, Example, Finding, FixSpec, Rule


class AgentsUnknownAgentArgument(Rule):
    """
    ## What it does
    Checks `Agent(...)` (and `SandboxAgent(...)`) for keyword arguments that
    are not fields of the dataclass — `tool_use_behaviour=`, `output_types=`,
    `system_prompt=` — and names the field that was probably meant.

    ## Why is this bad?
    `Agent` is a dataclass, so an unknown keyword raises `TypeError:
    Agent.__init__() got an unexpected keyword argument 'tool_use_behaviour'`
    when the agent is built, usually at import time. The fields of
    openai-agents 0.24.0 are `name`, `handoff_description`, `tools`,
    `mcp_servers`, `mcp_config`, `instructions`, `prompt`, `handoffs`,
    `model`, `model_settings`, `input_guardrails`, `output_guardrails`,
    `output_type`, `hooks`, `tool_use_behavior` and `reset_tool_choice`;
    `SandboxAgent` adds `default_manifest`, `base_instructions`,
    `capabilities` and `run_as`.

    ## Fix safety
    The fix renames the keyword to the suggested field. It is unsafe: the
    value starts to take effect (a `tool_use_behavior` changes how the run
    ends), so review it. No fix is offered when the field is already passed.

    ## Options
    - `[tool.toolret.openai-agents] extra-agent-arguments`: fields a newer
      SDK accepts that this list lacks.

    ## References
    - [OpenAI Agents SDK: agents](https://openai.github.io/openai-agents-python/agents/)
    """

    code = "TRV310"
    name = "agents-unknown-agent-argument"
    severity = Severity.ERROR
    framework = "openai_agents"
    fix_applicability = Applicability.UNSAFE
    message = "`Agent(...)` keyword that is not a field: `TypeError`"

    invalid = (
        Example(
            code="""\
from agents import Agent, StopAtTools

from .tools import get_weather

weather_agent = Agent(
    name="Weather agent",
    tools=[get_weather],
    tool_use_behaviour=StopAtTools(stop_at_tool_names=["get_weather"]),
)
""",
            fixed="""\
from agents import Agent, StopAtTools

from .tools import get_weather

weather_agent = Agent(
    name="Weather agent",
    tools=[get_weather],
    tool_use_behavior=StopAtTools(stop_at_tool_names=["get_weather"]),
)
""",
        ),
        Example(
            title="another framework's spelling",
            code="""\
from pydantic import BaseModel

from agents import Agent


class Plan(BaseModel):
    steps: list[str]


planner = Agent[None](name="Planner", system_prompt="Plan the trip.", output_types=Plan)
""",
            fixed="""\
from pydantic import BaseModel

from agents import Agent


class Plan(BaseModel):
    steps: list[str]


planner = Agent[None](name="Planner", instructions="Plan the trip.", output_type=Plan)
""",
        ),
    )
    valid = (
        Example(
            code="""\
from agents import Agent, StopAtTools

from .tools import get_weather

weather_agent = Agent(
    name="Weather agent",
    tools=[get_weather],
    tool_use_behavior=StopAtTools(stop_at_tool_names=["get_weather"]),
)
""",
        ),
        Example(
            title="a SandboxAgent's own fields, and keyword unpacking",
            code="""\
from agents.sandbox import SandboxAgent

from .manifests import MANIFEST


def build(**overrides) -> SandboxAgent:
    return SandboxAgent(
        name="Reviewer",
        default_manifest=MANIFEST,
        base_instructions="Review the repository.",
        **overrides,
    )
""",
        ),
        Example(
            title="another library's Agent",
            code="""\
from autogen import Agent

assistant = Agent(name="assistant", system_message="Be brief.", llm_config={"model": "x"})
""",
        ),
    )

    def check(self, context: AgentsFile, settings: Settings) -> Iterator[Finding]:
        extra = frozenset(settings.openai_agents.extra_agent_arguments)
        for agent in context.agents:
            fields = SANDBOX_AGENT_FIELDS if agent.cls == SANDBOX_AGENT else AGENT_FIELDS
            known = frozenset(fields) | extra
            cls = "SandboxAgent" if agent.cls == SANDBOX_AGENT else "Agent"
            renames = certain_renames(agent.keywords, fields, extra)
            for keyword, arg in agent.keywords.items():
                if keyword in known:
                    continue
                assert arg.keyword is not None
                suggestion = suggest(keyword, fields, INTENDED_AGENT_ARGUMENTS)
                hint = f"; did you mean `{suggestion}`?" if suggestion else ""
                fix = None
                if keyword in renames:
                    fix = FixSpec(
                        title=f"Rename to `{suggestion}`",
                        applicability=Applicability.UNSAFE,
                        edits=(EditSpec(arg.keyword, renames[keyword]),),
                    )
                yield Finding(
                    node=arg.keyword,
                    message=(
                        f"`{cls}` has no field `{keyword}`: building it raises `TypeError`{hint}"
                    ),
                    fix=fix,
                )
