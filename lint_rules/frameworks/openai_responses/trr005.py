"""TRR005 responses-chat-message-in-input."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from lint_rules.config import Settings
from lint_rules.frameworks.openai_responses._examples import HEAD
from lint_rules.frameworks.openai_responses.recognition import ResponsesFile
from lint_rules.frameworks.tool_loops import dict_entry, keyword, literal_entry
from lint_rules.model import Severity
from lint_rules.rules import Example, Finding, Rule


class ResponsesChatMessageInInput(Rule):
    """
    ## What it does
    Checks for a Chat Completions tool-loop message — `{"role": "tool", ...}`,
    or `{"role": "assistant", "tool_calls": [...]}` — among the items that
    reach a `responses.create(input=...)` request: written in its `input=[...]`
    display, or added to the list it sends (`input_items.append(...)`,
    `+=`, `extend`) before the request or in the loop that makes it.

    ## Why is this bad?
    The Responses API has no tool role and no `tool_calls`: function calls are
    the `function_call` items of `response.output` (send them back with
    `input += response.output`, or chain with `previous_response_id`), and
    each answer is a `{"type": "function_call_output", "call_id": ...,
    "output": ...}` item. The SDK sends the Chat messages as they are and the
    server rejects the request, after the tool ran: HTTP 400 "Unknown
    parameter: 'input[N].tool_calls'" or "Invalid value: 'tool'".

    A list that is also passed as `messages=` somewhere in the module (to
    Chat Completions, or another provider) is not judged.

    ## References
    - [OpenAI: migrating to the Responses API](https://platform.openai.com/docs/guides/migrate-to-responses)
    - [OpenAI: function calling](https://platform.openai.com/docs/guides/function-calling)
    """

    code = "TRR005"
    name = "responses-chat-message-in-input"
    severity = Severity.ERROR
    framework = "openai_responses"
    message = "A Chat Completions tool-loop message in a Responses request's `input`"

    invalid = (
        Example(
            title="the Chat Completions loop, ported request by request",
            code=HEAD
            + """\
def run(question):
    input_items = [{"role": "user", "content": question}]
    response = client.responses.create(model="gpt-4.1", input=input_items, tools=tools)
    for item in response.output:
        if item.type == "function_call":
            input_items.append(
                {
                    "role": "assistant",
                    "tool_calls": [{"id": item.call_id, "type": "function"}],
                }
            )
            input_items.append(
                {
                    "role": "tool",
                    "tool_call_id": item.call_id,
                    "content": get_weather(**json.loads(item.arguments)),
                }
            )
    return client.responses.create(model="gpt-4.1", input=input_items, tools=tools)
""",
        ),
        Example(
            title="a tool message in the request's display",
            code=HEAD
            + """\
async def answer(aclient, response, call):
    result = get_weather(**json.loads(call.arguments))
    return await aclient.responses.create(
        model="gpt-4.1",
        previous_response_id=response.id,
        input=[{"role": "tool", "tool_call_id": call.call_id, "content": result}],
        tools=tools,
    )
""",
        ),
    )
    valid = (
        Example(
            title="`function_call_output` items after the response's own output",
            code=HEAD
            + """\
def run(question):
    input_items = [{"role": "user", "content": question}]
    response = client.responses.create(model="gpt-4.1", input=input_items, tools=tools)
    input_items += response.output
    for item in response.output:
        if item.type == "function_call":
            input_items.append(
                {
                    "type": "function_call_output",
                    "call_id": item.call_id,
                    "output": get_weather(**json.loads(item.arguments)),
                }
            )
    return client.responses.create(model="gpt-4.1", input=input_items, tools=tools)
""",
        ),
        Example(
            title="one history sent to Chat Completions and converted for Responses",
            code=HEAD
            + """\
def run(messages, call, result, use_responses):
    messages.append({"role": "tool", "tool_call_id": call.id, "content": result})
    if use_responses:
        return client.responses.create(model="gpt-4.1", input=messages)
    return client.chat.completions.create(model="gpt-4.1", messages=messages)
""",
        ),
        Example(
            title="plain assistant and user messages are Responses input too",
            code=HEAD
            + """\
def follow_up(history, reply, question):
    history.append({"role": "assistant", "content": reply})
    history.append({"role": "user", "content": question})
    return client.responses.create(model="gpt-4.1", input=history, tools=tools)
""",
        ),
        Example(
            title="a message added after the last request (a transcript, not input)",
            code=HEAD
            + """\
def run(question, transcript, call, result):
    response = client.responses.create(model="gpt-4.1", input=transcript, tools=tools)
    transcript.append({"role": "tool", "tool_call_id": call.call_id, "content": result})
    return response
""",
        ),
    )

    def check(self, context: ResponsesFile, settings: Settings) -> Iterator[Finding]:
        if not context.is_checked:
            return
        module = context.module
        reported: set[int] = set()
        for scope, request in context.requests:
            arg = keyword(request, "input")
            if arg is None:
                continue
            if isinstance(arg.value, (cst.Name, cst.Attribute)) and (
                module.code_for(arg.value).strip() in context.chat_message_lists
            ):
                continue
            for item in context.input_items(scope, request):
                what = _chat_message(item)
                if what is None or id(item) in reported:
                    continue
                reported.add(id(item))
                yield Finding(node=item, message=what)


def _chat_message(node: cst.BaseExpression) -> str | None:
    if not isinstance(node, cst.Dict):
        return None
    role = literal_entry(node, "role")
    if role == "tool":
        return (
            'A Chat Completions `{"role": "tool"}` message in a Responses request\'s '
            '`input`: the API answers a function call with a `{"type": '
            '"function_call_output", "call_id": ..., "output": ...}` item and rejects this '
            "request (HTTP 400)"
        )
    if role == "assistant" and dict_entry(node, "tool_calls") is not None:
        return (
            "A Chat Completions assistant message with `tool_calls` in a Responses "
            "request's `input`: the calls are `response.output`'s `function_call` items "
            "(`input += response.output`, or `previous_response_id`), and the server "
            "rejects `tool_calls` (HTTP 400 \"Unknown parameter: 'input[N].tool_calls'\")"
        )
    return None
