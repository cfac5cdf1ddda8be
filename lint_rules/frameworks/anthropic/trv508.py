"""TRV508 anthropic-beta-tool-return."""

from __future__ import annotations

from collections.abc import Iterator

from lint_rules.analysis.returns import analyse_function
from lint_rules.analysis.shapes import Kind, returned_values
from lint_rules.config import Settings
from lint_rules.frameworks.anthropic.recognition import AnthropicFile
from lint_rules.frameworks.anthropic.trv505 import not_content
from lint_rules.model import Applicability, Severity
from lint_rules.rules import Example, Finding, Rule, wrap_in_str

_WRAPPABLE = frozenset({Kind.INT, Kind.FLOAT})


class AnthropicBetaToolReturn(Rule):
    """
    ## What it does
    Checks the return values of functions decorated with the SDK's
    `@beta_tool` / `@beta_async_tool` (the tool runner's tools) for values that
    are certainly a dict, a number, a bool or a list of plain strings — or,
    when no returned value can be inferred, a return annotation that promises
    one (the runner ignores annotations: a tool annotated `-> int` that returns
    `str(n)` works).

    ## Why is this bad?
    The tool runner sends a tool's return value as the `tool_result` content.
    anthropic 2.x sends a `str` as it is and anything else as `list(value)`
    (`lib/tools/_tool_dispatch.py`): a dict becomes the list of its *keys*
    (the values are lost, and the list of strings is rejected), a number
    becomes an `is_error` result `TypeError("'int' object is not iterable")`.
    anthropic 0.x forwards the value raw and the API answers HTTP 400.
    Return a string: `json.dumps(...)` of a dict, `str(...)` of a number.

    ## Fix safety
    For an `int` or `float` return value the fix wraps it in `str()`: exactly
    the text the model should read, so the fix is safe.

    No fix is offered where `str` there is not the builtin: a module-level
    `str = ...`, a parameter or local named `str`, a `global str` rebound
    elsewhere, or a star import that could bind it. The diagnostic stays.

    ## References
    - [Anthropic SDK: tool helpers](https://github.com/anthropics/anthropic-sdk-python/blob/main/tools.md)
    """

    code = "TRV508"
    name = "anthropic-beta-tool-return"
    severity = Severity.ERROR
    framework = "anthropic"
    fix_applicability = Applicability.SAFE
    message = "A `@beta_tool` returns a value the tool runner cannot send"

    invalid = (
        Example(
            title="a number",
            code="""\
from anthropic import beta_tool


@beta_tool
def count_orders(customer_id: str) -> int:
    \"\"\"Count a customer's open orders.\"\"\"
    orders = [o for o in ORDERS if o["customer"] == customer_id]
    return len(orders)
""",
            fixed="""\
from anthropic import beta_tool


@beta_tool
def count_orders(customer_id: str) -> int:
    \"\"\"Count a customer's open orders.\"\"\"
    orders = [o for o in ORDERS if o["customer"] == customer_id]
    return str(len(orders))
""",
        ),
        Example(
            title="a dict: only its keys are sent",
            code="""\
import anthropic


@anthropic.beta_tool
def get_weather(city: str):
    \"\"\"Get the weather in a city.\"\"\"
    return {"city": city, "temperature": 21, "unit": "C"}
""",
        ),
    )
    valid = (
        Example(
            code="""\
import json

from anthropic import beta_tool


@beta_tool
def get_weather(city: str) -> str:
    \"\"\"Get the weather in a city.\"\"\"
    return json.dumps({"city": city, "temperature": 21, "unit": "C"})
""",
        ),
        Example(
            title="a function that is not a tool of the runner",
            code="""\
def count_orders(customer_id: str) -> int:
    return len([o for o in ORDERS if o["customer"] == customer_id])
""",
        ),
        Example(
            title="an async tool returning text blocks",
            code="""\
import httpx
from anthropic import beta_async_tool


@beta_async_tool
async def fetch_page(url: str):
    \"\"\"Fetch a web page's text.\"\"\"
    async with httpx.AsyncClient() as http:
        page = await http.get(url)
    return [{"type": "text", "text": page.text[:10_000]}]
""",
        ),
    )

    def check(self, context: AnthropicFile, settings: Settings) -> Iterator[Finding]:
        if not context.is_checked:
            return
        module = context.module
        for function in context.beta_tools:
            inference = context.inference(function)
            known = False
            flow = analyse_function(function, module)
            for site in flow.sites:
                if site.value is None:
                    continue
                for value in returned_values(site.value):
                    shape = inference.infer(value)
                    known = known or shape.kind is not Kind.UNKNOWN
                    what = not_content(shape)
                    if what is None:
                        continue
                    yield Finding(
                        node=value,
                        message=(
                            f"`@beta_tool` `{function.name.value}` returns {what}: "
                            f"{_consequence(shape.kind)}; return a `str`"
                        ),
                        fix=wrap_in_str(value, module) if shape.kind in _WRAPPABLE else None,
                    )
            if known or function.returns is None:
                continue
            what = not_content(inference.annotation_shape(function.returns))
            if what is not None:
                yield Finding(
                    node=function.returns.annotation,
                    message=(
                        f"`@beta_tool` `{function.name.value}` is annotated to return {what}: "
                        "the tool runner sends a `str` as it is and anything else as "
                        "`list(value)` (anthropic 2.x) or raw (0.x); return a `str`"
                    ),
                )


def _consequence(kind: Kind) -> str:
    if kind is Kind.DICT:
        return "anthropic 2.x sends only its keys (`list(value)`), 0.x a raw dict (HTTP 400)"
    if kind in (Kind.INT, Kind.FLOAT, Kind.BOOL):
        return "anthropic 2.x sends an `is_error` `TypeError` result, 0.x a raw value (HTTP 400)"
    return "the API accepts only a string or content blocks (HTTP 400)"
