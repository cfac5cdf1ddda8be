"""Anthropic Messages tool loops (TRV5xx): the acceptance matrix.

Every mistake of TRV501–TRV507 is written in the loop styles that apply — a
``for block in response.content`` loop, a list comprehension of results, a
hand-written loop on the beta namespace with ``@beta_tool`` functions
(``tool.to_dict()`` / ``tool.call(...)``) that hands its history to the SDK's
tool runner — each both inside a function and in the module body (a script or
an exported notebook). The line a diagnostic starts on carries ``# <<``; every
other line must stay silent (all of TRV5 is selected). Then the correct loops of
real projects (the corpus catalogue), the fixes through the CLI, the JSON
output and flake8.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from lint_rules.config import Settings
from lint_rules.engine import check_source
from tests.conftest import Invoke

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "anthropic"
MARK = "# <<"

HEAD = """\
import json

import anthropic
from anthropic import beta_tool

client = anthropic.Anthropic()
MODEL = "claude-sonnet-4-5"
tools = [
    {
        "name": "get_weather",
        "description": "Get the current weather in a city",
        "input_schema": {
            "type": "object",
            "properties": {"city": {"type": "string"}},
            "required": ["city"],
        },
    }
]


def get_weather(city: str) -> str:
    return f"Sunny in {city}"


@beta_tool
def weather_tool(city: str) -> str:
    \"\"\"Get the current weather in a city.\"\"\"
    return f"Sunny in {city}"


runner_tools = [weather_tool]
by_name = {t.name: t for t in runner_tools}
"""

ASK = 'messages = [{"role": "user", "content": "Weather in Paris and in Rome?"}]\n'
CREATE = "client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)"
BETA_CREATE = (
    "client.beta.messages.create(\n"
    "    model=MODEL, max_tokens=1024, tools=[t.to_dict() for t in runner_tools], "
    "messages=messages\n)"
)
RUNNER = (
    "runner = client.beta.messages.tool_runner(\n"
    "    model=MODEL, max_tokens=1024, tools=runner_tools, messages=messages\n)\n"
    "for message in runner:\n"
    "    print(message.content)\n"
)
ASSISTANT = 'messages.append({"role": "assistant", "content": response.content})\n'
USER = 'messages.append({"role": "user", "content": results})\n'
RESULT = '{"type": "tool_result", "tool_use_id": block.id, "content": OUTPUT}'

# What differs from the right loop, by rule: the result block (``result``), the
# assistant turn (``assistant``), the user message (``user``), or the whole loop
# (``loop``: ``for`` and ``comprehension`` styles differ there).
MISTAKES: dict[str, dict[str, str]] = {
    "TRV501": {
        "result": '{"type": "tool_result", "tool_call_id": block.id, "content": OUTPUT}  ' + MARK
    },
    "TRV502": {"assistant": "", "user": USER.rstrip("\n") + "  " + MARK + "\n"},
    "TRV503": {
        "user": (
            'messages.append({"role": "user", "content": [{"type": "text", "text": "Done."}, '
            "*results]})  " + MARK + "\n"
        )
    },
    "TRV504": {
        "user": 'messages.append({"role": "tool", "content": results})  ' + MARK + "\n",
    },
    "TRV505": {
        "result": (
            '{"type": "tool_result", "tool_use_id": block.id, "content": {"temp": 21}}  ' + MARK
        )
    },
    "TRV506": {
        "result": (
            '{"type": "tool_result", "tool_use_id": block.id, "is_error": True, "content": ""}  '
            + MARK
        )
    },
}


def split_mark(result: str, output: str) -> tuple[str, str]:
    """The result block with ``output``, and the mark to put at the end of its line."""
    block, mark, _ = result.partition(MARK)
    return block.rstrip().replace("OUTPUT", output), ("  " + mark if mark else "")


def for_loop(output: str, result: str = RESULT) -> str:
    block, mark = split_mark(result, output)
    return (
        "results = []\n"
        "for block in response.content:\n"
        '    if block.type == "tool_use":\n'
        f"        results.append({block}){mark}\n"
    )


def comprehension(output: str, result: str = RESULT) -> str:
    block, mark = split_mark(result, output)
    return (
        f"results = [\n    {block}{mark}\n"
        '    for block in response.content\n    if block.type == "tool_use"\n]\n'
    )


STYLES = {
    # style: (request, how the results are built, the tool's output, what sends them)
    "for": (CREATE, for_loop, "get_weather(**block.input)", f"final = {CREATE}\n"),
    "comprehension": (CREATE, comprehension, "get_weather(**block.input)", f"final = {CREATE}\n"),
    "runner": (BETA_CREATE, for_loop, "by_name[block.name].call(block.input)", RUNNER),
}


def loop(rule: str | None, style: str) -> str:
    """The module-level (script) loop of ``style``, with ``rule``'s mistake."""
    request, build, output, send = STYLES[style]
    mistake = MISTAKES.get(rule or "", {})
    results = build(output, mistake.get("result", RESULT))
    if rule == "TRV507":
        results = TRV507_LOOPS[style].replace("OUTPUT", output)
    if rule == "TRV504" and style != "runner":
        # OpenAI's tool messages kept after a port, one per block.
        results = TRV504_LOOPS[style].replace("OUTPUT", output)
        mistake = {"user": ""}
    return (
        ASK
        + f"response = {request}\n"
        + mistake.get("assistant", ASSISTANT)
        + results
        + mistake.get("user", USER)
        + send
    )


TRV507_LOOPS = {
    "for": (
        "results = []\n"
        "for block in response.content:\n"
        '    if block.type == "tool_use":\n'
        '        results.append({"type": "tool_result", "tool_use_id": block.id, '
        '"content": OUTPUT})\n'
        "        break  " + MARK + "\n"
    ),
    "comprehension": (
        'tool_uses = [block for block in response.content if block.type == "tool_use"]\n'
        "block = tool_uses[0]  " + MARK + "\n"
        'results = [{"type": "tool_result", "tool_use_id": block.id, "content": OUTPUT}]\n'
    ),
    "runner": (
        'block = next(b for b in response.content if b.type == "tool_use")  ' + MARK + "\n"
        'results = [{"type": "tool_result", "tool_use_id": block.id, "content": OUTPUT}]\n'
    ),
}
TRV504_LOOPS = {
    "for": (
        "for block in response.content:\n"
        '    if block.type == "tool_use":\n'
        '        messages.append({"role": "tool", "tool_use_id": block.id, "content": OUTPUT})  '
        + MARK
        + "\n"
    ),
    "comprehension": (
        "messages.extend(\n"
        '    {"role": "tool", "tool_use_id": block.id, "content": OUTPUT}  ' + MARK + "\n"
        '    for block in response.content\n    if block.type == "tool_use"\n)\n'
    ),
}


def in_function(body: str) -> str:
    return "def run():\n" + textwrap.indent(body, "    ")


def findings(source: str, select: str = "TRV5") -> set[tuple[str, int]]:
    compile(source, "loop.py", "exec")
    settings = Settings().with_overrides(select=[select])
    return {(d.code, d.location.row) for d in check_source(source, "loop.py", settings)}


def marked(source: str, code: str) -> set[tuple[str, int]]:
    return {(code, n) for n, line in enumerate(source.splitlines(), 1) if MARK in line}


RULES = ("TRV501", "TRV502", "TRV503", "TRV504", "TRV505", "TRV506", "TRV507")
MISSES: dict[tuple[str, str], str] = {}
"""(rule, style) → why the rule misses it (a rule bug: see the report)."""


def matrix() -> list[object]:
    cases = []
    for rule in RULES:
        for style in STYLES:
            for placement in ("function", "module"):
                marks = []
                if (rule, style) in MISSES:
                    marks.append(pytest.mark.xfail(strict=True, reason=MISSES[(rule, style)]))
                cases.append(pytest.param(rule, style, placement, marks=marks))
    return cases


def build(rule: str | None, style: str, placement: str) -> str:
    body = loop(rule, style)
    return HEAD + "\n\n" + (in_function(body) if placement == "function" else body)


@pytest.mark.parametrize(("rule", "style", "placement"), matrix())
def test_the_mistake_is_reported_where_it_is(rule: str, style: str, placement: str) -> None:
    source = build(rule, style, placement)
    want = marked(source, rule)
    assert want, "a case without a mark"
    assert findings(source) == want


@pytest.mark.parametrize("placement", ["function", "module"])
@pytest.mark.parametrize("style", list(STYLES))
def test_the_right_loop_is_silent(style: str, placement: str) -> None:
    assert findings(build(None, style, placement)) == set()


REQUEST_IN_LOOP = """\
messages = [{"role": "user", "content": "Weather in Paris and in Rome?"}]
response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
messages.append({"role": "assistant", "content": response.content})
for block in response.content:
    if block.type == "tool_use":
        result = {"type": "tool_result", "tool_use_id": block.id, "content": "Sunny"}
        messages.append({"role": "user", "content": [result]})
        final = client.messages.create(  # <<
            model=MODEL, max_tokens=1024, tools=tools, messages=messages
        )
"""
RESULTS_UNDER_ASSISTANT = """\
messages = [{"role": "user", "content": "Weather?"}]
response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
messages.append({"role": "assistant", "content": response.content})
results = [
    {"type": "tool_result", "tool_use_id": b.id, "content": "Sunny"}
    for b in response.content
    if b.type == "tool_use"
]
messages.append({"role": "assistant", "content": results})  # <<
final = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
"""
RESULTS_INSERTED_AFTER_TEXT = """\
messages = [{"role": "user", "content": "Weather?"}]
response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
messages.append({"role": "assistant", "content": response.content})
results = [
    {"type": "tool_result", "tool_use_id": b.id, "content": "Sunny"}
    for b in response.content
    if b.type == "tool_use"
]
results.insert(0, {"type": "text", "text": "Tool results:"})  # <<
messages.append({"role": "user", "content": results})
final = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
"""
LAST_BLOCK_ONLY = """\
messages = [{"role": "user", "content": "Weather?"}]
response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
tool_use = response.content[-1]  # <<
messages.append({"role": "assistant", "content": response.content})
result = {"type": "tool_result", "tool_use_id": tool_use.id, "content": "Sunny"}
messages.append({"role": "user", "content": [result]})
final = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
"""
MISSING_ID_IN_HELPER = """\
def make_result(block, output):
    return {"type": "tool_result", "content": output}  # <<


messages = [{"role": "user", "content": "Weather?"}]
response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
messages.append({"role": "assistant", "content": response.content})
results = [make_result(b, "Sunny") for b in response.content if b.type == "tool_use"]
messages.append({"role": "user", "content": results})
final = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
"""
ERROR_WITHOUT_CONTENT = """\
messages = [{"role": "user", "content": "Weather?"}]
response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
messages.append({"role": "assistant", "content": response.content})
results = []
for block in response.content:
    if block.type == "tool_use":
        try:
            output = get_weather(**block.input)
        except Exception:
            results.append({"type": "tool_result", "tool_use_id": block.id, "is_error": True})  # <<
        else:
            results.append({"type": "tool_result", "tool_use_id": block.id, "content": output})
messages.append({"role": "user", "content": results})
final = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
"""
BETA_TOOL_RETURNS = """\
@beta_tool
def count_orders(customer_id: str):
    \"\"\"Count orders.\"\"\"
    return 3  # <<


@beta_tool
def flags(customer_id: str) -> bool:  # <<
    \"\"\"Flags.\"\"\"
    return lookup(customer_id)


@beta_tool
def names(customer_id: str):
    \"\"\"Names.\"\"\"
    return ["a", "b"]  # <<
"""


PREBUILT_USER_MESSAGE = """\
messages = [{"role": "user", "content": "Weather?"}]
response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
messages.append({"role": "assistant", "content": response.content})
user_message = {"role": "user", "content": []}
for block in response.content:
    if block.type == "tool_use":
        result = {"type": "tool_result", "tool_call_id": block.id, "content": "Sunny"}  # <<
        user_message["content"].append(result)
messages.append(user_message)
final = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
"""
TOOL_MESSAGE_IN_A_NAME = """\
messages = [{"role": "user", "content": "Weather?"}]
response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
messages.append({"role": "assistant", "content": response.content})
for block in response.content:
    if block.type == "tool_use":
        tool_message = {"role": "tool", "tool_call_id": block.id, "content": "Sunny"}  # <<
        messages.append(tool_message)
final = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
"""
DICT_IN_A_NAME = """\
messages = [{"role": "user", "content": "Weather?"}]
response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
messages.append({"role": "assistant", "content": response.content})
results = []
for block in response.content:
    data = {"temp": 21}
    results.append({"type": "tool_result", "tool_use_id": block.id, "content": data})  # <<
messages.append({"role": "user", "content": results})
final = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
"""
TEXT_CONCATENATED_FIRST = """\
messages = [{"role": "user", "content": "Weather?"}]
response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
messages.append({"role": "assistant", "content": response.content})
results = [
    {"type": "tool_result", "tool_use_id": b.id, "content": "Sunny"}
    for b in response.content
    if b.type == "tool_use"
]
messages.append({"role": "user", "content": [{"type": "text", "text": "Results:"}] + results})  # <<
final = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
"""


def miss(reason: str, *placements: str) -> list[tuple[str, pytest.MarkDecorator]]:
    """An expected miss (a rule bug, see the report) in ``placements`` (default: both)."""
    mark = pytest.mark.xfail(strict=True, reason=reason)
    return [(placement, mark) for placement in placements or ("function", "module")]


MORE_FORMS = [
    ("TRV507", REQUEST_IN_LOOP, "TRV507-request-in-loop", []),
    ("TRV504", RESULTS_UNDER_ASSISTANT, "TRV504-assistant-role", []),
    ("TRV503", RESULTS_INSERTED_AFTER_TEXT, "TRV503-insert-0", []),
    ("TRV507", LAST_BLOCK_ONLY, "TRV507-content[-1]", []),
    ("TRV501", MISSING_ID_IN_HELPER, "TRV501-helper", []),
    ("TRV506", ERROR_WITHOUT_CONTENT, "TRV506-missing-content", []),
    (
        "TRV501",
        PREBUILT_USER_MESSAGE,
        "TRV501-prebuilt-user-message",
        [],
    ),
    (
        "TRV504",
        TOOL_MESSAGE_IN_A_NAME,
        "TRV504-tool-message-in-a-name",
        [],
    ),
    (
        "TRV505",
        DICT_IN_A_NAME,
        "TRV505-dict-in-a-name",
        miss(
            "a dict bound in a module-level `for` body is not inferred (in a function it is)",
            "module",
        ),
    ),
    (
        "TRV503",
        TEXT_CONCATENATED_FIRST,
        "TRV503-text-concatenated-first",
        [],
    ),
]


def more_forms() -> list[object]:
    cases = []
    for code, body, name, misses in MORE_FORMS:
        for placement in ("function", "module"):
            marks = [mark for where, mark in misses if where == placement]
            cases.append(pytest.param(code, body, placement, marks=marks, id=f"{name}-{placement}"))
    return cases


@pytest.mark.parametrize(("code", "body", "placement"), more_forms())
def test_more_forms_of_the_mistakes(code: str, body: str, placement: str) -> None:
    if placement == "function":
        if "def make_result" in body:
            helper, _, rest = body.partition("\n\n\n")
            body = helper + "\n\n\n" + in_function(rest)
        else:
            body = in_function(body)
    source = HEAD + "\n\n" + body
    assert findings(source) == marked(source, code)


def test_beta_tool_returns() -> None:
    source = HEAD + "\n\n" + BETA_TOOL_RETURNS
    assert findings(source) == marked(source, "TRV508")


# ------------------------------------------------------------------ how real projects write it

CLASS_HISTORY = """\
class Agent:
    def __init__(self):
        self.client = anthropic.Anthropic()
        self.messages = []

    def add(self, role, content):
        self.messages.append({"role": role, "content": content})

    def step(self, question):
        self.messages.append({"role": "user", "content": question})
        response = self.client.messages.create(
            model=MODEL, max_tokens=1024, tools=tools, messages=self.messages
        )
        self.add("assistant", response.content)
        results = []
        for block in response.content:
            if block.type == "tool_use":
                output = get_weather(**block.input)
                results.append({"type": "tool_result", "tool_use_id": block.id, "content": output})
        self.messages.append({"role": "user", "content": results})
        return self.client.messages.create(
            model=MODEL, max_tokens=1024, tools=tools, messages=self.messages
        )
"""
MESSAGE_ROLE_INLINE = """\
message = client.messages.create(
    model=MODEL, max_tokens=1024, tools=tools,
    messages=[{"role": "user", "content": "Weather in SF?"}],
)
tool = next(c for c in message.content if c.type == "tool_use")
response = client.messages.create(
    model=MODEL,
    max_tokens=1024,
    tools=tools,
    tool_choice={"type": "auto", "disable_parallel_tool_use": True},
    messages=[
        {"role": "user", "content": "Weather in SF?"},
        {"role": message.role, "content": message.content},
        {
            "role": "user",
            "content": [
                {
                    "type": "tool_result",
                    "tool_use_id": tool.id,
                    "content": [{"type": "text", "text": "The weather is 73f"}],
                }
            ],
        },
    ],
)
"""
REBUILT_EACH_ITERATION = """\
question = {"role": "user", "content": "Weather in Paris and Rome?"}
response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=[question])
while response.stop_reason == "tool_use":
    results = [
        {"type": "tool_result", "tool_use_id": b.id, "content": str(get_weather(**b.input))}
        for b in response.content
        if b.type == "tool_use"
    ]
    response = client.messages.create(
        model=MODEL,
        max_tokens=1024,
        tools=tools,
        messages=[
            question,
            {"role": "assistant", "content": response.content},
            {"role": "user", "content": results},
        ],
    )
"""
HELPER_RETURNS_USER_MESSAGE = """\
def tool_results_message(response):
    return {
        "role": "user",
        "content": [
            {"type": "tool_result", "tool_use_id": b.id, "content": get_weather(**b.input)}
            for b in response.content
            if b.type == "tool_use"
        ],
    }


def run(messages):
    while True:
        response = client.messages.create(
            model=MODEL, max_tokens=1024, tools=tools, messages=messages
        )
        messages.append({"role": "assistant", "content": response.content})
        if response.stop_reason != "tool_use":
            return response
        messages.append(tool_results_message(response))
"""
KWARGS_REQUEST = """\
def run(messages, **params):
    response = client.messages.create(messages=messages, **params)
    tool_use = next(b for b in response.content if b.type == "tool_use")
    messages.append({"role": "assistant", "content": response.content})
    result = {"type": "tool_result", "tool_use_id": tool_use.id, "content": "Sunny"}
    messages.append({"role": "user", "content": [result]})
    return client.messages.create(messages=messages, **params)
"""
PARALLEL_OFF = """\
messages = [{"role": "user", "content": "Weather?"}]
response = client.messages.create(
    model=MODEL,
    max_tokens=1024,
    tools=tools,
    tool_choice={"type": "auto", "disable_parallel_tool_use": True},
    messages=messages,
)
tool_use = response.content[-1]
messages.append({"role": "assistant", "content": response.content})
messages.append(
    {
        "role": "user",
        "content": [{"type": "tool_result", "tool_use_id": tool_use.id, "content": "Sunny"}],
    }
)
final = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
"""
TOOL_RUNNER = """\
runner = client.beta.messages.tool_runner(
    model=MODEL,
    max_tokens=1024,
    tools=[weather_tool],
    messages=[{"role": "user", "content": "Weather in Paris?"}],
)
for message in runner:
    print(message.content)
final = runner.until_done()
"""
OPENAI_AND_ANTHROPIC = """\
from openai import OpenAI

openai_client = OpenAI()


def ask_openai(messages):
    response = openai_client.chat.completions.create(model="gpt-4o", messages=messages)
    for call in response.choices[0].message.tool_calls or []:
        messages.append({"role": "tool", "tool_call_id": call.id, "content": "Sunny"})
    return openai_client.chat.completions.create(model="gpt-4o", messages=messages)


def ask_anthropic(messages):
    response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    messages.append({"role": "assistant", "content": response.content})
    results = [
        {"type": "tool_result", "tool_use_id": b.id, "content": "Sunny"}
        for b in response.content
        if b.type == "tool_use"
    ]
    messages.append({"role": "user", "content": results})
    return client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
"""
UI_EVENTS = """\
def stream_events(response, send):
    for block in response.content:
        if block.type == "tool_use":
            output = {"temperature": 21}
            send({"type": "tool_result", "tool_call_id": block.id, "output": output})
            yield {"type": "tool_result", "id": block.id, "content": output, "is_error": True}
            events = [{"type": "tool_result", "name": block.name, "content": 3}]
            send(json.dumps(events))
"""
TEXT_AFTER_RESULTS = """\
messages = [{"role": "user", "content": "Weather?"}]
response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
messages.append({"role": "assistant", "content": response.content})
results = [
    {"type": "tool_result", "tool_use_id": b.id, "content": get_weather(**b.input)}
    for b in response.content
    if b.type == "tool_use"
]
results.append({"type": "text", "text": "Answer in one sentence."})
messages.append({"content": results, "role": "user"})
final = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
"""
ERROR_WITH_MESSAGE = """\
def run(messages, response):
    messages.append({"role": "assistant", "content": response.content})
    results = []
    for block in response.content:
        if block.type != "tool_use":
            continue
        try:
            output = get_weather(**block.input)
            is_error = False
        except Exception as error:
            output, is_error = f"Error: {error}", True
        result = {"type": "tool_result", "tool_use_id": block.id, "content": output}
        results.append({**result, "is_error": is_error})
    messages.append({"role": "user", "content": results})
    return client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
"""
ONE_MESSAGE_PER_RESULT = """\
def run(messages):
    response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    messages.append({"role": "assistant", "content": response.content})
    for block in response.content:
        if block.type == "tool_use":
            result = {"type": "tool_result", "tool_use_id": block.id, "content": "Sunny"}
            messages.append({"role": "user", "content": [result]})
    return client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
"""
COUNTED = """\
def run(messages):
    response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    tool_uses = [b for b in response.content if b.type == "tool_use"]
    if len(tool_uses) != 1:
        raise ValueError("one tool at a time")
    messages.append({"role": "assistant", "content": response.content})
    result = {"type": "tool_result", "tool_use_id": tool_uses[0].id, "content": "Sunny"}
    messages.append({"role": "user", "content": [result]})
    return client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
"""
ASYNC_STREAM = """\
async_client = anthropic.AsyncAnthropic()


async def run(messages):
    async with async_client.messages.stream(
        model=MODEL, max_tokens=1024, tools=tools, messages=messages
    ) as stream:
        response = await stream.get_final_message()
    messages.append({"role": "assistant", "content": response.content})
    results = []
    for block in response.content:
        if block.type == "tool_use":
            results.append(
                {"type": "tool_result", "tool_use_id": block.id, "content": json.dumps(block.input)}
            )
    messages.append({"role": "user", "content": results})
    return await async_client.messages.create(
        model=MODEL, max_tokens=1024, tools=tools, messages=messages
    )
"""
BETA_TOOLS_RIGHT = """\
@beta_tool
def count_orders(customer_id: str) -> str:
    \"\"\"Count orders.\"\"\"
    return str(len([customer_id]))


@beta_tool
def order(customer_id: str) -> str:
    \"\"\"An order.\"\"\"
    return json.dumps({"id": customer_id})


def not_a_tool() -> dict:
    return {"a": 1}
"""


@pytest.mark.parametrize(
    "body",
    [
        pytest.param(CLASS_HISTORY, id="class-held-history"),
        pytest.param(MESSAGE_ROLE_INLINE, id="message.role-inline"),
        pytest.param(REBUILT_EACH_ITERATION, id="rebuilt-messages-each-iteration"),
        pytest.param(HELPER_RETURNS_USER_MESSAGE, id="helper-returns-user-message"),
        pytest.param(KWARGS_REQUEST, id="kwargs-request"),
        pytest.param(PARALLEL_OFF, id="disable_parallel_tool_use"),
        pytest.param(TOOL_RUNNER, id="sdk-tool-runner"),
        pytest.param(OPENAI_AND_ANTHROPIC, id="openai-and-anthropic"),
        pytest.param(UI_EVENTS, id="ui-events"),
        pytest.param(TEXT_AFTER_RESULTS, id="text-after-results"),
        pytest.param(ERROR_WITH_MESSAGE, id="error-with-message"),
        pytest.param(ONE_MESSAGE_PER_RESULT, id="one-user-message-per-result"),
        pytest.param(COUNTED, id="len-checked"),
        pytest.param(ASYNC_STREAM, id="async-stream"),
        pytest.param(BETA_TOOLS_RIGHT, id="beta-tools-right"),
    ],
)
def test_correct_loops_of_real_projects_are_silent(body: str) -> None:
    assert findings(HEAD + "\n\n" + body) == set()


def test_without_import_anthropic_nothing_is_checked() -> None:
    source = build("TRV501", "for", "function").replace("import anthropic\n", "")
    source = source.replace("anthropic.Anthropic()", "Client()")
    source = source.replace(
        "from anthropic import beta_tool", "from my_llm import Client, beta_tool"
    )
    assert findings(source) == set()


# ------------------------------------------------------------------ fixes through the CLI


def fix(tmp_path: Path, toolret_cli: Invoke, source: str, select: str, *flags: str) -> str:
    target = tmp_path / "loop.py"
    target.write_text(source)
    toolret_cli("check", "--fix", "--no-cache", "--select", select, *flags, str(target))
    return target.read_text()


def test_trv501_rename_is_unsafe(tmp_path: Path, toolret_cli: Invoke) -> None:
    source = build("TRV501", "for", "function")
    assert fix(tmp_path, toolret_cli, source, "TRV501") == source
    fixed = fix(tmp_path, toolret_cli, source, "TRV501", "--unsafe-fixes")
    assert fixed == source.replace('"tool_call_id"', '"tool_use_id"')
    assert findings(fixed) == set()


def test_trv505_json_dumps_is_unsafe(tmp_path: Path, toolret_cli: Invoke) -> None:
    source = build("TRV505", "comprehension", "module")
    assert fix(tmp_path, toolret_cli, source, "TRV505") == source
    fixed = fix(tmp_path, toolret_cli, source, "TRV505", "--unsafe-fixes")
    assert fixed == source.replace('{"temp": 21}', 'json.dumps({"temp": 21})')
    assert findings(fixed) == set()


def test_trv505_has_no_fix_without_import_json(tmp_path: Path, toolret_cli: Invoke) -> None:
    source = build("TRV505", "for", "function").replace("import json\n", "", 1)
    assert "import json" not in source
    assert fix(tmp_path, toolret_cli, source, "TRV505", "--unsafe-fixes") == source


def test_trv508_str_is_safe(tmp_path: Path, toolret_cli: Invoke) -> None:
    source = HEAD + "\n\n" + BETA_TOOL_RETURNS
    fixed = fix(tmp_path, toolret_cli, source, "TRV508")
    assert fixed == source.replace("return 3  # <<", "return str(3)  # <<")


# ------------------------------------------------------------------ output and flake8


def test_json_output_of_one_finding(tmp_path: Path, toolret_cli: Invoke) -> None:
    target = tmp_path / "loop.py"
    source = build("TRV506", "for", "module")
    target.write_text(source)
    result = toolret_cli(
        "check", "--no-cache", "--select", "TRV5", "--output-format", "json", str(target)
    )
    assert result.exit_code == 1
    (finding,) = json.loads(result.stdout)
    row = next(n for n, line in enumerate(source.splitlines(), 1) if MARK in line)
    column = source.splitlines()[row - 1].index('"is_error"') + 1
    assert finding["code"] == "TRV506"
    assert finding["name"] == "anthropic-error-result-empty"
    assert finding["severity"] == "error"
    assert finding["filename"] == str(target)
    assert finding["location"] == {"row": row, "column": column}
    assert finding["end_location"]["row"] == row
    assert finding["end_location"]["column"] > column
    assert finding["fix"] is None
    assert finding["noqa_row"] == row
    assert "content cannot be empty if is_error is true" in finding["message"]


def test_flake8_reports_the_same_codes_as_toolret() -> None:
    path = str((EXAMPLES / "support_loop.py").relative_to(ROOT))
    toolret = subprocess.run(
        [sys.executable, "-m", "lint_rules", "check", path, "--select", "TRV5",
         "--output-format", "json", "--no-cache"],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )  # fmt: skip
    flake8 = subprocess.run(
        [sys.executable, "-m", "flake8", "--select", "TRV5", "--format", "%(row)d|%(code)s", path],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )  # fmt: skip
    ours = {(d["location"]["row"], d["code"]) for d in json.loads(toolret.stdout)}
    theirs = {(int(row), code) for row, code in (line.split("|") for line in flake8.stdout.split())}
    assert len(ours) == 8
    assert ours == theirs


SARIF_SCHEMA = ROOT.parent / "shared" / "data" / "sarif-schema-2.1.0.json"


def test_sarif_output_of_the_example_project() -> None:
    """The family's findings as SARIF: every rule that fired is described, every result
    points into the example files; validated against SARIF 2.1.0 where the schema is
    available (``../shared``, outside the repository)."""
    result = subprocess.run(
        [sys.executable, "-m", "lint_rules", "check", "examples/anthropic", "--select", "TRV5",
         "--output-format", "sarif", "--no-cache"],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert result.returncode == 1, result.stderr
    log = json.loads(result.stdout)
    run = log["runs"][0]
    fired = {r["ruleId"] for r in run["results"]}
    assert fired == {f"TRV50{n}" for n in range(1, 9)}
    assert {rule["id"] for rule in run["tool"]["driver"]["rules"]} == fired
    for found in run["results"]:
        uri = found["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        assert uri.startswith("examples/anthropic/")
    if not SARIF_SCHEMA.is_file():
        pytest.skip(f"no SARIF 2.1.0 schema at {SARIF_SCHEMA} to validate against")
    jsonschema = pytest.importorskip("jsonschema", reason="jsonschema is not installed")
    schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    validator = jsonschema.validators.validator_for(schema)(schema)
    assert [e.message for e in validator.iter_errors(log)] == []
