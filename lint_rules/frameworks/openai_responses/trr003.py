"""TRR003 responses-call-id-from-item-id."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from lint_rules.config import Settings
from lint_rules.frameworks.openai_responses._examples import HEAD
from lint_rules.frameworks.openai_responses.recognition import ResponsesFile
from lint_rules.frameworks.tool_loops import dict_entry, fixed_call_id
from lint_rules.model import Applicability, Severity
from lint_rules.rules import EditSpec, Example, Finding, FixSpec, Rule, replace_string_literal


class ResponsesCallIdFromItemId(Rule):
    """
    ## What it does
    Checks for a `function_call_output` item whose `call_id` is the `id` of a
    function call item of `response.output` (`"call_id": item.id`), in a loop
    or comprehension over the response's `output`, or of a fixed item
    (`response.output[0].id`).

    ## Why is this bad?
    A Responses API function call item carries two ids: `id` (`fc_…`, the
    item's own) and `call_id` (`call_…`, the one its output must echo;
    openai `ResponseFunctionToolCall`). The SDK sends whatever it is given,
    and the server rejects the next request: "No tool call found for function
    call output with call_id fc_…" (HTTP 400), after the tool already ran.
    Chat Completions code reads `tool_call.id`, so a migration keeps it.

    Only items of a response made in the same function (or module body) are
    judged: `r = client.responses.create(...)`, then `r.output`, or a list
    filtered from it.

    ## Fix safety
    The fix replaces `.id` with `.call_id` (or `["id"]` with `["call_id"]`).
    It is safe: a function call item always has a `call_id`, the value the
    API asks for.

    ## References
    - [OpenAI: function calling](https://platform.openai.com/docs/guides/function-calling)
    """

    code = "TRR003"
    name = "responses-call-id-from-item-id"
    severity = Severity.ERROR
    framework = "openai_responses"
    fix_applicability = Applicability.SAFE
    message = "A function call output answers the item's `id` instead of its `call_id`"

    invalid = (
        Example(
            title="Chat Completions' `tool_call.id`, kept in a migration",
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
                {"type": "function_call_output", "call_id": item.id, "output": result}
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
            title="a filtered list, a comprehension and `previous_response_id`",
            code=HEAD
            + """\
async def run(aclient, question):
    response = await aclient.responses.create(model="gpt-4.1", input=question, tools=tools)
    calls = [item for item in response.output if item.type == "function_call"]
    outputs = [
        {
            "type": "function_call_output",
            "call_id": call.id,
            "output": get_weather(**json.loads(call.arguments)),
        }
        for call in calls
    ]
    return await aclient.responses.create(
        model="gpt-4.1", previous_response_id=response.id, input=outputs, tools=tools
    )
""",
            fixed=HEAD
            + """\
async def run(aclient, question):
    response = await aclient.responses.create(model="gpt-4.1", input=question, tools=tools)
    calls = [item for item in response.output if item.type == "function_call"]
    outputs = [
        {
            "type": "function_call_output",
            "call_id": call.call_id,
            "output": get_weather(**json.loads(call.arguments)),
        }
        for call in calls
    ]
    return await aclient.responses.create(
        model="gpt-4.1", previous_response_id=response.id, input=outputs, tools=tools
    )
""",
        ),
    )
    valid = (
        Example(
            title="the call's `call_id`",
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
""",
        ),
        Example(
            title="a Chat Completions tool call's `id` is its call id",
            code=HEAD
            + """\
def answer(tool_call, result):
    return {"type": "function_call_output", "call_id": tool_call.id, "output": result}
""",
        ),
        Example(
            title="items that are not a response's output (a stored history of other dicts)",
            code=HEAD
            + """\
def replay(history):
    return [
        {"type": "function_call_output", "call_id": event.id, "output": event.text}
        for event in history
    ]
""",
        ),
    )

    def check(self, context: ResponsesFile, settings: Settings) -> Iterator[Finding]:
        if not context.is_checked:
            return
        for scope, item in context.function_call_outputs:
            entry = dict_entry(item, "call_id")
            if entry is None or not context.is_sent(item):
                continue
            value = entry.value
            read = _id_read(value)
            if read is None or not context.is_output_item(scope, read[0], item):
                continue
            yield Finding(
                node=value,
                message=(
                    "`call_id` is the function call item's `id` (`fc_…`): its output must "
                    "echo the item's `call_id` (`call_…`), or the next request fails (HTTP 400)"
                ),
                fix=_fix(read[1]),
            )


def _id_read(node: cst.BaseExpression) -> tuple[cst.BaseExpression, cst.CSTNode] | None:
    """``(X, the id name or key)`` of ``X.id`` or ``X["id"]`` (``tool_loops.fixed_call_id``)."""
    owner = fixed_call_id(node)
    if owner is None:
        return None
    if isinstance(node, cst.Attribute):
        return owner, node.attr
    assert isinstance(node, cst.Subscript) and isinstance(node.slice[0].slice, cst.Index)
    return owner, node.slice[0].slice.value


def _fix(key: cst.CSTNode) -> FixSpec | None:
    title = "Use the item's `call_id`"
    if isinstance(key, cst.Name):
        return FixSpec(
            title=title, applicability=Applicability.SAFE, edits=(EditSpec(key, "call_id"),)
        )
    assert isinstance(key, cst.BaseExpression)
    found = replace_string_literal(key, "call_id", title)
    if found is None:
        return None
    return FixSpec(title=title, applicability=Applicability.SAFE, edits=found.edits)
