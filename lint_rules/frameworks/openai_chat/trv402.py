"""TRV402 chat-result-not-json-serializable."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from lint_rules.analysis.returns import analyse_function
from lint_rules.analysis.shapes import ShapeInference, returned_values
from lint_rules.config import Settings
from lint_rules.frameworks.encoding import Encoder, bases_within
from lint_rules.frameworks.openai_chat._loops import HEAD
from lint_rules.frameworks.openai_chat.recognition import ChatFile
from lint_rules.model import Severity
from lint_rules.rules import Example, Finding, Rule

_NOT_ENCODABLE = frozenset(
    {
        "datetime.datetime",
        "datetime.date",
        "datetime.time",
        "datetime.timedelta",
        "decimal.Decimal",
        "uuid.UUID",
    }
)
_MODEL_BASES = frozenset({"BaseModel", "pydantic.BaseModel", "pydantic.main.BaseModel"})
_ENCODER = Encoder(
    instance_types=_NOT_ENCODABLE,
    encodes_bytes=False,
    # no base, or only a pydantic model (with or without ``@dataclass``): subclasses of
    # ``str``/``dict``/``Enum``… are left out
    failing_class=bases_within(_MODEL_BASES),
)


class ChatResultNotJsonSerializable(Rule):
    """
    ## What it does
    Checks the functions of a dispatch registry for return values that
    `json.dumps` cannot encode — a `set`, `bytes`, a `datetime`, `date`,
    `Decimal`, `UUID`, a pydantic model or dataclass instance, also nested in
    a dict or list — when the loop serialises results with plain
    `json.dumps(result)` (no `default=`, no `cls=`).

    ## Why is this bad?
    `json.dumps` raises `TypeError: Object of type set is not JSON
    serializable` in the middle of the tool loop, after the tool already ran;
    the conversation is left with an unanswered call. Return JSON-ready
    values (`sorted(tags)`, `when.isoformat()`, `model.model_dump(mode="json")`),
    or serialise with `json.dumps(result, default=str)`.

    In whole-project mode (`toolret check`) the registry may be imported from
    another module, or register functions imported from one: the return value
    is reported in the file that defines the function. flake8 checks one file
    at a time and sees same-file registries only.

    ## References
    - [Python: json.dumps](https://docs.python.org/3/library/json.html#json.dumps)
    """

    code = "TRV402"
    name = "chat-result-not-json-serializable"
    severity = Severity.ERROR
    framework = "openai_chat"
    message = "A registered function returns a value `json.dumps` cannot encode"

    invalid = (
        Example(
            title="a datetime nested in the result",
            code=HEAD
            + """\
from datetime import datetime


def get_time(city: str):
    return {"city": city, "time": datetime.now()}


available_functions = {"get_weather": get_weather, "get_time": get_time}


def run(messages, message):
    for tool_call in message.tool_calls:
        function = available_functions[tool_call.function.name]
        result = function(**json.loads(tool_call.function.arguments))
        messages.append(
            {"role": "tool", "tool_call_id": tool_call.id, "content": json.dumps(result)}
        )
""",
        ),
        Example(
            title="a set",
            code=HEAD
            + """\
def get_cities(country: str):
    return {"Paris", "Lyon"}


available_functions = {"get_weather": get_weather, "get_cities": get_cities}


def run(message):
    for tool_call in message.tool_calls:
        args = json.loads(tool_call.function.arguments)
        yield json.dumps(available_functions[tool_call.function.name](**args))
""",
        ),
    )
    valid = (
        Example(
            title="`default=str` encodes anything",
            code=HEAD
            + """\
from datetime import datetime


def get_time(city: str):
    return {"city": city, "time": datetime.now()}


available_functions = {"get_time": get_time}


def run(messages, message):
    for tool_call in message.tool_calls:
        result = available_functions[tool_call.function.name](
            **json.loads(tool_call.function.arguments)
        )
        content = json.dumps(result, default=str)
        messages.append({"role": "tool", "tool_call_id": tool_call.id, "content": content})
""",
        ),
        Example(
            title="JSON-ready values",
            code=HEAD
            + """\
from datetime import datetime


def get_time(city: str):
    return {"city": city, "time": datetime.now().isoformat(), "zones": sorted({"CET"})}


available_functions = {"get_time": get_time}


def run(message):
    for tool_call in message.tool_calls:
        yield json.dumps(available_functions[tool_call.function.name](city="Paris"))
""",
        ),
        Example(
            title="results sent with `str()`, not `json.dumps`",
            code=HEAD
            + """\
def get_cities(country: str):
    return {"Paris", "Lyon"}


available_functions = {"get_cities": get_cities}


def run(message):
    for tool_call in message.tool_calls:
        yield str(available_functions[tool_call.function.name](country="FR"))
""",
        ),
    )

    def check(self, context: ChatFile, settings: Settings) -> Iterator[Finding]:
        seen: set[str] = set()
        if context.is_checked(settings):
            for registry in context.registries:
                if not context.serialised_plainly(registry):
                    continue
                for _, _, value in registry.entries:
                    name = value.value if isinstance(value, cst.Name) else None
                    if name is not None and name not in seen:
                        seen.add(name)
                        yield from _check_named(context, name)
        # whole-project mode: a loop of another file dispatches to a function of this one
        for name, uses in sorted(context.function_uses(settings).items()):
            if name not in seen and any(u.plain for u in uses):
                seen.add(name)
                yield from _check_named(context, name)


def _check_named(context: ChatFile, name: str) -> Iterator[Finding]:
    function = context.module.functions.get(name)
    if function is None or function.decorators or name in context.module.shadowed:
        return
    yield from _check_function(context, function)


def _check_function(context: ChatFile, function: cst.FunctionDef) -> Iterator[Finding]:
    flow = analyse_function(function, context.module)
    inference = ShapeInference(context.module, function)
    for site in flow.sites:
        if site.value is None:
            continue
        for value in returned_values(site.value):
            bad = _ENCODER.not_encodable(inference.infer(value), context.module)
            if bad is None:
                continue
            yield Finding(
                node=value,
                message=(
                    f"`{function.name.value}` returns {bad}, which `json.dumps` cannot encode: "
                    "`TypeError` in the tool loop; return JSON-ready values or pass `default=`"
                ),
            )
