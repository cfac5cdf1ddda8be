"""The loop families' second screens (``frameworks/<family>/screen.py``): a module that only
makes a client or sends a plain request is skipped, and every construct a rule or a tool
function starts from — also written through an alias, a variable, a helper — keeps it;
with the screen on and off the diagnostics are the same."""

from __future__ import annotations

import ast
import importlib
import inspect
import json
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

from lint_rules import engine
from lint_rules.analysis.module import ParsedModule
from lint_rules.analysis.project import Project
from lint_rules.analysis.screen import ModuleView, view_of
from lint_rules.config import Settings
from lint_rules.engine import check_source
from lint_rules.model import Diagnostic

FAMILIES = ("openai_chat", "anthropic", "openai_responses", "google_genai", "bedrock")
EVERY = Settings().with_overrides(select=["ALL"], ignore=["TRV005"])
"""Every rule the screen may leave unrun (TRV005 reads every module's text: with it on,
the screen is off)."""
DEFAULT = Settings()


def _screen(family: str) -> Callable[[ModuleView], bool]:
    module = importlib.import_module(f"lint_rules.frameworks.{family}.screen")
    needs: Callable[[ModuleView], bool] = module.needs_libcst
    return needs


def _json(diagnostics: list[Diagnostic]) -> list[object]:
    return [d.to_json() for d in diagnostics]


def _check(
    source: str, path: str, settings: Settings, screen: bool, monkeypatch: pytest.MonkeyPatch
) -> tuple[list[Diagnostic], int]:
    """The diagnostics with the screen on or off, and how many LibCST parses it took."""
    parses = 0
    real = engine.parse_module  # type: ignore[attr-defined]

    def counting(*args: object, **kwargs: object) -> ParsedModule:
        nonlocal parses
        parses += 1
        return real(*args, **kwargs)  # type: ignore[arg-type]

    with monkeypatch.context() as patch:
        patch.setattr(engine, "parse_module", counting)
        found = check_source(source, path, settings, Project(), screen=screen)
    return found, parses


# ------------------------------------------------------------------ skipped modules

SKIPPED: dict[str, dict[str, str]] = {
    "openai_chat": {
        "client": """\
from openai import OpenAI

client = OpenAI()
""",
        "plain request": """\
from typing import Dict, Optional

from openai import OpenAI

client = OpenAI()
SETTINGS = {"model": "gpt-4o"}


def ask(question: str, extra: Optional[Dict[str, str]] = None) -> str:
    response = client.chat.completions.create(
        model=SETTINGS["model"],
        messages=[{"role": "user", "content": question}],
        tools=[],
    )
    return response.choices[0].message.content
""",
        "tools named tool": """\
from openai import OpenAI

client = OpenAI()


def describe(tools):
    for tool in tools:
        print(tool["function"]["name"], {"tool": tool})
""",
        "a dict of data looked up": """\
from openai import OpenAI

PROMPTS = {"greet": "Say hello", "bye": "Say goodbye"}


def prompt(kind):
    return OpenAI().chat.completions.create(
        model="gpt-4o", messages=[{"role": "user", "content": PROMPTS[kind]}]
    )
""",
    },
    "anthropic": {
        "client": """\
import anthropic

client = anthropic.Anthropic()
""",
        "plain request": """\
import anthropic

client = anthropic.Anthropic()


def ask(question):
    message = client.messages.create(
        model="claude-sonnet-4-5",
        max_tokens=1024,
        messages=[{"role": "user", "content": question}],
        tools=[{"name": "get_weather", "input_schema": {"type": "object"}}],
    )
    return message.content[0].text
""",
    },
    "openai_responses": {
        "plain request": """\
from openai import OpenAI

client = OpenAI()
response = client.responses.create(model="gpt-4o", input="Say hello")
print(response.output_text)
""",
        "a hosted tool": """\
from openai import OpenAI

client = OpenAI()


def search(question):
    response = client.responses.create(
        model="gpt-4o", input=question, tools=[{"type": "web_search"}]
    )
    return response.output_text
""",
    },
    "google_genai": {
        "client": """\
from google import genai

client = genai.Client()
""",
        "plain request": """\
from google import genai
from google.genai import types

client = genai.Client()


def summarise(text):
    response = client.models.generate_content(
        model="gemini-2.5-flash",
        contents=text,
        config=types.GenerateContentConfig(
            temperature=0, tools=[types.Tool(google_search=types.GoogleSearch())]
        ),
    )
    return response.text
""",
    },
    "bedrock": {
        "plain request": """\
import boto3

client = boto3.client("bedrock-runtime")


def ask(question):
    # no toolUse here: a plain question
    response = client.converse(
        modelId="anthropic.claude-3-haiku",
        messages=[{"role": "user", "content": [{"text": question}]}],
    )
    return response["output"]["message"]["content"][0]["text"]
""",
        "a Strands agent": """\
from strands import Agent
from strands_tools import calculator

agent = Agent(tools=[calculator])
print(agent("What is 2 + 2?"))
""",
    },
}


def _skipped() -> list[object]:
    return [
        pytest.param(family, source, id=f"{family}-{name}")
        for family, cases in SKIPPED.items()
        for name, source in cases.items()
    ]


@pytest.mark.parametrize(("family", "source"), _skipped())
def test_a_module_without_tool_constructs_is_not_parsed(
    family: str, source: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = str(tmp_path / "module.py")
    assert engine.framework(family).has_signal(source, path, EVERY)
    assert not _screen(family)(view_of(ast.parse(source), path))
    on, parses = _check(source, path, DEFAULT, True, monkeypatch)
    off, _ = _check(source, path, DEFAULT, False, monkeypatch)
    assert parses == 0
    assert _json(on) == _json(off) == []
    on, _ = _check(source, path, EVERY, True, monkeypatch)
    off, _ = _check(source, path, EVERY, False, monkeypatch)
    assert _json(on) == _json(off)


# ------------------------------------------------------------------ kept modules

KEPT: dict[str, dict[str, tuple[str, str | None]]] = {
    "openai_chat": {
        "a tool message only": (
            """\
from openai import OpenAI

messages = [{"role": "tool", "name": "get_weather", "content": {"temperature": 21}}]
""",
            "TRV401",
        ),
        "an aliased typed constructor": (
            """\
from openai import OpenAI
from openai.types.chat import ChatCompletionToolMessageParam as ToolMessage

client = OpenAI()


def answer(messages, message):
    for call in message.tool_calls:
        messages.append(ToolMessage(role="tool", tool_call_id=call.id, content={"ok": 1}))
    return client.chat.completions.create(model="gpt-4o", messages=messages)
""",
            "TRV401",
        ),
        "a tool message from a helper's default role": (
            """\
from openai import OpenAI

client = OpenAI()


def reply(content, role="tool"):
    return {"role": role, "content": content}


def answer(messages, message):
    for call in message.tool_calls:
        messages.append(reply({"ok": 1}))
    return client.chat.completions.create(model="gpt-4o", messages=messages)
""",
            "TRV401",
        ),
        "a registry module": (
            """\
import json

from openai import OpenAI


def get_weather(city):
    return ValueError(f"no weather for {city}")


FUNCTIONS = {"get_weather": get_weather}


def run(name, arguments):
    return json.dumps(FUNCTIONS[name](**arguments))
""",
            "TRV901",
        ),
        "a registry looked up with get": (
            """\
from openai import OpenAI


async def fetch(city):
    return city


async def get_weather(city):
    return fetch(city)


registry = {"get_weather": get_weather}


async def run(name, arguments):
    function = registry.get(name)
    return await function(**arguments)
""",
            "TRV902",
        ),
        "a globals() dispatch": (
            """\
import json

from openai import OpenAI


def get_time():
    return {1, 2}


def run(name, arguments):
    return json.dumps(globals()[name](**arguments))
""",
            "TRV402",
        ),
    },
    "anthropic": {
        "an aliased typed constructor": (
            """\
import anthropic
from anthropic.types import ToolResultBlockParam as Result

client = anthropic.Anthropic()


def step(messages):
    response = client.messages.create(model="m", max_tokens=9, messages=messages)
    results = [
        Result(type="tool_result", tool_use_id=block.id, content={"ok": 1})
        for block in response.content
        if block.type == "tool_use"
    ]
    messages.append({"role": "assistant", "content": response.content})
    messages.append({"role": "user", "content": results})
    return client.messages.create(model="m", max_tokens=9, messages=messages)
""",
            "TRV505",
        ),
        "an aliased beta_tool": (
            """\
from anthropic import beta_tool as tool


@tool
def get_weather(city: str) -> str:
    return {"city": city}
""",
            "TRV508",
        ),
        "a tool role sent to Anthropic": (
            """\
import anthropic

client = anthropic.Anthropic()


def answer(messages, result):
    messages.append({"role": "tool", "content": result})
    return client.messages.create(model="m", max_tokens=9, messages=messages)
""",
            "TRV504",
        ),
    },
    "openai_responses": {
        "an aliased typed constructor": (
            """\
from openai import OpenAI
from openai.types.responses.response_input_param import FunctionCallOutput as Output

client = OpenAI()


def step(items):
    response = client.responses.create(model="gpt-4o", input=items)
    for item in response.output:
        items.append(Output(type="function_call_output", call_id=item.call_id, output={1: 2}))
    return client.responses.create(model="gpt-4o", input=items)
""",
            "TRR002",
        ),
        "a Chat Completions schema": (
            """\
from openai import OpenAI

client = OpenAI()
TOOLS = [{"type": "function", "function": {"name": "f", "parameters": {}}}]
response = client.responses.create(model="gpt-4o", input="hi", tools=TOOLS)
""",
            "TRR001",
        ),
        "a registry of a Responses loop": (
            """\
from openai import OpenAI

client = OpenAI()


def lookup(order):
    return KeyError(order)


HANDLERS = {"lookup": lookup}


def dispatch(name, arguments):
    client.responses.create(model="gpt-4o", input="hi")
    return HANDLERS[name](**arguments)
""",
            "TRV901",
        ),
    },
    "google_genai": {
        "an aliased FunctionResponse": (
            """\
from google import genai
from google.genai.types import FunctionResponse as Answer


def answer(call):
    return Answer(name=call.name, response="sunny")
""",
            "TRG001",
        ),
        "automatic function calling through a variable": (
            """\
from google import genai
from google.genai import types

client = genai.Client()


def get_weather(city: str):
    return {1, 2}


tools = [get_weather]
config = types.GenerateContentConfig(tools=tools)
response = client.models.generate_content(model="m", contents="hi", config=config)
""",
            "TRG101",
        ),
        "automatic function calling in a config display": (
            """\
from google import genai

client = genai.Client()


def get_weather(city: str):
    return ValueError(city)


response = client.models.generate_content(
    model="m", contents="hi", config={"tools": [get_weather]}
)
""",
            "TRV901",
        ),
    },
    "bedrock": {
        "an aliased typed constructor": (
            """\
import boto3
from mypy_boto3_bedrock_runtime.type_defs import ContentBlockTypeDef as Block

client = boto3.client("bedrock-runtime")


def answer(use, output):
    return Block(toolResult={"toolUseId": use["toolUseId"], "content": len(output)})
""",
            "TRB001",
        ),
        "an aliased Strands tool": (
            """\
from strands import tool as strands_tool


@strands_tool
def get_weather(city: str) -> dict:
    return {"status": "success", "content": "sunny"}
""",
            "TRB101",
        ),
        "a role given to a helper": (
            """\
import boto3

client = boto3.client("bedrock-runtime")


def message(role, text):
    return {"role": role, "content": [{"text": text}]}


def ask(question):
    # the toolUse blocks are read elsewhere
    return client.converse(modelId="m", messages=[message("human", question)])
""",
            "TRB008",
        ),
        "an Anthropic block sent to Converse": (
            """\
import boto3

client = boto3.client("bedrock-runtime")


def answer(messages, use, output):
    # the toolUse blocks are read elsewhere
    messages.append(
        {
            "role": "user",
            "content": [{"type": "tool_result", "tool_use_id": use, "content": output}],
        }
    )
    return client.converse(modelId="m", messages=messages)
""",
            "TRB004",
        ),
    },
}


def _kept() -> list[object]:
    return [
        pytest.param(family, source, code, id=f"{family}-{name}")
        for family, cases in KEPT.items()
        for name, (source, code) in cases.items()
    ]


@pytest.mark.parametrize(("family", "source", "code"), _kept())
def test_a_module_with_a_tool_construct_is_kept(
    family: str,
    source: str,
    code: str | None,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    path = str(tmp_path / "module.py")
    assert engine.framework(family).has_signal(source, path, EVERY)
    assert _screen(family)(view_of(ast.parse(source), path))
    for settings in (DEFAULT, EVERY):
        on, parses = _check(source, path, settings, True, monkeypatch)
        off, _ = _check(source, path, settings, False, monkeypatch)
        assert parses == 1
        assert json.dumps(_json(on)) == json.dumps(_json(off))
    if code is not None:
        assert code in {d.code for d in off}


def test_a_lookup_of_a_data_dict_needs_no_registry() -> None:
    """A name looked up and a dict of functions of another name, or annotations of an
    imported generic: no registry can be recognised."""
    from lint_rules.frameworks.loop_screens import dispatch_registry

    source = """\
from typing import Optional
from tools import get_weather

HANDLERS = {"get_weather": get_weather}
OTHER = {}


def run(name: str, tools: Optional[list] = None):
    return OTHER[name]
"""
    assert not dispatch_registry(view_of(ast.parse(source), "m.py"))
    looked_up = source.replace("OTHER[name]", "HANDLERS[name]")
    assert dispatch_registry(view_of(ast.parse(looked_up), "m.py"))
    imported = source.replace(
        "return OTHER[name]", "from tools import TABLE\n    return TABLE[name]()"
    )
    assert dispatch_registry(view_of(ast.parse(imported), "m.py"))
    schemaless = imported.replace("tools: Optional[list]", "given: Optional[list]")
    assert not dispatch_registry(view_of(ast.parse(schemaless), "m.py"))
    assert dispatch_registry(view_of(ast.parse(schemaless), "m.py"), schema=False)


# ------------------------------------------------------------------ the modules themselves


@pytest.mark.parametrize("family", FAMILIES)
def test_a_screen_imports_only_the_standard_library_and_the_view(family: str) -> None:
    module: ModuleType = importlib.import_module(f"lint_rules.frameworks.{family}.screen")
    tree = ast.parse(inspect.getsource(module))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""]
        else:
            continue
        for name in names:
            top = name.split(".", 1)[0]
            assert name in _LIGHT or top in sys.stdlib_module_names, name


_LIGHT = ("lint_rules.analysis.screen", "lint_rules.frameworks.loop_screens")
"""What a screen may import besides the standard library: the view, and the loop
families' shared tests (which import only the view)."""


def test_the_shared_loop_tests_import_only_the_view() -> None:
    module = importlib.import_module("lint_rules.frameworks.loop_screens")
    for node in ast.walk(ast.parse(inspect.getsource(module))):
        if isinstance(node, ast.ImportFrom) and node.module:
            top = node.module.split(".", 1)[0]
            assert node.module == "lint_rules.analysis.screen" or top in sys.stdlib_module_names


@pytest.mark.parametrize("family", FAMILIES)
def test_the_family_asks_its_screen(family: str) -> None:
    framework = engine.framework(family)
    view = view_of(ast.parse("x = 1\n"), "m.py")
    assert framework.needs_libcst(view) is False  # type: ignore[attr-defined]
