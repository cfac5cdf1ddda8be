"""TRV404 chat-dispatch-signature-mismatch."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

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

    In whole-project mode (`toolret check`) the registry may be imported by
    the loop's module, or register functions imported from another: the
    registered name is reported in the registry's file. flake8 checks one
    file at a time and sees same-file registries and functions only.

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
        reported: set[cst.CSTNode] = set()
        schemas = context.schemas if context.is_checked(settings) else None
        if schemas:
            by_name: dict[str, Schema] = {s.name: s for s in schemas if s.name is not None}
            for registry in context.registries:
                if registry.imported is not None or not context.keywords_only(registry):
                    continue  # positional dispatch somewhere: the mapping is not certain
                for key, _, value in registry.entries:
                    schema = by_name.get(key)
                    if schema is None or schema.properties is None:
                        continue
                    found = _check_entry(context, value, schema.name, schema.properties)
                    if found is not None and found.node not in reported:
                        reported.add(found.node)
                        yield found
        # whole-project mode: loops of other files dispatch through a registry of this one
        for name, uses in sorted(context.registry_uses(settings).items()):
            imported = context.dict_registry(context.scopes[0], name)
            if imported is None:
                continue
            for use in uses:
                if not use.keywords or use.schemas is None:
                    continue
                fields = {s[0]: s[1] for s in use.schemas}
                for key, _, value in imported.entries:
                    properties = fields.get(key)
                    if properties is None or value in reported:
                        continue
                    found = _check_entry(context, value, key, properties)
                    if found is not None:
                        reported.add(found.node)
                        yield found


def _check_entry(
    context: ChatFile,
    value: cst.BaseExpression,
    tool: str | None,
    properties: Sequence[str],
) -> Finding | None:
    signature = context.signature(value)
    if signature is None or signature.decorated:
        return None
    problem = signature.mismatch(tool, properties)
    if problem is None:
        return None
    assert isinstance(value, cst.Name)  # (``globals()`` entries are the ``def``'s name)
    return Finding(node=value, message=f"`{value.value}` {problem}")
