"""TRV803 pydantic-ai-unserializable-return."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from lint_rules.analysis.shapes import Kind, ShapeInference, returned_values
from lint_rules.config import Settings
from lint_rules.frameworks.pydantic_ai.recognition import PydanticAiFile
from lint_rules.model import Severity
from lint_rules.rules import Example, Finding, Rule

_MAX_DEPTH = 6


class PydanticAiUnserializableReturn(Rule):
    """
    ## What it does
    Checks Pydantic AI tools for a returned value that is, or holds in the
    list, tuple, set or dict display (or list comprehension) it returns, an
    instance of a plain class of the same module: a class without bases,
    decorators or metaclass (not a pydantic model, dataclass, `TypedDict`,
    `NamedTuple` or `Enum`, and nothing whose base you cannot see here).

    ## Why is this bad?
    Pydantic AI serialises a tool's return value with pydantic when it sends
    it to the model. An instance of a plain class has no schema: the run
    aborts with `PydanticSerializationError: Unable to serialize unknown type:
    <class '...'>` (verified with pydantic-ai-slim 1.107 and 2.68), after the
    tool's work is done. Return a pydantic model, a dataclass, a dict or a
    string instead.

    ## References
    - [Pydantic AI: function tools, return values](https://ai.pydantic.dev/tools/#function-tool-output)
    """

    code = "TRV803"
    name = "pydantic-ai-unserializable-return"
    severity = Severity.ERROR
    framework = "pydantic_ai"
    message = "A Pydantic AI tool returns an instance of a plain class"

    invalid = (
        Example(
            code="""\
from pydantic_ai import Agent, RunContext

agent = Agent("openai:gpt-4o", deps_type=Database)


class SearchHit:
    def __init__(self, title: str, score: float) -> None:
        self.title = title
        self.score = score


@agent.tool
async def search(ctx: RunContext[Database], query: str):
    \"\"\"Search the catalogue.\"\"\"
    row = await ctx.deps.best_match(query)
    return SearchHit(row.title, row.score)
""",
        ),
        Example(
            title="nested in the returned dict",
            code="""\
from pydantic_ai import Agent

agent = Agent("openai:gpt-4o")


class Forecast:
    def __init__(self, city: str, celsius: float) -> None:
        self.city = city
        self.celsius = celsius

    def __str__(self) -> str:
        return f"{self.celsius} C in {self.city}"


@agent.tool_plain
def weather(city: str) -> dict:
    \"\"\"The weather in a city.\"\"\"
    return {"city": city, "forecast": Forecast(city, 21.0)}
""",
        ),
    )
    valid = (
        Example(
            code="""\
from pydantic import BaseModel
from pydantic_ai import Agent, RunContext

agent = Agent("openai:gpt-4o", deps_type=Database)


class SearchHit(BaseModel):
    title: str
    score: float


@agent.tool
async def search(ctx: RunContext[Database], query: str) -> SearchHit:
    \"\"\"Search the catalogue.\"\"\"
    row = await ctx.deps.best_match(query)
    return SearchHit(title=row.title, score=row.score)
""",
        ),
        Example(
            title="a dataclass",
            code="""\
from dataclasses import dataclass

from pydantic_ai import Agent

agent = Agent("openai:gpt-4o")


@dataclass
class Forecast:
    city: str
    celsius: float


@agent.tool_plain
def weather(city: str) -> Forecast:
    \"\"\"The weather in a city.\"\"\"
    return Forecast(city, 21.0)
""",
        ),
        Example(
            title="a class whose base is not known here",
            code="""\
from pydantic_ai import Agent

from .models import Record

agent = Agent("openai:gpt-4o")


class Forecast(Record):
    pass


@agent.tool_plain
def weather(city: str):
    return Forecast(city=city)
""",
        ),
    )

    def check(self, context: PydanticAiFile, settings: Settings) -> Iterator[Finding]:
        module = context.module
        for function in context.tools:
            inference = ShapeInference(module, function)
            flow = context.flow(function)
            for site in flow.sites:
                if site.value is None:
                    continue
                for value in returned_values(site.value):
                    found = _plain_instance(inference, value)
                    if found is None:
                        continue
                    node, cls = found
                    nested = "" if node is value else " in its returned value"
                    yield Finding(
                        node=node,
                        message=(
                            f"Tool `{function.name.value}` returns an instance of the plain "
                            f"class `{cls.name.value}`{nested}: pydantic cannot serialise it, "
                            "and the run aborts with `PydanticSerializationError`; return a "
                            "pydantic model, a dataclass, a dict or a string"
                        ),
                    )


def _plain_instance(
    inference: ShapeInference, node: cst.BaseExpression, depth: int = 0
) -> tuple[cst.BaseExpression, cst.ClassDef] | None:
    """The node and class of a plain-class instance the value is, or holds in the display
    it is: a constructor call (``Hit(...)``, a name bound to one) or a same-module function
    call certainly returning one; never a parameter's annotation."""
    if depth > _MAX_DEPTH:
        return None
    shape = inference.infer(node)
    if shape.kind is Kind.INSTANCE and shape.local_class is not None:
        constructed = shape.call is not None or isinstance(node, cst.Call)
        if constructed and _is_plain(shape.local_class):
            return node, shape.local_class
        return None
    items: list[cst.BaseExpression] = []
    if isinstance(node, (cst.ListComp, cst.SetComp)):
        element = shape.item
        if (
            element is not None
            and element.kind is Kind.INSTANCE
            and element.local_class is not None
            and isinstance(node.elt, cst.Call)
            and _is_plain(element.local_class)
        ):
            return node.elt, element.local_class
        return None
    if isinstance(node, cst.Dict):
        items = [e.value for e in node.elements if isinstance(e, cst.DictElement)]
    elif isinstance(node, (cst.List, cst.Tuple, cst.Set)):
        items = [e.value for e in node.elements if isinstance(e, cst.Element)]
    for item in items:
        found = _plain_instance(inference, item, depth + 1)
        if found is not None:
            return found
    return None


def _is_plain(cls: cst.ClassDef) -> bool:
    """No decorator, no metaclass or keyword, no base other than ``object``, and no pydantic
    hook of its own."""
    if cls.decorators or cls.keywords:
        return False
    for base in cls.bases:
        if not (isinstance(base.value, cst.Name) and base.value.value == "object"):
            return False
    for statement in cls.body.body if isinstance(cls.body, cst.IndentedBlock) else ():
        if isinstance(statement, cst.FunctionDef) and statement.name.value.startswith(
            ("__get_pydantic", "__pydantic")
        ):
            return False
    return True
