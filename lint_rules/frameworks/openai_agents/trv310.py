"""TRV310 agents-unknown-agent-argument."""

from __future__ import annotations

from collections.abc import Iterator

from lint_rules.config import Settings
from lint_rules.frameworks.openai_agents.recognition import (
    AGENT_FIELDS,
    SANDBOX_AGENT,
    SANDBOX_AGENT_FIELDS,
    AgentsFile,
    suggest,
)
from lint_rules.model import Applicability, Severity
from lint_rules.rules import EditSpec, Example, Finding, FixSpec, Rule

# Keywords other libraries' agents take, and what the SDK calls them.
_INTENDED = {
    "tool_use_behaviour": "tool_use_behavior",
    "output_types": "output_type",
    "output_model": "output_type",
    "response_format": "output_type",
    "system_prompt": "instructions",
    "system_message": "instructions",
    "instruction": "instructions",
    "description": "handoff_description",
    "tool": "tools",
    "functions": "tools",
    "handoff": "handoffs",
    "guardrails": "input_guardrails",
    "settings": "model_settings",
    "mcp_server": "mcp_servers",
}


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
            unknown = [(k, a) for k, a in agent.keywords.items() if k not in known]
            targets = [suggest(k, fields, _INTENDED) for k, _ in unknown]
            for (keyword, arg), suggestion in zip(unknown, targets, strict=True):
                assert arg.keyword is not None
                hint = f"; did you mean `{suggestion}`?" if suggestion else ""
                fix = None
                if (
                    suggestion is not None
                    and targets.count(suggestion) == 1
                    and suggestion not in agent.keywords
                ):
                    fix = FixSpec(
                        title=f"Rename to `{suggestion}`",
                        applicability=Applicability.UNSAFE,
                        edits=(EditSpec(arg.keyword, suggestion),),
                    )
                yield Finding(
                    node=arg.keyword,
                    message=(
                        f"`{cls}` has no field `{keyword}`: building it raises `TypeError`{hint}"
                    ),
                    fix=fix,
                )
