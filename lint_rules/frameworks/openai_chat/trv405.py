"""TRV405 chat-unanswered-tool-calls."""

from __future__ import annotations

import re
from collections.abc import Iterator

import libcst as cst

from lint_rules.config import Settings
from lint_rules.frameworks.openai_chat._loops import HEAD
from lint_rules.frameworks.openai_chat.recognition import (
    ChatFile,
    Scope,
    collect,
    is_first_index,
    sent_values,
)
from lint_rules.model import Severity
from lint_rules.rules import Example, Finding, Rule


class ChatUnansweredToolCalls(Rule):
    """
    ## What it does
    Checks for a tool loop that sends the assistant message with *all* its
    `tool_calls` but answers only `tool_calls[0]`, with no loop over the calls.
    Looked for in every function and in the module body (tutorials and
    notebooks exported to `.py` run their loop at top level). The message
    counts as sent when it is appended, inserted or `extend`-ed to a list,
    or written as an element of a request's `messages=[...]` display
    (`messages=[*messages, response_message, *tool_messages]`). A
    same-module helper that is given the message (or its `tool_calls`) and
    answers only `tool_calls[0]` is reported at its call site.

    ## Why is this bad?
    The API requires every `tool_call_id` of an assistant message to be
    answered by a tool message: HTTP 400 "An assistant message with
    'tool_calls' must be followed by tool messages responding to each
    'tool_call_id'". The code works in a demo and fails the first time the
    model makes two calls at once (parallel tool calls are on by default).
    Loop over `message.tool_calls`, or pass `parallel_tool_calls=False`.

    Not reported when any request of the module passes `parallel_tool_calls=`
    anything but a literal `True`, or passes `**kwargs`; when the calls are
    counted (`len(message.tool_calls)`), iterated, indexed past `[0]` or
    handed to another function; nor when the name the message is read from
    is rebound between the `tool_calls[0]` read and the send (a notebook's
    next round). A helper is summarised only when it is a plain top-level
    function (not decorated, not redefined, not a generator) whose every use
    of the parameter is `tool_calls[0]`, a truth test, or a plain attribute
    of the message, and whose tool message answers that first call's id.

    ## References
    - [OpenAI: parallel function calling](https://platform.openai.com/docs/guides/function-calling#parallel-function-calling)
    """

    code = "TRV405"
    name = "chat-unanswered-tool-calls"
    severity = Severity.ERROR
    framework = "openai_chat"
    message = "Only `tool_calls[0]` is answered"

    invalid = (
        Example(
            code=HEAD
            + """\
def run(messages):
    response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
    message = response.choices[0].message
    if message.tool_calls:
        tool_call = message.tool_calls[0]
        args = json.loads(tool_call.function.arguments)
        messages.append(message)
        messages.append(
            {"role": "tool", "tool_call_id": tool_call.id, "content": get_weather(**args)}
        )
        response = client.chat.completions.create(model="gpt-4o", messages=messages)
    return response.choices[0].message.content
""",
        ),
        Example(
            title="the response read without a local alias",
            code=HEAD
            + """\
def run(messages):
    response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
    call = response.choices[0].message.tool_calls[0]
    messages.append(response.choices[0].message)
    result = get_weather(**json.loads(call.function.arguments))
    messages.append({"role": "tool", "tool_call_id": call.id, "content": result})
    return client.chat.completions.create(model="gpt-4o", messages=messages)
""",
        ),
        Example(
            title="a script: the assistant message sent in the `messages=[...]` display",
            code=HEAD
            + """\
messages = [{"role": "user", "content": "What's the weather in Paris and in Rome?"}]
response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
response_message = response.choices[0].message

if response_message.tool_calls:
    tool_call = response_message.tool_calls[0]
    weather = get_weather(**json.loads(tool_call.function.arguments))
    final = client.chat.completions.create(
        model="gpt-4o",
        messages=[
            *messages,
            response_message,
            {"role": "tool", "tool_call_id": tool_call.id, "content": weather},
        ],
    )
    print(final.choices[0].message.content)
""",
        ),
        Example(
            title="a helper that answers only the first call",
            code=HEAD
            + """\
def execute_tool_call(tool_calls):
    tool_call = tool_calls[0]
    args = json.loads(tool_call.function.arguments)
    return {"role": "tool", "tool_call_id": tool_call.id, "content": get_weather(**args)}


def chat(messages):
    response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
    message = response.choices[0].message
    if not message.tool_calls:
        return message.content
    messages.append(message)
    messages.append(execute_tool_call(message.tool_calls))
    return chat(messages)
""",
        ),
    )
    valid = (
        Example(
            title="every call answered",
            code=HEAD
            + """\
def run(messages):
    response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
    message = response.choices[0].message
    messages.append(message)
    for tool_call in message.tool_calls or []:
        args = json.loads(tool_call.function.arguments)
        messages.append(
            {"role": "tool", "tool_call_id": tool_call.id, "content": get_weather(**args)}
        )
    return client.chat.completions.create(model="gpt-4o", messages=messages)
""",
        ),
        Example(
            title="parallel tool calls switched off",
            code=HEAD
            + """\
def run(messages):
    response = client.chat.completions.create(
        model="gpt-4o", messages=messages, tools=tools, parallel_tool_calls=False
    )
    message = response.choices[0].message
    tool_call = message.tool_calls[0]
    messages.append(message)
    messages.append({"role": "tool", "tool_call_id": tool_call.id, "content": "Sunny"})
    return client.chat.completions.create(model="gpt-4o", messages=messages)
""",
        ),
        Example(
            title="only the first call is kept in the assistant message",
            code=HEAD
            + """\
def run(messages):
    response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
    tool_call = response.choices[0].message.tool_calls[0]
    messages.append({"role": "assistant", "tool_calls": [tool_call]})
    messages.append({"role": "tool", "tool_call_id": tool_call.id, "content": "Sunny"})
    return client.chat.completions.create(model="gpt-4o", messages=messages)
""",
        ),
        Example(
            title="a notebook: the names are rebound for the next round",
            code=HEAD
            + """\
messages = [{"role": "user", "content": "What's the weather in Paris?"}]
response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
message = response.choices[0].message
tool_call = message.tool_calls[0]
messages.append({"role": "assistant", "tool_calls": [tool_call]})
weather = get_weather(**json.loads(tool_call.function.arguments))
messages.append({"role": "tool", "tool_call_id": tool_call.id, "content": weather})

# %% the final answer
response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
message = response.choices[0].message
messages.append(message)
print(message.content)
""",
        ),
        Example(
            title="a helper that does loop over all the calls",
            code=HEAD
            + """\
def execute_tool_calls(message):
    if not message.tool_calls:
        return []
    first = message.tool_calls[0]
    print("first tool:", first.function.name)
    return [
        {"role": "tool", "tool_call_id": call.id, "content": "Sunny"}
        for call in message.tool_calls
    ]


def chat(messages):
    response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
    message = response.choices[0].message
    messages.append(message)
    messages.extend(execute_tool_calls(message))
    return client.chat.completions.create(model="gpt-4o", messages=messages)
""",
        ),
        Example(
            title="the first call peeked at, then every call answered (a `for` target rebinds it)",
            code=HEAD
            + """\
def run(messages):
    response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
    message = response.choices[0].message
    tool_call = message.tool_calls[0]
    print("the model wants", tool_call.function.name)
    messages.append(message)
    for tool_call in message.tool_calls:
        args = json.loads(tool_call.function.arguments)
        messages.append(
            {"role": "tool", "tool_call_id": tool_call.id, "content": get_weather(**args)}
        )
    return client.chat.completions.create(model="gpt-4o", messages=messages)
""",
        ),
    )

    def check(self, context: ChatFile, settings: Settings) -> Iterator[Finding]:
        if not context.checks(self.code, settings) or context.parallel_calls_limited:
            return
        for scope in context.scopes:  # every function, and the module body (scripts)
            first: dict[str, list[cst.Subscript | cst.Call]] = {}
            other_index: set[str] = set()
            for node in collect(scope.node, cst.Subscript):
                assert isinstance(node, cst.Subscript)
                message = scope.tool_calls_of(node.value)
                if message is None or len(node.slice) != 1:
                    continue
                if is_first_index(node):
                    first.setdefault(message, []).append(node)
                    continue
                other_index.add(message)
            helper_calls: set[int] = set()
            if context.first_call_helpers:
                for call in collect(scope.node, cst.Call):
                    assert isinstance(call, cst.Call)
                    message = context.helper_first_call(scope, call)
                    if message is not None:
                        first.setdefault(message, []).append(call)
                        helper_calls.add(id(call))
            if not first:
                continue
            looped: set[str | None] = {
                loop.message for loop in context.loops if loop.scope is scope
            }
            if None in looped:
                continue  # a loop answers the calls of a message that is not known
            looped |= _comprehended(context, scope, helper_calls)
            lengths = _length_tested(scope)
            answers = bool(helper_calls) or any(s is scope for s, _ in context.tool_messages)
            if not answers:
                continue
            sent = context.sent_messages(scope)
            order: dict[int, int] | None = None
            for message, sites in first.items():
                if message in looped or message in other_index or message in lengths:
                    continue
                senders = [call for call, carried in sent if carried == message]
                if not senders:
                    continue
                if order is None:
                    order = _source_order(scope)
                # a helper that answers the first call is the answer; a `tool_calls[0]`
                # read beside it (a log line, a test of the name) is not
                sites = sorted(sites, key=lambda s: not isinstance(s, cst.Call))
                site = next(
                    (
                        s
                        for s in sites
                        if any(_same_binding(scope, order, message, s, c) for c in senders)
                    ),
                    None,
                )
                if site is None:
                    continue
                if isinstance(site, cst.Call):
                    assert isinstance(site.func, cst.Name)
                    yield Finding(
                        node=site,
                        message=context.contract.say(
                            f"`{site.func.value}` answers only `tool_calls[0]`, but the "
                            "assistant message with all its tool calls is sent: HTTP 400 when "
                            "the model makes two calls; answer every call or pass "
                            "`parallel_tool_calls=False`"
                        ),
                    )
                    continue
                yield Finding(
                    node=site,
                    message=context.contract.say(
                        "Only `tool_calls[0]` is answered, but the assistant message with "
                        "all its tool calls is sent: HTTP 400 when the model makes two "
                        "calls; loop over `tool_calls` or pass `parallel_tool_calls=False`"
                    ),
                )


_ROOT = re.compile(r"[A-Za-z_]\w*")


def _source_order(scope: Scope) -> dict[int, int]:
    """The source order of a scope's bindings, subscripts and calls (by ``id``)."""
    nodes = collect(
        scope.node,
        cst.Assign,
        cst.AnnAssign,
        cst.AugAssign,
        cst.For,
        cst.NamedExpr,
        cst.WithItem,
        cst.Subscript,
        cst.Call,
    )
    return {id(node): at for at, node in enumerate(nodes)}


def _same_binding(
    scope: Scope, order: dict[int, int], message: str, site: cst.CSTNode, sender: cst.CSTNode
) -> bool:
    """Whether the first call is read and the message sent with no binding of the name
    the message is reached from in between: in a notebook or a script, ``message`` is
    rebound for every round, and the round that answers ``tool_calls[0]`` is not always
    the round that sends a message with several calls."""
    root = _ROOT.match(message)
    if root is None:
        return False
    low, high = sorted((order[id(site)], order[id(sender)]))
    return not any(
        low < order.get(id(binder), -1) < high for binder in scope.binders.get(root.group(), ())
    )


def _comprehended(context: ChatFile, scope: Scope, helper_calls: set[int]) -> set[str | None]:
    """Messages whose calls may be answered elsewhere: iterated by a comprehension, or
    handed to a function (``map(handle, message.tool_calls)``, ``handle_calls(message)``)
    other than a helper known to answer only the first call."""
    found: set[str | None] = set()
    for node in collect(scope.node, cst.CompFor):
        assert isinstance(node, cst.CompFor)
        message = scope.tool_calls_of(node.iter)
        if message is not None:
            found.add(message)
    for call in collect(scope.node, cst.Call):
        assert isinstance(call, cst.Call)
        if (
            id(call) in helper_calls
            or sent_values(call)
            or context.module.is_builtin(call.func, "print")
        ):
            continue
        for arg in call.args:
            message = scope.tool_calls_of(arg.value)
            if message is not None:
                found.add(message)
            elif isinstance(arg.value, (cst.Name, cst.Attribute, cst.Subscript)):
                found.add(scope.canonical(arg.value))
    return found


def _length_tested(scope: Scope) -> set[str]:
    found = set()
    for call in collect(scope.node, cst.Call):
        assert isinstance(call, cst.Call)
        if isinstance(call.func, cst.Name) and call.func.value == "len" and call.args:
            message = scope.tool_calls_of(call.args[0].value)
            if message is not None:
                found.add(message)
    return found
