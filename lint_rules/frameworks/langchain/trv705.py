"""TRV705 langchain-tool-message-fixed-id."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from lint_rules.analysis.shapes import returned_values
from lint_rules.config import Settings
from lint_rules.frameworks.langchain.recognition import (
    COMMAND,
    INJECTED_TOOL_CALL_ID,
    TOOL_MESSAGE,
    LangChainFile,
    LangChainTool,
)
from lint_rules.frameworks.tool_loops import dict_entry, keyword, string_value
from lint_rules.model import Severity
from lint_rules.rules import Example, Finding, Rule

_HEAD = """\
from typing import Annotated

from langchain_core.messages import ToolMessage
from langchain_core.tools import InjectedToolCallId, tool
from langgraph.types import Command


"""


class LangChainToolMessageFixedId(Rule):
    """
    ## What it does
    Checks LangChain tools that return a `ToolMessage` — itself, or in the
    `update["messages"]` of a returned `Command` — whose `tool_call_id` is a
    string literal, or, when the tool declares an injected call id
    (`Annotated[str, InjectedToolCallId]`), a name other than that parameter.
    Ids taken from any other expression (`runtime.tool_call_id`, a field) are
    not judged.

    ## Why is this bad?
    A tool message answers the call whose id it carries. A fixed id answers
    some other call (or none): inside a `Command`, `ToolNode` raises
    `ValueError: Expected to have a matching ToolMessage` (verified with
    langgraph-prebuilt 1.1); returned directly, the message goes into the
    history unchanged and the next model request is rejected for an unanswered
    or unknown tool call id. Use the injected `tool_call_id`.

    ## References
    - [LangGraph: update state from tools](https://langchain-ai.github.io/langgraph/how-tos/update-state-from-tools/)
    """

    code = "TRV705"
    name = "langchain-tool-message-fixed-id"
    severity = Severity.ERROR
    framework = "langchain"
    message = "A tool's `ToolMessage` carries a fixed `tool_call_id`"

    invalid = (
        Example(
            code=_HEAD
            + """\
@tool
def set_user_name(name: str) -> Command:
    \"\"\"Remember the user's name.\"\"\"
    return Command(
        update={"user_name": name, "messages": [ToolMessage("Saved", tool_call_id="call_1")]}
    )
""",
        ),
        Example(
            title="the injected id not used",
            code=_HEAD
            + """\
@tool
def lookup(order_id: str, tool_call_id: Annotated[str, InjectedToolCallId]) -> ToolMessage:
    \"\"\"Look an order up.\"\"\"
    return ToolMessage(f"Order {order_id} shipped", tool_call_id=order_id)
""",
        ),
    )
    valid = (
        Example(
            code=_HEAD
            + """\
@tool
def lookup(order_id: str, tool_call_id: Annotated[str, InjectedToolCallId]) -> ToolMessage:
    \"\"\"Look an order up.\"\"\"
    return ToolMessage(f"Order {order_id} shipped", tool_call_id=tool_call_id)
""",
        ),
        Example(
            title="the id from the tool runtime",
            code="""\
from langchain.tools import ToolRuntime, tool
from langchain_core.messages import ToolMessage
from langgraph.types import Command


@tool
def set_user_name(name: str, runtime: ToolRuntime) -> Command:
    \"\"\"Remember the user's name.\"\"\"
    message = ToolMessage("Saved", tool_call_id=runtime.tool_call_id)
    return Command(update={"user_name": name, "messages": [message]})
""",
        ),
        Example(
            title="a test building a conversation, not a tool",
            code="""\
from langchain_core.messages import ToolMessage


def history():
    return [ToolMessage("Sunny", tool_call_id="call_1")]
""",
        ),
    )

    def check(self, context: LangChainFile, settings: Settings) -> Iterator[Finding]:
        for tool in context.checked_tools:
            injected = _injected_id(context, tool)
            for site in context.flow(tool.function).sites:
                if site.value is None:
                    continue
                for value in returned_values(site.value):
                    for message in _returned_messages(context, value):
                        arg = keyword(message, "tool_call_id")
                        if arg is None:
                            continue
                        wrong = _wrong_id(arg.value, injected)
                        if wrong is not None:
                            yield Finding(
                                node=arg.value,
                                message=(
                                    f"Tool `{tool.name}` answers with a `ToolMessage` whose "
                                    f"`tool_call_id` is {wrong}: it answers another call (or "
                                    "none); use the injected `tool_call_id`"
                                ),
                            )


def _injected_id(context: LangChainFile, tool: LangChainTool) -> str | None:
    """The parameter annotated ``Annotated[str, InjectedToolCallId]``, if any."""
    params = tool.function.params
    for param in (*params.posonly_params, *params.params, *params.kwonly_params):
        annotation = param.annotation.annotation if param.annotation is not None else None
        if isinstance(annotation, cst.Subscript) and any(
            isinstance(e.slice, cst.Index)
            and context.qualified(e.slice.value) in INJECTED_TOOL_CALL_ID
            for e in annotation.slice
        ):
            return param.name.value
    return None


def _wrong_id(value: cst.BaseExpression, injected: str | None) -> str | None:
    text = string_value(value)
    if text is not None:
        return f"the literal `{text!r}`" if len(text) < 40 else "a string literal"
    if injected is not None and isinstance(value, cst.Name) and value.value != injected:
        return f"`{value.value}`, not the injected `{injected}`"
    return None


def _returned_messages(context: LangChainFile, value: cst.BaseExpression) -> list[cst.Call]:
    """``ToolMessage(...)`` calls returned directly or in a returned ``Command``'s
    ``update["messages"]`` list display."""
    if isinstance(value, cst.Call) and context.qualified(value.func) in TOOL_MESSAGE:
        return [value]
    if not isinstance(value, cst.Call) or context.qualified(value.func) not in COMMAND:
        return []
    update = keyword(value, "update")
    if update is None or not isinstance(update.value, cst.Dict):
        return []
    entry = dict_entry(update.value, "messages")
    if entry is None or not isinstance(entry.value, cst.List):
        return []
    return [
        e.value
        for e in entry.value.elements
        if isinstance(e.value, cst.Call) and context.qualified(e.value.func) in TOOL_MESSAGE
    ]
