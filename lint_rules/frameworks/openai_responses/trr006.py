"""TRR006 responses-output-without-call-id."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from lint_rules.config import Settings
from lint_rules.frameworks.openai_responses._examples import HEAD
from lint_rules.frameworks.openai_responses.recognition import ResponsesFile
from lint_rules.frameworks.tool_loops import (
    completed_later,
    dict_entry,
    first_entry,
    has_spread,
    rename_key,
)
from lint_rules.model import Applicability, Severity
from lint_rules.rules import Example, Finding, Rule

_FOREIGN_KEYS = ("tool_call_id", "tool_use_id")
"""The id keys of Chat Completions' tool message and Anthropic's ``tool_result`` block.
Not ``id``: a Responses input item may carry its own (optional) ``id``."""


class ResponsesOutputWithoutCallId(Rule):
    """
    ## What it does
    Checks for a `{"type": "function_call_output", ...}` item without
    `call_id` — missing, or spelled Chat Completions' way (`tool_call_id`) or
    Anthropic's (`tool_use_id`) — in a module that imports `openai` and sends
    Responses requests (`client.responses.create(...)`), or sent as the
    `"item"` of a Realtime API `conversation.item.create` event (the same item,
    the same `call_id`).

    ## Why is this bad?
    `call_id` says which `function_call` item of the previous response the
    output answers: it must echo that item's `call_id` (`call_…`). The SDK
    validates nothing and sends the item as it is (openai 1.109.1 and 3.57);
    openai 1.x types it `call_id: Required[str]`
    (`types/responses/response_input_param.py`, `FunctionCallOutput`), and the
    server cannot match an output without it to its call — it fails on the
    request after the tool already ran. (openai 3.x types `call_id` `Optional`
    for outputs of tools a `caller` drives; for a function call the model made
    it is still the only link.)

    An item bound to a name that is changed later (`item["call_id"] = ...`,
    `item.update(...)`) is not reported: the id may be added there. Nor are
    items of a module that sends no request: a session store's fixtures or a
    converter's tests build such items on purpose.

    ## Fix safety
    Renaming `tool_call_id` / `tool_use_id` to `call_id` is offered as an
    unsafe fix: it changes the request that is sent (which is the point), but
    code that reads the item back by its old key would no longer find it.

    ## References
    - [OpenAI: function calling with the Responses API](https://platform.openai.com/docs/guides/function-calling)
    - [Migrating from Chat Completions to Responses](https://platform.openai.com/docs/guides/migrate-to-responses)
    """

    code = "TRR006"
    name = "responses-output-without-call-id"
    severity = Severity.ERROR
    framework = "openai_responses"
    fix_applicability = Applicability.UNSAFE
    message = "A `function_call_output` item without `call_id`"

    invalid = (
        Example(
            title="Chat Completions' key name, carried over in a migration",
            code=HEAD
            + """\
def run(question):
    input_items = [{"role": "user", "content": question}]
    response = client.responses.create(model="gpt-4.1", input=input_items, tools=tools)
    input_items += response.output
    for item in response.output:
        if item.type == "function_call":
            result = get_weather(**json.loads(item.arguments))
            input_items.append(
                {"type": "function_call_output", "tool_call_id": item.call_id, "output": result}
            )
    return client.responses.create(model="gpt-4.1", input=input_items, tools=tools)
""",
            fixed=HEAD
            + """\
def run(question):
    input_items = [{"role": "user", "content": question}]
    response = client.responses.create(model="gpt-4.1", input=input_items, tools=tools)
    input_items += response.output
    for item in response.output:
        if item.type == "function_call":
            result = get_weather(**json.loads(item.arguments))
            input_items.append(
                {"type": "function_call_output", "call_id": item.call_id, "output": result}
            )
    return client.responses.create(model="gpt-4.1", input=input_items, tools=tools)
""",
        ),
        Example(
            title="no id at all, outputs built by a comprehension",
            code=HEAD
            + """\
response = client.responses.create(model="gpt-4.1", input="Weather in Paris?", tools=tools)
outputs = [
    {"type": "function_call_output", "output": get_weather(**json.loads(item.arguments))}
    for item in response.output
    if item.type == "function_call"
]
final = client.responses.create(
    model="gpt-4.1", previous_response_id=response.id, input=outputs, tools=tools
)
""",
        ),
        Example(
            title="a Realtime API event, the same item",
            code="""\
import json

from openai import AsyncOpenAI

client = AsyncOpenAI()


async def on_function_call(connection, event):
    result = f"Sunny in {json.loads(event.arguments)['city']}"
    await connection.send(
        {
            "type": "conversation.item.create",
            "item": {
                "type": "function_call_output",
                "tool_call_id": event.call_id,
                "output": result,
            },
        }
    )
    await connection.send({"type": "response.create"})
""",
            fixed="""\
import json

from openai import AsyncOpenAI

client = AsyncOpenAI()


async def on_function_call(connection, event):
    result = f"Sunny in {json.loads(event.arguments)['city']}"
    await connection.send(
        {
            "type": "conversation.item.create",
            "item": {
                "type": "function_call_output",
                "call_id": event.call_id,
                "output": result,
            },
        }
    )
    await connection.send({"type": "response.create"})
""",
        ),
    )
    valid = (
        Example(
            title="each call answered with its `call_id`, chained by `previous_response_id`",
            code=HEAD
            + """\
response = client.responses.create(model="gpt-4.1", input="Weather in Paris?", tools=tools)
outputs = [
    {
        "type": "function_call_output",
        "call_id": item.call_id,
        "output": get_weather(**json.loads(item.arguments)),
    }
    for item in response.output
    if item.type == "function_call"
]
final = client.responses.create(
    model="gpt-4.1", previous_response_id=response.id, input=outputs, tools=tools
)
""",
        ),
        Example(
            title="the id added after the literal",
            code=HEAD
            + """\
def answer(input_items, item):
    output = {"type": "function_call_output", "output": get_weather(**json.loads(item.arguments))}
    output["call_id"] = item.call_id
    input_items.append(output)
    return client.responses.create(model="gpt-4.1", input=input_items, tools=tools)
""",
        ),
        Example(
            title="the item's own optional `id`, beside `call_id`",
            code=HEAD
            + """\
def answer(item, result):
    return {
        "type": "function_call_output",
        "id": f"fco_{item.call_id}",
        "call_id": item.call_id,
        "output": result,
    }
""",
        ),
        Example(
            title="a stored history, in a module that sends no request",
            code="""\
from openai.types.responses import ResponseInputItemParam


def legacy_history() -> list[ResponseInputItemParam]:
    return [
        {"role": "user", "content": "Weather in Paris?"},
        {"type": "function_call_output", "output": "Sunny"},
    ]
""",
        ),
        Example(
            title="keys spread in from elsewhere",
            code=HEAD
            + """\
def answer(ids, result):
    return {"type": "function_call_output", **ids, "output": result}
""",
        ),
    )

    def check(self, context: ResponsesFile, settings: Settings) -> Iterator[Finding]:
        if not context.is_checked:
            return
        for scope, item in context.function_call_outputs:
            if dict_entry(item, "call_id") is not None or has_spread(item):
                continue
            if completed_later(scope, item) or not context.is_sent(item):
                continue
            wrong = first_entry(item, _FOREIGN_KEYS)
            if wrong is not None:
                key = wrong.key
                assert isinstance(key, cst.BaseExpression)
                yield Finding(
                    node=key,
                    message=(
                        f"`function_call_output` item names its id "
                        f"`{context.module.code_for(key)}`: the Responses API reads "
                        "`call_id` (the `call_id` of the `function_call` item it answers)"
                    ),
                    fix=rename_key(context.module, key, "call_id", "Rename to `call_id`"),
                )
                continue
            kind = dict_entry(item, "type")
            assert kind is not None
            yield Finding(
                node=kind,
                message=(
                    "`function_call_output` item without `call_id`: nothing ties it to the "
                    'function call it answers; add `"call_id": item.call_id`'
                ),
            )
