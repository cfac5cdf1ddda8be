"""TRV301 agents-invalid-tool-use-behavior."""

from __future__ import annotations

from collections.abc import Iterator

from lint_rules.analysis.shapes import Kind
from lint_rules.config import Settings
from lint_rules.frameworks.openai_agents.checks import behaviour_arguments
from lint_rules.frameworks.openai_agents.recognition import BEHAVIOR_STRINGS, AgentsFile, suggest
from lint_rules.model import Applicability, Severity
from lint_rules.rules import Example, Finding, Rule, replace_string_literal

# What the misspellings seen in real code meant.
_INTENDED = {
    "stop": "stop_on_first_tool",
    "stop_on_first": "stop_on_first_tool",
    "stop_at_first_tool": "stop_on_first_tool",
    "stop_after_first_tool": "stop_on_first_tool",
    "stop_on_tool": "stop_on_first_tool",
    "first_tool": "stop_on_first_tool",
    "first_tool_result": "stop_on_first_tool",
    "stop_on_first_tool_call": "stop_on_first_tool",
    "run_llm": "run_llm_again",
    "run_again": "run_llm_again",
    "llm_again": "run_llm_again",
    "default": "run_llm_again",
}
# Values that are neither a str, a dict nor callable: `Agent.__post_init__` raises on them.
_NOT_ACCEPTED = {
    Kind.INT: "an int",
    Kind.FLOAT: "a float",
    Kind.BOOL: "a bool",
    Kind.NONE: "`None`",
    Kind.LIST: "a list",
    Kind.TUPLE: "a tuple",
    Kind.SET: "a set",
    Kind.BYTES: "bytes",
}


class AgentsInvalidToolUseBehavior(Rule):
    """
    ## What it does
    Checks `Agent(tool_use_behavior=...)` for a string other than
    `"run_llm_again"` and `"stop_on_first_tool"` — `"stop"`,
    `"stop_at_first_tool"` — and for values that are neither a string, a
    `StopAtTools` dict nor a callable (a list of tool names, `None`).
    The keyword is also read under the misspelling TRV310 renames
    (`tool_use_behaviour=`): the rename is the fix, and then the value's own
    mistake bites.

    ## Why is this bad?
    `Agent.__post_init__` accepts exactly those two strings, a `StopAtTools`
    dict or a callable (openai-agents 0.24.0, `agent.py:553-563`); anything
    else raises `TypeError: Agent tool_use_behavior must be 'run_llm_again',
    'stop_on_first_tool', StopAtTools dict, or callable, got str` when the
    agent is built — at import time when agents are module-level, so the
    whole application fails to start.

    ## Fix safety
    For a misspelled string literal the fix replaces it with the value it most
    likely meant (`"stop"` → `"stop_on_first_tool"`). It is unsafe: the two
    values behave very differently (one sends tool output back to the model,
    the other ends the run with it), so check the intent.

    ## References
    - [OpenAI Agents SDK: agents, tool use behavior](https://openai.github.io/openai-agents-python/agents/)
    """

    code = "TRV301"
    name = "agents-invalid-tool-use-behavior"
    severity = Severity.ERROR
    framework = "openai_agents"
    fix_applicability = Applicability.UNSAFE
    message = "`tool_use_behavior` value that `Agent` rejects with `TypeError`"

    invalid = (
        Example(
            code="""\
from agents import Agent, function_tool


@function_tool
def get_weather(city: str) -> str:
    return f"The weather in {city} is sunny"


weather_agent = Agent(
    name="Weather agent",
    instructions="Answer with the weather tool's result.",
    tools=[get_weather],
    tool_use_behavior="stop_at_first_tool",
)
""",
            fixed="""\
from agents import Agent, function_tool


@function_tool
def get_weather(city: str) -> str:
    return f"The weather in {city} is sunny"


weather_agent = Agent(
    name="Weather agent",
    instructions="Answer with the weather tool's result.",
    tools=[get_weather],
    tool_use_behavior="stop_on_first_tool",
)
""",
        ),
        Example(
            title="a list of tool names instead of a StopAtTools dict",
            code="""\
from agents import Agent

from .tools import lookup_order, refund_order

support = Agent(
    name="Support",
    tools=[lookup_order, refund_order],
    tool_use_behavior=["refund_order"],
)
""",
        ),
        Example(
            title="under the British spelling TRV310 renames",
            code="""\
from agents import Agent

from .tools import lookup_order, refund_order

support_agent = Agent(
    name="Support",
    instructions="Look up the order, then refund it if asked.",
    tools=[lookup_order, refund_order],
    tool_use_behaviour="stop_after_tool",
)
""",
        ),
    )
    valid = (
        Example(
            code="""\
from agents import Agent, function_tool


@function_tool
def get_weather(city: str) -> str:
    return f"The weather in {city} is sunny"


weather_agent = Agent(
    name="Weather agent",
    instructions="Answer with the weather tool's result.",
    tools=[get_weather],
    tool_use_behavior="stop_on_first_tool",
)
""",
        ),
        Example(
            title="a behaviour chosen at run time",
            code="""\
from typing import Literal

from agents import Agent, ModelSettings


def build(tool_use_behavior: Literal["default", "first_tool"], tools: list) -> Agent:
    behavior = "run_llm_again" if tool_use_behavior == "default" else "stop_on_first_tool"
    return Agent(
        name="Weather agent",
        tools=tools,
        tool_use_behavior=behavior,
        model_settings=ModelSettings(tool_choice="required"),
    )
""",
        ),
        Example(
            title="another library's Agent",
            code="""\
from crewai import Agent

researcher = Agent(role="Researcher", goal="Find facts", tool_use_behavior="stop")
""",
        ),
        Example(
            title="StopAtTools and a callable",
            code="""\
from agents import Agent, StopAtTools, ToolsToFinalOutputResult


def decide(context, results):
    return ToolsToFinalOutputResult(is_final_output=True, final_output=results[0].output)


a = Agent(name="a", tool_use_behavior=StopAtTools(stop_at_tool_names=["finish"]))
b = Agent(name="b", tool_use_behavior=decide)
""",
        ),
    )

    def check(self, context: AgentsFile, settings: Settings) -> Iterator[Finding]:
        for agent, arg in behaviour_arguments(context, settings):
            assert arg.keyword is not None
            keyword = arg.keyword.value  # as written: ``tool_use_behaviour`` is read too
            shape = agent.scope.infer(arg.value)
            if shape.kind is Kind.STR and shape.has_literal:
                value = shape.literal
                assert isinstance(value, str)
                if value in BEHAVIOR_STRINGS:
                    continue
                suggestion = suggest(value, BEHAVIOR_STRINGS, _INTENDED)
                hint = f'; did you mean `"{suggestion}"`?'
                fix = None
                if suggestion is not None:
                    fix = replace_string_literal(
                        arg.value, suggestion, f'Replace with `"{suggestion}"`'
                    )
                yield Finding(
                    node=arg.keyword,
                    message=(
                        f'`{keyword}="{value}"` is not a behaviour the SDK knows: '
                        "`Agent(...)` raises `TypeError`"
                        + (hint if suggestion else ' (use "run_llm_again" or "stop_on_first_tool")')
                    ),
                    fix=fix,
                )
            elif shape.kind in _NOT_ACCEPTED:
                what = _NOT_ACCEPTED[shape.kind]
                advice = (
                    '; for tool names use `{"stop_at_tool_names": [...]}`'
                    if shape.kind in (Kind.LIST, Kind.TUPLE, Kind.SET)
                    else ""
                )
                yield Finding(
                    node=arg.keyword,
                    message=(
                        f"`{keyword}` is {what}, not a behaviour string, a StopAtTools "
                        f"dict or a callable: `Agent(...)` raises `TypeError`{advice}"
                    ),
                )
