"""TRB102 strands-repr-return."""

from __future__ import annotations

from collections.abc import Iterator

from lint_rules.analysis.returns import analyse_function
from lint_rules.analysis.shapes import Kind, ShapeInference, returned_values
from lint_rules.config import Settings
from lint_rules.frameworks.bedrock._examples import STRANDS_HEAD
from lint_rules.frameworks.bedrock.recognition import BedrockFile
from lint_rules.frameworks.encoding import LIBRARY_VALUE_TYPES, Encoder, not_a_mapping
from lint_rules.model import Severity
from lint_rules.rules import Example, Finding, Rule

JSON_DUMPS = Encoder(
    instance_types=LIBRARY_VALUE_TYPES | {"datetime.datetime"},
    encodes_bytes=False,
    failing_class=not_a_mapping,
)
"""Plain ``json.dumps``, which Strands tries before ``str()`` (strands-agents 1.62.0,
``tools/decorator.py``): tuples are written as lists; sets, dates, `Decimal`, bytes and
objects fail."""


class StrandsReprReturn(Rule):
    """
    ## What it does
    Checks the functions decorated with Strands' `@tool` for a returned value
    plain `json.dumps` cannot encode: a set, a `datetime`, `date`, `Decimal`,
    `UUID`, path, `bytes` or an instance of a plain class or dataclass of the
    module — also nested in the returned dict or list. Off by default: the
    model still gets an answer.

    ## Why is this bad?
    Strands keeps a returned string, dumps a pydantic model as JSON, and
    passes anything else to `json.dumps`; when that fails it falls back to
    `str()` — silently. The model then reads a Python repr (`{'price':
    Decimal('1.5')}`, `{'a', 'b'}`, `<app.Booking object at 0x7f…>`) as the
    tool's successful result (verified with strands-agents 1.62.0). Return
    JSON-ready values (`str()`/`float()` them, or `.isoformat()`).

    ## References
    - [Strands Agents: python tools](https://strandsagents.com/latest/documentation/docs/user-guide/concepts/tools/python-tools/)
    """

    code = "TRB102"
    name = "strands-repr-return"
    severity = Severity.INFO
    framework = "bedrock"
    message = "A Strands tool returns a value sent to the model as its Python repr"

    invalid = (
        Example(
            title="a DynamoDB item",
            code="""\
from decimal import Decimal

from strands import tool


@tool
def price(item: str) -> dict:
    \"\"\"The price of an item.\"\"\"
    return {"item": item, "price": Decimal("9.99")}
""",
        ),
        Example(
            title="a set",
            code=STRANDS_HEAD
            + """\
@tool
def tags(city: str) -> set[str]:
    \"\"\"Tags of a city.\"\"\"
    return {"sunny", city.lower()}
""",
        ),
    )
    valid = (
        Example(
            code=STRANDS_HEAD
            + """\
@tool
def price(item: str) -> dict:
    \"\"\"The price of an item.\"\"\"
    return {"item": item, "price": 9.99, "tags": ["a", "b"]}
""",
        ),
        Example(
            title="a tuple (written as a JSON list)",
            code=STRANDS_HEAD
            + """\
@tool
def position(city: str) -> tuple[float, float]:
    \"\"\"The position of a city.\"\"\"
    return (48.85, 2.35)
""",
        ),
        Example(
            title="a function that is not a tool",
            code="""\
from strands import Agent


def tags(city: str) -> set[str]:
    return {"sunny", city.lower()}
""",
        ),
    )

    def check(self, context: BedrockFile, settings: Settings) -> Iterator[Finding]:
        module = context.module
        for function in context.strands_tools:
            flow = analyse_function(function, module)
            inference = ShapeInference(module, function)
            for site in flow.sites:
                if site.value is None:
                    continue
                for value in returned_values(site.value):
                    shape = inference.infer(value)
                    if (
                        shape.kind is Kind.DICT
                        and shape.entry("status") is not None
                        and shape.entry("content") is not None
                    ):
                        continue  # a ToolResult: TRB101
                    bad = JSON_DUMPS.not_encodable(shape, module)
                    if bad is None:
                        continue
                    yield Finding(
                        node=value,
                        message=(
                            f"`{function.name.value}` returns {bad}: `json.dumps` fails on it, "
                            "and Strands silently sends the model its Python repr as the "
                            "tool's result; return JSON-ready values"
                        ),
                    )
