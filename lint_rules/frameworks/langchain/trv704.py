"""TRV704 langgraph-command-without-tool-message."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from lint_rules.analysis.shapes import returned_values
from lint_rules.config import Settings
from lint_rules.frameworks.langchain.recognition import (
    COMMAND,
    OTHER_MESSAGES,
    LangChainFile,
)
from lint_rules.frameworks.tool_loops import dict_entry, has_spread, keyword, string_value
from lint_rules.model import Severity
from lint_rules.rules import Example, Finding, Rule

_HEAD = """\
from typing import Annotated

from langchain_core.messages import ToolMessage
from langchain_core.tools import InjectedToolCallId, tool
from langgraph.types import Command


"""


class LangGraphCommandWithoutToolMessage(Rule):
    """
    ## What it does
    Checks LangChain tools that return `Command(update={...})` whose literal
    `update` has no `"messages"` entry, or whose `"messages"` are certainly
    not a list holding a tool message (only `AIMessage`/`HumanMessage`/
    `SystemMessage`, or a single `ToolMessage` not in a list). Not checked: a
    `Command` without `update`, with `graph=` (`Command.PARENT`), or whose
    update is not a literal dict.

    ## Why is this bad?
    LangGraph's `ToolNode` requires every tool call to be answered: a tool that
    returns a `Command` must put a `ToolMessage` for its own call in
    `update["messages"]`, else `ValueError: Expected to have a matching
    ToolMessage in Command.update for tool '…'` (langgraph-prebuilt 1.1,
    `tool_node.py`; verified, also on 0.6). The graph run stops at the first
    call of the tool. Add `"messages": [ToolMessage("…", tool_call_id=tool_call_id)]`
    with `tool_call_id: Annotated[str, InjectedToolCallId]`.

    ## References
    - [LangGraph: update state from tools](https://langchain-ai.github.io/langgraph/how-tos/update-state-from-tools/)
    """

    code = "TRV704"
    name = "langgraph-command-without-tool-message"
    severity = Severity.ERROR
    framework = "langchain"
    message = "A tool's `Command` has no `ToolMessage` for its call"

    invalid = (
        Example(
            code=_HEAD
            + """\
@tool
def set_user_name(name: str) -> Command:
    \"\"\"Remember the user's name.\"\"\"
    return Command(update={"user_name": name})
""",
        ),
        Example(
            title="a message that does not answer the call",
            code="""\
from langchain_core.messages import AIMessage
from langchain_core.tools import tool
from langgraph.types import Command


@tool
def approve(request_id: str) -> Command:
    \"\"\"Approve a request.\"\"\"
    return Command(update={"messages": [AIMessage("Approved")], "approved": True})
""",
        ),
    )
    valid = (
        Example(
            code=_HEAD
            + """\
@tool
def set_user_name(name: str, tool_call_id: Annotated[str, InjectedToolCallId]) -> Command:
    \"\"\"Remember the user's name.\"\"\"
    return Command(
        update={
            "user_name": name,
            "messages": [ToolMessage(f"Saved {name}", tool_call_id=tool_call_id)],
        }
    )
""",
        ),
        Example(
            title="going to the parent graph",
            code=_HEAD
            + """\
@tool
def transfer_to_billing() -> Command:
    \"\"\"Hand the conversation to billing.\"\"\"
    return Command(goto="billing", graph=Command.PARENT, update={"active": "billing"})
""",
        ),
        Example(
            title="a graph node, not a tool",
            code="""\
from langgraph.types import Command


def route(state) -> Command:
    return Command(update={"step": state["step"] + 1}, goto="next")
""",
        ),
    )

    def check(self, context: LangChainFile, settings: Settings) -> Iterator[Finding]:
        for tool in context.checked_tools:
            for site in context.flow(tool.function).sites:
                if site.value is None:
                    continue
                for value in returned_values(site.value):
                    problem = _missing(context, value)
                    if problem is not None:
                        node, what = problem
                        yield Finding(
                            node=node,
                            message=(
                                f"Tool `{tool.name}` returns a `Command` {what}: `ToolNode` "
                                "raises `ValueError: Expected to have a matching ToolMessage`; "
                                'add a `ToolMessage` for the call to `update["messages"]`'
                            ),
                        )


def _missing(context: LangChainFile, value: cst.BaseExpression) -> tuple[cst.CSTNode, str] | None:
    if not isinstance(value, cst.Call) or context.qualified(value.func) not in COMMAND:
        return None
    if any(a.star for a in value.args) or keyword(value, "graph") is not None:
        return None
    update = keyword(value, "update")
    if update is None or not isinstance(update.value, cst.Dict) or has_spread(update.value):
        return None
    entry = dict_entry(update.value, "messages")
    if entry is None:
        if any(
            not isinstance(e, cst.DictElement) or string_value(e.key) is None
            for e in update.value.elements
        ):
            return None  # a computed key may be "messages"
        return update.value, 'whose `update` has no `"messages"`'
    messages = entry.value
    if isinstance(messages, cst.Call) and _is_tool_message(context, messages):
        return messages, 'whose `"messages"` is a `ToolMessage` not in a list'
    if isinstance(messages, cst.List) and not messages.elements:
        return messages, 'whose `"messages"` are empty'
    if not isinstance(messages, cst.List):
        return None
    if all(_not_a_tool_message(context, e) for e in messages.elements):
        return messages, 'whose `"messages"` hold no tool message'
    return None


def _is_tool_message(context: LangChainFile, call: cst.Call) -> bool:
    from lint_rules.frameworks.langchain.recognition import TOOL_MESSAGE

    return context.qualified(call.func) in TOOL_MESSAGE


def _not_a_tool_message(context: LangChainFile, element: cst.BaseElement) -> bool:
    if isinstance(element, cst.StarredElement):
        return False
    value = element.value
    if isinstance(value, cst.Call):
        return context.qualified(value.func) in OTHER_MESSAGES
    if isinstance(value, cst.Dict):
        role = dict_entry(value, "role")
        text = string_value(role.value) if role is not None else None
        return text is not None and text != "tool" and not has_spread(value)
    return False
