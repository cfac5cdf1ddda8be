"""TRV308 agents-function-tool-repr-return."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from lint_rules.analysis.literals import string_value
from lint_rules.analysis.shapes import Kind, Shape
from lint_rules.config import Settings
from lint_rules.frameworks.openai_agents.checks import has_plain_bases, returns_agent_or_handoff
from lint_rules.frameworks.openai_agents.recognition import (
    TOOL_OUTPUTS,
    AgentsFile,
    FunctionTool,
)
from lint_rules.model import Severity
from lint_rules.rules import Example, Finding, Rule

# Dicts the SDK converts to structured tool outputs (``items.py:988-999``).
_STRUCTURED_TYPES = frozenset({"text", "image", "file"})


class AgentsFunctionToolReprReturn(Rule):
    """
    ## What it does
    Checks `@function_tool` functions for returns of a dict, list, tuple, set,
    `None` (also falling off the end) or an instance of a model or class of
    this file. Off by default (`info`): an opt-in for codebases that want
    their tools to answer in JSON.

    ## Why is this bad?
    The SDK documents that a function tool may return any "stringable"
    object, and sends what is not a `str` as `str(value)` (openai-agents
    0.24.0, `items.py:845-951`): a Python repr with single quotes, `None`,
    `True`, `id=1 ok=True` for a pydantic model — not JSON. Models read it,
    but less reliably, and nothing downstream can `json.loads` it. Return
    `json.dumps(...)` or `model.model_dump_json()`, or declare
    `@function_tool(output_type=...)`.

    The SDK's own structured outputs are not reported: `ToolOutputText`,
    `ToolOutputImage`, `ToolOutputFileContent`, dicts whose literal `"type"`
    is `"text"`, `"image"` or `"file"`, and lists of them. Nor are tools
    whose output the SDK serialises as JSON itself: those given
    `output_type=` or `output_json_schema=`, and those that allow
    `"programmatic"` callers (their return annotation then becomes the
    output type, `tool.py:2389-2425`).

    A returned handoff or agent is TRV309.

    ## References
    - [OpenAI Agents SDK: tools](https://openai.github.io/openai-agents-python/tools/)
    """

    code = "TRV308"
    name = "agents-function-tool-repr-return"
    severity = Severity.INFO
    framework = "openai_agents"
    message = "Function tool returns a value sent to the model as a Python repr"

    invalid = (
        Example(
            code="""\
from agents import function_tool


@function_tool
def fetch_order(order_id: str) -> dict:
    \"\"\"Look up an order.\"\"\"
    return {"id": order_id, "status": "shipped", "gift": False, "note": None}
""",
        ),
        Example(
            title="a pydantic model and a missing return",
            code="""\
from pydantic import BaseModel

from agents import function_tool


class Weather(BaseModel):
    city: str
    temperature_range: str


@function_tool
def get_weather(city: str) -> Weather:
    return Weather(city=city, temperature_range="14-20C")


@function_tool
def log_visit(city: str):
    print(f"visited {city}")
""",
        ),
        Example(
            title="a list built by appends",
            code="""\
from agents import function_tool

DOCS = [{"title": "Refunds", "url": "/refunds"}, {"title": "Shipping", "url": "/shipping"}]


@function_tool
def search_docs(query: str):
    \"\"\"Search the help centre.\"\"\"
    hits = []
    for doc in DOCS:
        if query.lower() in doc["title"].lower():
            hits.append({"title": doc["title"], "url": doc["url"]})
    return hits
""",
        ),
    )
    valid = (
        Example(
            title="structured outputs appended one by one, and a list filled by a helper",
            code="""\
from agents import ToolOutputText, function_tool

NOTES = ["Refunds take 5 days.", "Shipping is free over 50 EUR."]


@function_tool
def notes(topic: str):
    \"\"\"Notes on a topic, one text block each.\"\"\"
    blocks = []
    for note in NOTES:
        if topic.lower() in note.lower():
            blocks.append(ToolOutputText(text=note))
    return blocks


@function_tool
def related(topic: str):
    \"\"\"Related topics.\"\"\"
    found = []
    fill_related(found, topic)
    return found
""",
        ),
        Example(
            code="""\
import json

from agents import function_tool


@function_tool
def fetch_order(order_id: str) -> str:
    \"\"\"Look up an order.\"\"\"
    return json.dumps({"id": order_id, "status": "shipped", "gift": False, "note": None})
""",
        ),
        Example(
            title="structured tool outputs",
            code="""\
from agents import ToolOutputImage, function_tool


@function_tool
def fetch_chart(url: str):
    return ToolOutputImage(image_url=url, detail="auto")


@function_tool
def fetch_note() -> dict:
    return {"type": "text", "text": "Remember the milk"}
""",
        ),
        Example(
            title="the SDK serialises declared outputs as JSON",
            code="""\
from pydantic import BaseModel

from agents import function_tool


class Weather(BaseModel):
    city: str


@function_tool(output_type=Weather)
def get_weather(city: str):
    return {"city": city}


@function_tool(allowed_callers=["programmatic"])
def weather_model(city: str) -> Weather:
    return Weather(city=city)
""",
        ),
    )

    def check(self, context: AgentsFile, settings: Settings) -> Iterator[Finding]:
        for tool in context.tools:
            if _serialised_by_sdk(tool):
                continue
            for _site, node, shape in tool.returned:
                if returns_agent_or_handoff(shape):
                    continue  # TRV309
                what = _repr_kind(context, shape)
                if what is None:
                    continue
                advice = (
                    "`model.model_dump_json()`"
                    if what.startswith("a `") and what not in _BUILTIN_WORDS
                    else "`json.dumps(...)`"
                )
                name = tool.node.name.value
                if shape.kind is Kind.NONE:
                    message = (
                        f"Function tool `{name}` returns nothing: the model receives the text "
                        "`None`; return a short string saying what happened"
                    )
                else:
                    message = (
                        f"Function tool `{name}` returns {what}: the model receives its Python "
                        f"repr (`str(value)`), not JSON; return {advice} or declare `output_type=`"
                    )
                yield Finding(node=node, message=message)


_BUILTIN_WORDS = frozenset({"a `dict`", "a `list`", "a `tuple`", "a `set`", "`None`"})


def _serialised_by_sdk(tool: FunctionTool) -> bool:
    if "output_type" in tool.options or "output_json_schema" in tool.options:
        arg = tool.options.get("output_type") or tool.options.get("output_json_schema")
        assert arg is not None
        return not (isinstance(arg.value, cst.Name) and arg.value.value == "None")
    callers = tool.options.get("allowed_callers")
    if callers is None:
        return False
    value = callers.value
    if isinstance(value, cst.Name) and value.value == "None":
        return False
    if isinstance(value, (cst.List, cst.Tuple)):
        texts = []
        for element in value.elements:
            node = element.value
            if not isinstance(node, cst.SimpleString) or isinstance(element, cst.StarredElement):
                return True  # not known: may allow programmatic callers
            texts.append(string_value(node))
        return "programmatic" in texts
    return True


def _repr_kind(context: AgentsFile, shape: Shape) -> str | None:
    kind = shape.kind
    if kind is Kind.NONE:
        return "`None`"
    if kind is Kind.DICT:
        if _is_structured(shape) is not False or not shape.entries:
            return None  # maybe structured; ``{}`` reads as JSON anyway
        return "a `dict`"
    if kind in (Kind.LIST, Kind.TUPLE):
        elements = shape.element_shapes()
        if not elements:
            return None if shape.open or kind is Kind.LIST else "a `tuple`"
        if any(_is_structured(e) is not False for e in elements):
            return None  # structured outputs, or elements that may be
        return f"a `{kind.value}`"
    if kind is Kind.SET:
        return "a `set`"
    if kind is Kind.INSTANCE:
        if shape.type_name in TOOL_OUTPUTS:
            return None
        cls = shape.local_class
        if cls is not None and has_plain_bases(context.module, cls):
            return f"a `{cls.name.value}` instance"
    return None


def _is_structured(shape: Shape) -> bool | None:
    """Whether the SDK may take the value as a structured output (None: cannot tell)."""
    if shape.kind is Kind.INSTANCE:
        return True if shape.type_name in TOOL_OUTPUTS else None
    if shape.kind is not Kind.DICT:
        return False if shape.is_known else None
    entry = shape.entry("type")
    if entry is None:
        return None if shape.open else False
    value = entry.value
    if value.has_literal and isinstance(value.literal, str):
        return value.literal in _STRUCTURED_TYPES
    return None
