"""TRV302 agents-stop-at-tools-mismatch."""

from __future__ import annotations

import difflib
from collections.abc import Iterator

import libcst as cst

from lint_rules.analysis.literals import string_value
from lint_rules.analysis.shapes import Kind
from lint_rules.config import Settings
from lint_rules.frameworks.openai_agents.checks import behaviour_arguments
from lint_rules.frameworks.openai_agents.recognition import (
    AGENT,
    STOP_AT_TOOLS,
    STOP_AT_TOOLS_KEY,
    AgentCall,
    AgentsFile,
    sdk_name_in,
)
from lint_rules.model import Severity
from lint_rules.rules import Example, Finding, Rule


class AgentsStopAtToolsMismatch(Rule):
    """
    ## What it does
    Checks `tool_use_behavior={"stop_at_tool_names": [...]}` (or
    `StopAtTools(stop_at_tool_names=[...])`) for a misspelled key, for entries
    that are not strings (the tool object instead of its name), and for names
    that match none of the agent's tools.
    The keyword is also read under the misspelling TRV310 renames
    (`tool_use_behaviour=`): the rename is the fix, and then the names must
    still match.

    ## Why is this bad?
    The runner reads `tool_use_behavior.get("stop_at_tool_names", [])` and
    stops only when a called tool's name is in that list (openai-agents 0.24.0,
    `run_internal/turn_resolution.py:791-798`). A misspelled key gives an empty
    list, a function tool object never equals a name, and a name that no tool
    has never matches: in every case the agent silently keeps calling the
    model, and the tool output you meant to return is rewritten by it. A
    tool's name is its function's name, or `name_override=` when given.

    Names are compared only when every tool of the agent is known: a
    `@function_tool` of this file, `function_tool(fn, ...)`, or
    `agent.as_tool(tool_name="...")` — no `*spread`, no tools built elsewhere,
    no `mcp_servers`.

    ## Known problems
    Tools imported from another module are not resolved, so their agents'
    names are not compared.

    ## References
    - [OpenAI Agents SDK: agents, tool use behavior](https://openai.github.io/openai-agents-python/agents/)
    """

    code = "TRV302"
    name = "agents-stop-at-tools-mismatch"
    severity = Severity.ERROR
    framework = "openai_agents"
    message = "`StopAtTools` that can never stop the agent"

    invalid = (
        Example(
            code="""\
from agents import Agent, function_tool


@function_tool
def lookup_order(order_id: str) -> str:
    return f"Order {order_id} shipped"


@function_tool(name_override="issue_refund")
def refund(order_id: str) -> str:
    return f"Refunded {order_id}"


support = Agent(
    name="Support",
    tools=[lookup_order, refund],
    tool_use_behavior={"stop_at_tool_names": ["refund"]},
)
""",
        ),
        Example(
            title="a misspelled key",
            code="""\
from agents import Agent

from .tools import finalize_policy_packet

reviewer = Agent(
    name="Reviewer",
    tools=[finalize_policy_packet],
    tool_use_behavior={"stop_at_tool_name": ["finalize_policy_packet"]},
)
""",
        ),
        Example(
            title="the tool object instead of its name",
            code="""\
from agents import Agent, StopAtTools, function_tool


@function_tool
def submit_report(text: str) -> str:
    return "submitted"


writer = Agent(
    name="Writer",
    tools=[submit_report],
    tool_use_behavior=StopAtTools(stop_at_tool_names=[submit_report]),
)
""",
        ),
        Example(
            title="under the British spelling TRV310 renames",
            code="""\
from agents import Agent, StopAtTools, function_tool


@function_tool
def get_forecast(city: str) -> str:
    return f"Sunny in {city}"


forecaster = Agent(
    name="Forecaster",
    tools=[get_forecast],
    tool_use_behaviour=StopAtTools(stop_at_tool_names=["get_weather"]),
)
""",
        ),
    )
    valid = (
        Example(
            code="""\
from agents import Agent, function_tool


@function_tool
def lookup_order(order_id: str) -> str:
    return f"Order {order_id} shipped"


@function_tool(name_override="issue_refund")
def refund(order_id: str) -> str:
    return f"Refunded {order_id}"


support = Agent(
    name="Support",
    tools=[lookup_order, refund],
    tool_use_behavior={"stop_at_tool_names": ["issue_refund"]},
)
""",
        ),
        Example(
            title="tools from another module: names not compared",
            code="""\
from agents import Agent

from .tools import finalize_policy_packet, read_policy

reviewer = Agent(
    name="Reviewer",
    tools=[read_policy, finalize_policy_packet],
    tool_use_behavior={"stop_at_tool_names": ["finalize_policy_packet"]},
)
""",
        ),
        Example(
            title="an agent with MCP servers may have more tools",
            code="""\
from agents import Agent, StopAtTools, function_tool


@function_tool
def note(text: str) -> str:
    return text


def build(server) -> Agent:
    return Agent(
        name="Files",
        tools=[note],
        mcp_servers=[server],
        tool_use_behavior=StopAtTools(stop_at_tool_names=["write_file"]),
    )
""",
        ),
        Example(
            title="an agent used as a tool, by its tool name",
            code="""\
from agents import Agent

spanish = Agent(name="Spanish", instructions="Translate to Spanish.")
orchestrator = Agent(
    name="Orchestrator",
    tools=[spanish.as_tool(tool_name="translate_to_spanish", tool_description="...")],
    tool_use_behavior={"stop_at_tool_names": ["translate_to_spanish"]},
)
""",
        ),
    )

    def check(self, context: AgentsFile, settings: Settings) -> Iterator[Finding]:
        for agent, arg in behaviour_arguments(context, settings):
            yield from _check_stop_at_tools(context, agent, arg)


def _stop_at_tools_value(
    context: AgentsFile, agent: AgentCall, value: cst.BaseExpression
) -> tuple[list[tuple[cst.CSTNode, str]], cst.BaseExpression | None, bool] | None:
    """``(keys, names value, is a StopAtTools)`` of a StopAtTools dict, else ``None``."""
    module = context.module
    if isinstance(value, cst.Name) and not agent.scope.inference.local_name_is_bound(value.value):
        constant = module.constants.get(value.value)
        if constant is not None:
            value = constant
    if isinstance(value, cst.Dict):
        keys: list[tuple[cst.CSTNode, str]] = []
        names = None
        for element in value.elements:
            if not isinstance(element, cst.DictElement):
                return None  # a **spread: the keys are not all known
            key = element.key
            text = (
                string_value(key)
                if isinstance(key, (cst.SimpleString, cst.ConcatenatedString))
                else None
            )
            if not isinstance(text, str):
                return None
            keys.append((key, text))
            if text == STOP_AT_TOOLS_KEY:
                names = element.value
        return keys, names, True
    if isinstance(value, cst.Call) and sdk_name_in(module, value.func) == STOP_AT_TOOLS:
        keys = []
        names = None
        for call_arg in value.args:
            if call_arg.star or call_arg.keyword is None:
                return None
            keys.append((call_arg.keyword, call_arg.keyword.value))
            if call_arg.keyword.value == STOP_AT_TOOLS_KEY:
                names = call_arg.value
        return keys, names, True
    return None


def _check_stop_at_tools(context: AgentsFile, agent: AgentCall, arg: cst.Arg) -> Iterator[Finding]:
    assert arg.keyword is not None
    found = _stop_at_tools_value(context, agent, arg.value)
    if found is None:
        return
    keys, names_node, _ = found
    for key_node, key in keys:
        if key == STOP_AT_TOOLS_KEY:
            continue
        close = difflib.get_close_matches(key, [STOP_AT_TOOLS_KEY], n=1, cutoff=0.6)
        hint = f"; did you mean `{STOP_AT_TOOLS_KEY}`?" if close else ""
        yield Finding(
            node=key_node,
            message=(
                f"StopAtTools has no key `{key}`: the runner reads only "
                f"`{STOP_AT_TOOLS_KEY}`, so this agent never stops at a tool{hint}"
            ),
        )
    if names_node is None:
        return
    module = context.module
    if isinstance(names_node, cst.Name) and not agent.scope.inference.local_name_is_bound(
        names_node.value
    ):
        names_node = module.constants.get(names_node.value, names_node)
    if not isinstance(names_node, (cst.List, cst.Tuple, cst.Set)):
        return
    literal_names: list[str] = []
    for element in names_node.elements:
        if isinstance(element, cst.StarredElement):
            return
        entry = element.value
        shape = agent.scope.infer(entry)
        if shape.kind is Kind.STR:
            if shape.has_literal and isinstance(shape.literal, str):
                literal_names.append(shape.literal)
            continue
        what = _tool_object(context, agent, entry)
        if what is None and shape.kind in (Kind.UNKNOWN, Kind.INSTANCE):
            continue
        described = what or f"a {shape.kind.value}"
        yield Finding(
            node=arg.keyword,
            message=(
                f"`{STOP_AT_TOOLS_KEY}` holds {described} (`{module.code_for(entry).strip()}`), "
                "not a tool name: it never equals a called tool's name, so the agent never stops"
            ),
        )
    if agent.tools is None or not agent.tools_complete:
        return
    available = [t.name for t in agent.tools if t.name is not None]
    missing = [n for n in dict.fromkeys(literal_names) if n not in available]
    if not missing:
        return
    shown = ", ".join(f"`{n}`" for n in missing)
    tools = ", ".join(f"`{n}`" for n in available) or "none"
    hints = []
    for name in missing:
        close = difflib.get_close_matches(name, available, n=1, cutoff=0.6)
        if close:
            hints.append(f"`{name}` → `{close[0]}`")
    hint = f" (did you mean {', '.join(hints)}?)" if hints else ""
    plural = "s match" if len(missing) > 1 else " matches"
    yield Finding(
        node=arg.keyword,
        message=(
            f"StopAtTools name{plural} none of {agent.label}'s tools ({tools}): {shown} "
            f"never stops the agent{hint}"
        ),
    )


def _tool_object(context: AgentsFile, agent: AgentCall, entry: cst.BaseExpression) -> str | None:
    """``a function tool`` / ``an Agent`` when the entry is such an object of this file."""
    if not isinstance(entry, cst.Name):
        return None
    name = entry.value
    module = context.module
    if agent.scope.inference.local_name_is_bound(name) or name in module.shadowed:
        return None
    if any(
        tool.node.name.value == name and tool.node is module.functions.get(name)
        for tool in context.tools
    ):
        return "a function tool"
    constant = module.constants.get(name)
    if isinstance(constant, cst.Call):
        func = constant.func.value if isinstance(constant.func, cst.Subscript) else constant.func
        found = sdk_name_in(module, func)
        if found == AGENT:
            return "an Agent"
        if found is not None and found.endswith("function_tool"):
            return "a function tool"
    return None
