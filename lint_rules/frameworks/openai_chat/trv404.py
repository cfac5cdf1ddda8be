"""TRV404 chat-dispatch-signature-mismatch."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from lint_rules.config import Settings
from lint_rules.frameworks.openai_chat._loops import HEAD
from lint_rules.frameworks.openai_chat.recognition import ChatFile, Schema
from lint_rules.model import Severity
from lint_rules.rules import Example, Finding, Rule


class ChatDispatchSignatureMismatch(Rule):
    """
    ## What it does
    For `fn(**args)` dispatch only: checks that each registered function
    accepts every field of its tool schema's `properties` and requires no
    parameter that is not one of them.

    ## Why is this bad?
    The model's arguments are the schema's fields; `fn(**args)` raises
    `TypeError: got an unexpected keyword argument` for a field the function
    does not take, and `missing 1 required positional argument` for a
    parameter the schema never asks for. Strict schemas
    (`pydantic_function_tool`, openai 3.57 `lib/_pydantic.py:57`) make every
    field required, so the model always sends all of them.

    Functions with `**kwargs`, decorated functions and schemas whose
    properties are not literal are not checked.

    ## References
    - [OpenAI: function calling](https://platform.openai.com/docs/guides/function-calling)
    """

    code = "TRV404"
    name = "chat-dispatch-signature-mismatch"
    severity = Severity.ERROR
    framework = "openai_chat"
    message = "A registered function does not accept its schema's fields"

    invalid = (
        Example(
            title="the schema says `city`, the function takes `location`",
            code=HEAD.replace(
                "def get_weather(city: str)", "def get_weather(location: str)"
            ).replace('f"Sunny in {city}"', 'f"Sunny in {location}"')
            + """\
available_functions = {"get_weather": get_weather}


def run(messages):
    response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
    for tool_call in response.choices[0].message.tool_calls:
        function = available_functions[tool_call.function.name]
        function(**json.loads(tool_call.function.arguments))
""",
        ),
        Example(
            title="a required parameter the schema does not have",
            code=HEAD.replace("def get_weather(city: str)", "def get_weather(city: str, unit: str)")
            + """\
available_functions = {"get_weather": get_weather}


def run(messages):
    response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
    for tool_call in response.choices[0].message.tool_calls:
        args = json.loads(tool_call.function.arguments)
        available_functions[tool_call.function.name](**args)
""",
        ),
    )
    valid = (
        Example(
            code=HEAD
            + """\
available_functions = {"get_weather": get_weather}


def run(messages):
    response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
    for tool_call in response.choices[0].message.tool_calls:
        available_functions[tool_call.function.name](**json.loads(tool_call.function.arguments))
""",
        ),
        Example(
            title="a parameter with a default, and positional dispatch",
            code=HEAD.replace("def get_weather(city: str)", 'def get_weather(args, unit="C")')
            + """\
available_functions = {"get_weather": get_weather}


def run(messages):
    response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
    for tool_call in response.choices[0].message.tool_calls:
        available_functions[tool_call.function.name](json.loads(tool_call.function.arguments))
""",
        ),
        Example(
            title="`**kwargs` accepts every field",
            code=HEAD.replace("def get_weather(city: str)", "def get_weather(**kwargs)").replace(
                'f"Sunny in {city}"', '"Sunny"'
            )
            + """\
available_functions = {"get_weather": get_weather}


def run(messages):
    response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
    for tool_call in response.choices[0].message.tool_calls:
        available_functions[tool_call.function.name](**json.loads(tool_call.function.arguments))
""",
        ),
    )

    def check(self, context: ChatFile, settings: Settings) -> Iterator[Finding]:
        if not context.is_checked(settings):
            return
        schemas = context.schemas
        if not schemas:
            return
        by_name: dict[str, Schema] = {s.name: s for s in schemas if s.name is not None}
        for registry in context.registries:
            if not any(_keywords_only(call) for call in registry.dispatches):
                continue
            if any(not _keywords_only(call) for call in registry.dispatches):
                continue  # positional dispatch somewhere: the mapping is not certain
            for key, _, value in registry.entries:
                schema = by_name.get(key)
                if schema is None or schema.properties is None:
                    continue
                name = value.value if isinstance(value, cst.Name) else None
                function = context.module.functions.get(name) if name else None
                if function is None or function.decorators:
                    continue
                problem = _mismatch(function, schema)
                if problem is None:
                    continue
                node = value if not registry.is_globals else function.name
                yield Finding(node=node, message=f"`{function.name.value}` {problem}")


def _keywords_only(call: cst.Call) -> bool:
    """``fn(**args)``: exactly one ``**`` argument."""
    return len(call.args) == 1 and call.args[0].star == "**"


def _mismatch(function: cst.FunctionDef, schema: Schema) -> str | None:
    params = function.params
    if isinstance(params.star_kwarg, cst.Param):
        return None
    accepted = {p.name.value for p in (*params.params, *params.kwonly_params)}
    required = [
        p.name.value
        for p in (*params.posonly_params, *params.params, *params.kwonly_params)
        if p.default is None
    ]
    assert schema.properties is not None
    for field_name in schema.properties:
        if field_name not in accepted:
            return (
                f"does not accept `{field_name}`, a field of tool `{schema.name}`'s schema: "
                "`TypeError` when the model passes it"
            )
    for param in required:
        if param not in schema.properties:
            return (
                f"requires `{param}`, which tool `{schema.name}`'s schema does not have: "
                "`TypeError: missing argument` on every call"
            )
    return None
