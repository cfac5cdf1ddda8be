"""TRR002 responses-output-type."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from lint_rules.analysis.shapes import ShapeInference
from lint_rules.config import Settings
from lint_rules.frameworks.openai_responses._examples import HEAD
from lint_rules.frameworks.openai_responses.recognition import ResponsesFile
from lint_rules.frameworks.tool_loops import dict_entry, not_text_content
from lint_rules.model import Applicability, Severity
from lint_rules.rules import Example, Finding, Rule, wrap_in_json_dumps

INPUT_PARTS = frozenset({"input_text", "input_image", "input_file"})
"""The content parts a ``function_call_output``'s list ``output`` may hold (openai 3.x,
``ResponseFunctionCallOutputItemListParam``)."""


class ResponsesOutputType(Rule):
    """
    ## What it does
    Checks for a `{"type": "function_call_output", ..., "output": X}` item
    whose `output` is certainly a dict, a number, a bool, or a list of values
    that are not `input_text`/`input_image`/`input_file` parts (Chat
    Completions' `{"type": "text", ...}` parts included).

    ## Why is this bad?
    The SDK sends the item as it is, and the server rejects the request
    *after* the tool ran: HTTP 400 "Invalid type for 'input[N].output':
    expected one of a string or array of input content parts". openai 1.x
    types `output` as `str`; 3.x as `str` or a list of `input_*` parts, so a
    string is what both accept. Serialise the result with `json.dumps(...)`.

    An output is judged only where its module sends Responses requests (or it
    is a Realtime `conversation.item.create` event's item); typed
    constructors (`FunctionCallOutput(...)`) are read as the dicts they make.

    ## Fix safety
    The fix wraps the value in `json.dumps(...)` and is offered only when the
    module already has `import json` (it never adds an import). It is unsafe:
    `json.dumps` raises `TypeError` on values it cannot encode (a `set`, a
    `datetime`), where the original request failed with HTTP 400 instead;
    and a list of Chat text parts becomes their JSON text, not `input_text`
    parts.

    ## References
    - [OpenAI: function calling](https://platform.openai.com/docs/guides/function-calling)
    """

    code = "TRR002"
    name = "responses-output-type"
    severity = Severity.ERROR
    framework = "openai_responses"
    fix_applicability = Applicability.UNSAFE
    message = "A function call output's `output` is not a string"

    invalid = (
        Example(
            title="the tool's dict result sent as it is",
            code=HEAD
            + """\
def run(question):
    input_items = [{"role": "user", "content": question}]
    response = client.responses.create(model="gpt-4.1", input=input_items, tools=tools)
    input_items += response.output
    for item in response.output:
        if item.type == "function_call":
            weather = {"city": json.loads(item.arguments)["city"], "sky": "sunny"}
            input_items.append(
                {
                    "type": "function_call_output",
                    "call_id": item.call_id,
                    "output": weather,
                }
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
            weather = {"city": json.loads(item.arguments)["city"], "sky": "sunny"}
            input_items.append(
                {
                    "type": "function_call_output",
                    "call_id": item.call_id,
                    "output": json.dumps(weather),
                }
            )
    return client.responses.create(model="gpt-4.1", input=input_items, tools=tools)
""",
        ),
        Example(
            title="Chat Completions' text parts, in a typed constructor",
            code=HEAD.replace(
                "from openai import OpenAI\n",
                "from openai import OpenAI\n"
                "from openai.types.responses.response_input_param import FunctionCallOutput\n",
            )
            + """\
def answer(response):
    outputs = []
    for call in response.output:
        if call.type == "function_call":
            text = get_weather(**json.loads(call.arguments))
            outputs.append(
                FunctionCallOutput(
                    type="function_call_output",
                    call_id=call.call_id,
                    output=[{"type": "text", "text": text}],
                )
            )
    return client.responses.create(
        model="gpt-4.1", previous_response_id=response.id, input=outputs, tools=tools
    )
""",
            fixed=HEAD.replace(
                "from openai import OpenAI\n",
                "from openai import OpenAI\n"
                "from openai.types.responses.response_input_param import FunctionCallOutput\n",
            )
            + """\
def answer(response):
    outputs = []
    for call in response.output:
        if call.type == "function_call":
            text = get_weather(**json.loads(call.arguments))
            outputs.append(
                FunctionCallOutput(
                    type="function_call_output",
                    call_id=call.call_id,
                    output=json.dumps([{"type": "text", "text": text}]),
                )
            )
    return client.responses.create(
        model="gpt-4.1", previous_response_id=response.id, input=outputs, tools=tools
    )
""",
        ),
        Example(
            title="a number (no `import json`: no fix offered)",
            code="""\
from openai import OpenAI

client = OpenAI()


def add(call, a: int, b: int):
    output = {"type": "function_call_output", "call_id": call.call_id, "output": a + b}
    return client.responses.create(model="gpt-4.1", input=[output])
""",
        ),
    )
    valid = (
        Example(
            title="a string, and a serialised dict",
            code=HEAD
            + """\
response = client.responses.create(model="gpt-4.1", input="Weather in Paris?", tools=tools)
outputs = [
    {
        "type": "function_call_output",
        "call_id": item.call_id,
        "output": json.dumps({"weather": get_weather(**json.loads(item.arguments))}),
    }
    for item in response.output
    if item.type == "function_call"
]
""",
        ),
        Example(
            title="`input_*` parts (openai 3.x)",
            code=HEAD
            + """\
def answer(call, chart_url):
    return client.responses.create(
        model="gpt-4.1",
        input=[
            {
                "type": "function_call_output",
                "call_id": call.call_id,
                "output": [
                    {"type": "input_text", "text": "Here is the chart"},
                    {"type": "input_image", "image_url": chart_url},
                ],
            }
        ],
        tools=tools,
    )
""",
        ),
        Example(
            title="a value of unknown type (a dispatch table's result)",
            code=HEAD
            + """\
def answer(call, registry):
    result = registry[call.name](**json.loads(call.arguments))
    return client.responses.create(
        model="gpt-4.1",
        input=[{"type": "function_call_output", "call_id": call.call_id, "output": result}],
    )
""",
        ),
        Example(
            title="a module that sends no Responses request (a converter's data)",
            code="""\
import openai


def to_item(event):
    return {"type": "function_call_output", "call_id": event.call_id, "output": {"ok": True}}
""",
        ),
    )

    def check(self, context: ResponsesFile, settings: Settings) -> Iterator[Finding]:
        if not context.is_checked:
            return
        module = context.module
        for scope, item in context.function_call_outputs:
            entry = dict_entry(item, "output")
            if entry is None or not context.is_sent(item):
                continue
            function = scope.node if isinstance(scope.node, cst.FunctionDef) else None
            shape = ShapeInference(module, function).infer(entry.value)
            what = not_text_content(shape, INPUT_PARTS, "`input_*`", bools=True)
            if what is None:
                continue
            yield Finding(
                node=entry.key,
                message=(
                    f"Function call `output` is {what}: the Responses API accepts a string "
                    "(or, in openai 3.x, a list of `input_text`/`input_image`/`input_file` "
                    "parts) and rejects the next request (HTTP 400); serialise it with "
                    "`json.dumps()`"
                ),
                fix=wrap_in_json_dumps(entry.value, module),
            )
