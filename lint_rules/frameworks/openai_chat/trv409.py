"""TRV409 chat-tool-call-left-unanswered."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from lint_rules.config import Settings
from lint_rules.frameworks.openai_chat._loops import HEAD
from lint_rules.frameworks.openai_chat.recognition import ChatFile, ToolCallsLoop, collect
from lint_rules.model import Severity
from lint_rules.rules import Example, Finding, Rule


class ChatToolCallLeftUnanswered(Rule):
    """
    ## What it does
    Checks, in a loop over `tool_calls` that builds tool messages (an *answer
    loop*), for an unconditional `return` or `break` in the loop body, and for
    a `continue` that skips an iteration before its tool message is built.
    Answer loops are found in every function and in the module body, and by
    what they do rather than how the iterable is spelled: a loop over
    `message.tool_calls` or a local alias of it, and also a loop over a
    parameter or any other name (`def execute_tool_calls(tool_calls): for
    call in tool_calls: ...`) whose tool messages answer the loop variable's
    `.id`. A loop through the builtin `enumerate` (`for i, call in
    enumerate(message.tool_calls)`) counts the same, with `call` as its loop
    variable. A helper's loop is judged in the helper.

    ## Why is this bad?
    A `return answers` indented one level too deep ends the loop after the
    first call; a `continue` for an unknown tool name leaves that call without
    an answer. Either way the next request carries an assistant message whose
    calls are not all answered: HTTP 400 "An assistant message with
    'tool_calls' must be followed by tool messages responding to each
    'tool_call_id'". Answer every call — with an error message for an unknown
    tool — and return after the loop. Loops that only search the calls are
    not answer loops and are not checked.

    ## References
    - [OpenAI: function calling](https://platform.openai.com/docs/guides/function-calling)
    """

    code = "TRV409"
    name = "chat-tool-call-left-unanswered"
    severity = Severity.ERROR
    framework = "openai_chat"
    message = "A tool call is left unanswered by the answer loop"

    invalid = (
        Example(
            title="`return` indented into the loop",
            code=HEAD
            + """\
def answer_calls(message):
    answers = []
    for tool_call in message.tool_calls:
        args = json.loads(tool_call.function.arguments)
        answers.append(
            {"role": "tool", "tool_call_id": tool_call.id, "content": get_weather(**args)}
        )
        return answers
""",
        ),
        Example(
            title="an unknown tool skipped",
            code=HEAD
            + """\
available = {"get_weather": get_weather}


def answer_calls(messages, message):
    messages.append(message)
    for tool_call in message.tool_calls:
        function = available.get(tool_call.function.name)
        if function is None:
            continue
        result = function(**json.loads(tool_call.function.arguments))
        messages.append({"role": "tool", "tool_call_id": tool_call.id, "content": result})
""",
        ),
        Example(
            title="a helper's loop over the `tool_calls` it is given",
            code=HEAD
            + """\
def execute_tool_calls(tool_calls, messages):
    for tool_call in tool_calls:
        args = json.loads(tool_call.function.arguments)
        messages.append(
            {"role": "tool", "tool_call_id": tool_call.id, "content": get_weather(**args)}
        )
        return messages


def chat(messages):
    response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
    message = response.choices[0].message
    messages.append(message)
    return execute_tool_calls(message.tool_calls, messages)
""",
        ),
    )
    valid = (
        Example(
            code=HEAD
            + """\
def answer_calls(message):
    answers = []
    for tool_call in message.tool_calls:
        args = json.loads(tool_call.function.arguments)
        answers.append(
            {"role": "tool", "tool_call_id": tool_call.id, "content": get_weather(**args)}
        )
    return answers
""",
        ),
        Example(
            title="an unknown tool answered with an error",
            code=HEAD
            + """\
available = {"get_weather": get_weather}


def answer_calls(messages, message):
    for tool_call in message.tool_calls:
        function = available.get(tool_call.function.name)
        if function is None:
            messages.append(
                {"role": "tool", "tool_call_id": tool_call.id, "content": "unknown tool"}
            )
            continue
        result = function(**json.loads(tool_call.function.arguments))
        messages.append({"role": "tool", "tool_call_id": tool_call.id, "content": result})
""",
        ),
        Example(
            title="a loop that only searches the calls",
            code=HEAD
            + """\
def find_weather_call(message):
    for tool_call in message.tool_calls:
        if tool_call.function.name == "get_weather":
            return tool_call
    return None
""",
        ),
        Example(
            title="a helper that answers the one call it is asked about",
            code=HEAD
            + """\
def answer_for(tool_calls, call_id, result):
    for tool_call in tool_calls:
        if tool_call.id == call_id:
            return {"role": "tool", "tool_call_id": tool_call.id, "content": result}
    return None
""",
        ),
        Example(
            title="a script's conversation loop: the `break` ends the `while`, not the answers",
            code=HEAD
            + """\
messages = [{"role": "user", "content": "What's the weather in Paris and in Rome?"}]
while True:
    response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
    message = response.choices[0].message
    messages.append(message)
    if not message.tool_calls:
        break
    for tool_call in message.tool_calls:
        args = json.loads(tool_call.function.arguments)
        messages.append(
            {"role": "tool", "tool_call_id": tool_call.id, "content": get_weather(**args)}
        )
print(messages[-1].content)
""",
        ),
    )

    def check(self, context: ChatFile, settings: Settings) -> Iterator[Finding]:
        if not context.is_checked(settings):
            return
        for loop in context.loops:
            if not loop.is_answer_loop:
                continue
            yield from _check_loop(loop)


def _check_loop(loop: ToolCallsLoop) -> Iterator[Finding]:
    body = loop.node.body
    if not isinstance(body, cst.IndentedBlock):
        return
    answered = False
    for stmt in body.body:
        if not answered and isinstance(stmt, cst.If):
            skip = _skipping_continue(stmt, loop)
            if skip is not None:
                yield Finding(
                    node=skip,
                    message=(
                        "`continue` skips this tool call before its tool message is built: "
                        "the call is left unanswered (HTTP 400); answer it with an error "
                        "message instead"
                    ),
                )
        if any(m in collect(stmt, cst.Dict) for m in loop.tool_messages):
            answered = True
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                if isinstance(small, (cst.Return, cst.Break)):
                    word = "return" if isinstance(small, cst.Return) else "break"
                    yield Finding(
                        node=small,
                        message=(
                            f"`{word}` in the body of the loop that answers `tool_calls` ends it "
                            "after the first call: the others are left unanswered (HTTP 400); "
                            "move it after the loop"
                        ),
                    )


def _skipping_continue(stmt: cst.If, loop: ToolCallsLoop) -> cst.Continue | None:
    """A ``continue`` ending the ``if`` body, with nothing before it that could answer."""
    body = stmt.body
    if not isinstance(body, cst.IndentedBlock) or not body.body:
        return None
    if any(
        isinstance(n, cst.Attribute) and n.attr.value == "type"
        for n in collect(stmt.test, cst.Attribute)
    ):
        return None  # `if call.type != "function": continue` — a typing guard, not a skip
    last = body.body[-1]
    if not isinstance(last, cst.SimpleStatementLine) or not isinstance(last.body[-1], cst.Continue):
        return None
    for call in collect(body, cst.Call):
        assert isinstance(call, cst.Call)
        func = call.func
        if isinstance(func, cst.Attribute) and func.attr.value in (
            "append",
            "extend",
            "insert",
            "put",
            "put_nowait",
            "add",
        ):
            return None
        if loop.variable is not None and any(
            isinstance(n, cst.Name) and n.value == loop.variable
            for arg in call.args
            for n in collect(arg.value, cst.Name)
        ):
            return None
    if collect(body, cst.Yield, cst.Dict):
        return None
    return last.body[-1] if isinstance(last.body[-1], cst.Continue) else None
