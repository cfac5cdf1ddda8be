"""TRV403 chat-dispatch-key-mismatch."""

from __future__ import annotations

from collections.abc import Iterator, Set

from lint_rules.analysis.index import ChatUse
from lint_rules.config import Settings
from lint_rules.frameworks.openai_chat._loops import HEAD
from lint_rules.frameworks.openai_chat.recognition import ChatFile, Registry
from lint_rules.model import Severity
from lint_rules.rules import Example, Finding, Rule


class ChatDispatchKeyMismatch(Rule):
    """
    ## What it does
    Compares the keys of a dispatch registry (`{"get_weather": get_weather}`
    used as `registry[name](**args)` or `registry.get(name)`, or `globals()`
    dispatch) with the names of the module's tool schemas (`tools=[...]`,
    dict schemas and `pydantic_function_tool`). Reports a registry key that
    is no tool's name, and a tool without an entry in a closed registry —
    also when the lookup is guarded (`if name not in registry`,
    `.get(name, fallback)`, a `None` check, a `try` that catches the
    `KeyError`).

    ## Why is this bad?
    The model calls tools by the schema's name. A registry key spelled
    differently is never called, and the tool it meant raises `KeyError`
    (or calls `None` after `.get`) the first time the model uses it. A
    guard turns the crash into an "unknown tool" answer, which is quieter
    but no better: the advertised tool can never run, and the model is told
    so on every call. `pydantic_function_tool(Model)` names the tool after
    the class (openai 3.57, `lib/_tools.py:42-68`), not after the function.

    Compared only when every schema's name is known (no spreads, no
    generated schemas). A registry extended after its literal
    (`registry["x"] = f`, `.update(...)`) is *open*: a tool without an entry
    is not reported for it. Nor is a tool whose name the module compares
    with a literal (`if name == "get_time":`, `case "get_time":` — it is
    dispatched beside the registry), nor any tool when the module can run
    one another way (`getattr(toolbox, name)`, `session.call_tool(name,
    ...)`). A `try` counts as guarding the lookup only when a handler can
    catch its `KeyError`: a bare `except`, or one naming `KeyError`,
    `LookupError`, `Exception` or `BaseException`; the message says which.
    Registries built at run time (`{f.__name__: f for f in ...}`) are not
    guessed at.

    In whole-project mode (`toolret check`) a registry imported from another
    module is compared too: a key that no importing loop's tools name is
    reported in the registry's file, a tool without an entry in the loop's.
    flake8 checks one file at a time and sees same-file registries only.

    ## References
    - [OpenAI: function calling](https://platform.openai.com/docs/guides/function-calling)
    """

    code = "TRV403"
    name = "chat-dispatch-key-mismatch"
    severity = Severity.ERROR
    framework = "openai_chat"
    message = "A registry key is no tool's name, or a tool has no entry"

    invalid = (
        Example(
            title="a registry key spelled differently from the schema's name",
            code=HEAD
            + """\
available_functions = {"weather": get_weather}


def run(messages):
    response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
    message = response.choices[0].message
    messages.append(message)
    for tool_call in message.tool_calls:
        function = available_functions[tool_call.function.name]
        result = function(**json.loads(tool_call.function.arguments))
        messages.append({"role": "tool", "tool_call_id": tool_call.id, "content": result})
""",
        ),
        Example(
            title="`pydantic_function_tool` names the tool after the class",
            code="""\
import json

import openai
from pydantic import BaseModel


class GetWeather(BaseModel):
    city: str


def get_weather(city: str) -> str:
    return f"Sunny in {city}"


FUNCTIONS = {"get_weather": get_weather}


def run(client, messages):
    response = client.chat.completions.create(
        model="gpt-4o", messages=messages, tools=[openai.pydantic_function_tool(GetWeather)]
    )
    for call in response.choices[0].message.tool_calls:
        FUNCTIONS[call.function.name](**json.loads(call.function.arguments))
""",
        ),
        Example(
            title="a guarded lookup: the tool is answered as unknown and never runs",
            code="""\
import json

from openai import OpenAI

client = OpenAI()
tools = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
        },
    },
    {
        "type": "function",
        "function": {
            "name": "get_forecast",
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
        },
    },
]


def get_weather(city: str) -> str:
    return f"Sunny in {city}"


def get_forecast(city: str) -> str:
    return f"Rain tomorrow in {city}"


TOOL_FUNCTIONS = {"get_weather": get_weather}


def run(messages):
    response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
    message = response.choices[0].message
    messages.append(message)
    for tool_call in message.tool_calls or []:
        try:
            function = TOOL_FUNCTIONS[tool_call.function.name]
            result = function(**json.loads(tool_call.function.arguments))
        except KeyError:
            result = f"Unknown tool {tool_call.function.name}"
        messages.append({"role": "tool", "tool_call_id": tool_call.id, "content": result})
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
        function = available_functions[tool_call.function.name]
        function(**json.loads(tool_call.function.arguments))
""",
        ),
        Example(
            title="a registry built at run time is not guessed at",
            code=HEAD
            + """\
available_functions = {f.__name__: f for f in [get_weather]}


def run(messages):
    response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
    for tool_call in response.choices[0].message.tool_calls:
        available_functions[tool_call.function.name](**json.loads(tool_call.function.arguments))
""",
        ),
        Example(
            title="an open registry: a tool without an entry is not reported",
            code=HEAD
            + """\
available_functions = {}
available_functions["get_weather"] = get_weather


def run(messages):
    response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
    for tool_call in response.choices[0].message.tool_calls:
        available_functions[tool_call.function.name](**json.loads(tool_call.function.arguments))
""",
        ),
        Example(
            title="one tool dispatched by an `if` beside the registry",
            code=HEAD.replace(
                "    }\n]\n",
                '    },\n    {"type": "function", "function": {"name": "get_time"}},\n]\n',
                1,
            )
            + """\
available_functions = {"get_weather": get_weather}


def run(messages):
    response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
    for tool_call in response.choices[0].message.tool_calls:
        name = tool_call.function.name
        if name == "get_time":
            result = "It is noon"
        elif name in available_functions:
            result = available_functions[name](**json.loads(tool_call.function.arguments))
        else:
            result = f"Unknown tool {name}"
        messages.append({"role": "tool", "tool_call_id": tool_call.id, "content": result})
""",
        ),
        Example(
            title="a tool without an entry found on a module (the function is rebound in a branch)",
            code=HEAD.replace(
                "    }\n]\n",
                '    },\n    {"type": "function", "function": {"name": "get_time"}},\n]\n',
                1,
            )
            + """\
import toolbox

available_functions = {"get_weather": get_weather}


def run(messages):
    response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
    for tool_call in response.choices[0].message.tool_calls:
        function = available_functions.get(tool_call.function.name)
        if function is None:
            function = getattr(toolbox, tool_call.function.name)
        result = function(**json.loads(tool_call.function.arguments))
        messages.append({"role": "tool", "tool_call_id": tool_call.id, "content": result})
""",
        ),
    )

    def check(self, context: ChatFile, settings: Settings) -> Iterator[Finding]:
        cross = context.registry_uses(settings)
        if context.is_checked(settings):
            yield from self._same_file(context, cross)
        # whole-project mode: loops of other files dispatch through a registry of this one
        local = {r.name for r in context.registries} if context.is_checked(settings) else set()
        for name, uses in sorted(cross.items()):
            if name in local:
                continue  # compared above, with this module's own tool names
            registry = context.dict_registry(context.scopes[0], name)
            names = _names_of(uses)
            if registry is None or names is None:
                continue
            yield from _unknown_keys(registry, names)

    def _same_file(self, context: ChatFile, cross: dict[str, list[ChatUse]]) -> Iterator[Finding]:
        schemas = context.schemas
        registries = context.registries
        if not schemas or not registries:
            return
        names = {s.name for s in schemas if s.name is not None}
        for registry in registries:
            if registry.is_globals or registry.imported is not None:
                continue
            extra: frozenset[str] | None = frozenset()
            if registry.name in cross:
                extra = _names_of(cross[registry.name])
            if extra is None:
                continue
            yield from _unknown_keys(registry, names | extra)
        dispatching = [r for r in registries if r.dispatches or not r.is_globals]
        if len(dispatching) != 1:
            return
        registry = dispatching[0]
        if registry.is_globals:
            module = context.module
            if module.star_imports:
                return
            bound = set(module.functions) | set(module.imports) | module.local_names
            keys = bound
        elif registry.imported is not None:
            known = context.imported_keys(registry)  # whole-project mode only
            if known is None or not known[1]:
                return
            keys = set(known[0])
        else:
            if not registry.closed:
                return
            keys = {key for key, _, _ in registry.entries}
        missing = [s for s in schemas if s.name is not None and s.name not in keys]
        if not missing or context.dispatches_dynamically:
            return  # a tool without an entry may still run (getattr, call_tool)
        handled = context.compared_names
        for schema in missing:
            if schema.name in handled:
                continue  # a name compared with a literal is dispatched by an `if`/`match`
            where = "the module's top-level names" if registry.is_globals else f"`{registry.name}`"
            if registry.guarded:
                outcome = (
                    "the guarded lookup answers every call of it as an unknown tool, so the "
                    "tool never runs"
                )
            else:
                outcome = "the first call of it raises (`KeyError`, or `None` called after `.get`)"
            yield Finding(
                node=schema.name_node,
                message=f"Tool `{schema.name}` has no entry in {where}: {outcome}",
            )


def _names_of(uses: list[ChatUse]) -> frozenset[str] | None:
    """The union of the tool names of loops in other files; ``None`` if any is unknown."""
    names: set[str] = set()
    for use in uses:
        found = use.names
        if found is None:
            return None
        names |= found
    return frozenset(names)


def _unknown_keys(registry: Registry, names: Set[str]) -> Iterator[Finding]:
    for key, key_node, _ in registry.entries:
        if key not in names:
            known = ", ".join(f"`{n}`" for n in sorted(names))
            yield Finding(
                node=key_node,
                message=(
                    f"Registry key `{key}` is not the name of any tool "
                    f"({known}): the model never calls it"
                ),
            )
