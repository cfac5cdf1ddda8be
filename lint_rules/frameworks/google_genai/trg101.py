"""TRG101 genai-afc-unserializable-return."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from lint_rules.analysis.module import ParsedModule
from lint_rules.analysis.returns import analyse_function
from lint_rules.analysis.shapes import ShapeInference, returned_values
from lint_rules.config import Settings
from lint_rules.frameworks.encoding import LIBRARY_VALUE_TYPES, Encoder, bases_within, is_dataclass
from lint_rules.frameworks.google_genai.recognition import GenaiFile
from lint_rules.model import Severity
from lint_rules.rules import Example, Finding, Rule

_PLAIN = bases_within(frozenset())


def _fails(cls: cst.ClassDef, module: ParsedModule) -> bool:
    """A class of no base that is not a dataclass (the SDK turns dataclasses and pydantic
    models into dicts)."""
    return _PLAIN(cls, module) and not is_dataclass(cls, module)


ENCODER = Encoder(
    instance_types=LIBRARY_VALUE_TYPES,
    encodes_bytes=True,
    failing_class=_fails,
)
"""google-genai 3.6.1's automatic function calling, verified with a mocked transport:
`datetime`, `bytes` (base64), tuples, dataclasses and pydantic models are encoded;
sets, `date`, `time`, `timedelta`, `Decimal`, `UUID`, paths and plain objects raise."""

_HEAD = """\
import datetime
from decimal import Decimal

from google import genai
from google.genai import types

client = genai.Client()


"""


class GenaiAfcUnserializableReturn(Rule):
    """
    ## What it does
    Checks the functions that Gemini's automatic function calling runs — plain
    functions listed in `GenerateContentConfig(tools=[...])` (or a `config=`
    display's `"tools"`) whose `automatic_function_calling` is not disabled —
    for return values the SDK cannot JSON-encode: a `set`, a `date`, `time`,
    `timedelta`, `Decimal`, `UUID` or path, or an instance of a same-module
    plain class, also nested in the returned dict or list.

    ## Why is this bad?
    The SDK calls the function, wraps its result as `{"result": value}` and
    encodes the request with `json.dumps`: `generate_content` (and a chat's
    `send_message`, and the async client) raises `TypeError: Object of type
    set is not JSON serializable` — after the tool ran, and the model never
    gets an answer. `datetime`, `bytes`, tuples, dataclasses and pydantic
    models are encoded (verified with google-genai 3.6.1).

    ## References
    - [Gemini API: automatic function calling](https://ai.google.dev/gemini-api/docs/function-calling#automatic_function_calling_python_only)
    """

    code = "TRG101"
    name = "genai-afc-unserializable-return"
    severity = Severity.ERROR
    framework = "google_genai"
    message = "An automatic-function-calling tool returns a value the SDK cannot encode"

    invalid = (
        Example(
            title="a set of tags",
            code=_HEAD
            + """\
def city_tags(city: str) -> set[str]:
    \"\"\"Tags of a city.\"\"\"
    return {"sunny", city.lower()}


def ask(question: str):
    config = types.GenerateContentConfig(tools=[city_tags])
    return client.models.generate_content(
        model="gemini-2.5-flash", contents=question, config=config
    )
""",
        ),
        Example(
            title="a `Decimal` and a `date` in the returned dict",
            code=_HEAD
            + """\
def price(item: str) -> dict:
    \"\"\"The price of an item.\"\"\"
    return {"item": item, "price": Decimal("9.99"), "since": datetime.date(2024, 1, 1)}


chat = client.chats.create(
    model="gemini-2.5-flash", config=types.GenerateContentConfig(tools=[price])
)
""",
        ),
    )
    valid = (
        Example(
            title="JSON-ready values, a `datetime`",
            code=_HEAD
            + """\
def price(item: str) -> dict:
    \"\"\"The price of an item.\"\"\"
    return {"item": item, "price": "9.99", "at": datetime.datetime.now()}


config = types.GenerateContentConfig(tools=[price])
""",
        ),
        Example(
            title="automatic function calling disabled (a manual loop serialises)",
            code=_HEAD
            + """\
def city_tags(city: str) -> set[str]:
    \"\"\"Tags of a city.\"\"\"
    return {"sunny", city.lower()}


config = types.GenerateContentConfig(
    tools=[city_tags],
    automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True),
)
""",
        ),
        Example(
            title="a function that is not a tool",
            code=_HEAD
            + """\
def city_tags(city: str) -> set[str]:
    return {"sunny", city.lower()}


config = types.GenerateContentConfig(temperature=0.2)
""",
        ),
    )

    def check(self, context: GenaiFile, settings: Settings) -> Iterator[Finding]:
        if not context.is_checked:
            return
        module = context.module
        for function, _ in context.afc_functions:
            flow = analyse_function(function, module)
            inference = ShapeInference(module, function)
            for site in flow.sites:
                if site.value is None:
                    continue
                for value in returned_values(site.value):
                    bad = ENCODER.not_encodable(inference.infer(value), module)
                    if bad is None:
                        continue
                    yield Finding(
                        node=value,
                        message=(
                            f"`{function.name.value}` runs under automatic function calling "
                            f'and returns {bad}: the SDK JSON-encodes `{{"result": ...}}` and '
                            '`generate_content` raises `TypeError` ("… is not JSON '
                            'serializable") after the tool ran; return JSON-ready values'
                        ),
                    )
