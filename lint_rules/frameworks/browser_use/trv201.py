"""TRV201 browser-use-invalid-return-type."""

from __future__ import annotations

from collections.abc import Iterator

from lint_rules.analysis.shapes import CONTAINER_KINDS, Kind
from lint_rules.config import Settings
from lint_rules.frameworks.browser_use.recognition import BrowserUseFile
from lint_rules.frameworks.browser_use.results import STDLIB_INSTANCE_TYPES, WRAPPABLE_KINDS
from lint_rules.model import Applicability, Severity
from lint_rules.rules import Example, Finding, Rule, wrap_in_str

INVALID_KINDS = frozenset(
    {
        Kind.INT,
        Kind.FLOAT,
        Kind.COMPLEX,
        Kind.BOOL,
        Kind.BYTES,
        Kind.DICT,
        Kind.LIST,
        Kind.TUPLE,
        Kind.SET,
    }
)


class BrowserUseInvalidReturnType(Rule):
    """
    ## What it does
    Checks for browser-use actions that return something other than a `str`,
    an `ActionResult` or `None`: an `int`, `float`, `bool`, `dict`, `list`,
    `tuple`, `set`, `bytes`, or a standard-library value such as a `datetime`.

    ## Why is this bad?
    browser-use turns a `str` into `ActionResult(extracted_content=...)` and
    `None` into an empty result; for any other type `Tools.act` raises
    `ValueError: Invalid action result type` (browser-use 0.13.14,
    `tools/service.py:2258-2265`). It raises *after* the action ran: the
    form was submitted, the file written, the e-mail sent, and the agent
    records an error instead of the result, so the model often repeats the
    action.

    Only values whose type is certain from the file are reported: literals,
    `len(...)`, parameters annotated `int`, local variables assigned only such
    values, and so on. Returns inside nested helper functions belong to those
    helpers and are not checked.

    ## Fix safety
    An `int` or `float` is wrapped in `str()`: `return len(cards)` becomes
    `return str(len(cards))`, keeping any parentheses of your own.

    At run time the action returns the text `"12"` instead of the number 12.
    browser-use rejected the number — after the action had run — with
    `ValueError: Invalid action result type`; it turns the string into
    `ActionResult(extracted_content="12")`, so the model reads the same
    digits. The expression is evaluated as before and only its result is
    converted; no working behaviour depended on the number, so the fix is safe
    (code of your own that calls the action function directly and computes
    with its result would now get a string). For a `dict` or `list` the
    message suggests `json.dumps(...)`, which is not applied automatically:
    decide what the model should read.
    ## References
    - [browser-use: custom tools](https://docs.browser-use.com/)

    No fix is offered where `str` there is not the builtin: a module-level
    `str = ...`, a parameter or local named `str`, a `global str` rebound
    elsewhere, or a star import that could bind it. The diagnostic stays.
    """

    code = "TRV201"
    name = "browser-use-invalid-return-type"
    severity = Severity.ERROR
    framework = "browser_use"
    fix_applicability = Applicability.SAFE
    message = "browser-use action returns a type browser-use rejects"

    invalid = (
        Example(
            code="""\
from browser_use import Tools

tools = Tools()


@tools.action("Count the rows of the results table")
async def count_rows(browser_session):
    page = await browser_session.must_get_current_page()
    rows = await page.get_elements_by_css_selector("table.results tr")
    return len(rows)
""",
            fixed="""\
from browser_use import Tools

tools = Tools()


@tools.action("Count the rows of the results table")
async def count_rows(browser_session):
    page = await browser_session.must_get_current_page()
    rows = await page.get_elements_by_css_selector("table.results tr")
    return str(len(rows))
""",
        ),
        Example(
            code="""\
from browser_use import Controller

controller = Controller()


@controller.registry.action("Look up a product's stock level")
def check_stock(sku: str):
    stock = inventory.lookup(sku)
    return {"sku": sku, "in_stock": stock.available}
""",
        ),
        Example(
            code="""\
from browser_use import Tools

tools = Tools()


@tools.action("Read the price shown on the page")
async def read_price(price: float):
    if price <= 0:
        return False
    return price
""",
            fixed="""\
from browser_use import Tools

tools = Tools()


@tools.action("Read the price shown on the page")
async def read_price(price: float):
    if price <= 0:
        return False
    return str(price)
""",
        ),
    )
    valid = (
        Example(
            title="a str, an ActionResult or None",
            code="""\
import json

from browser_use import ActionResult, Tools

tools = Tools()


@tools.action("Look up a product's stock level")
def check_stock(sku: str):
    if not sku:
        return ActionResult(error="No SKU given")
    stock = inventory.lookup(sku)
    return json.dumps({"sku": sku, "in_stock": stock.available})
""",
        ),
        Example(
            title="returns of nested helpers belong to the helpers",
            code="""\
from browser_use import ActionResult, Controller

controller = Controller()


@controller.registry.action("Drag an element onto another")
async def drag_drop(source: int, target: int, browser_session):
    async def move(x: int, y: int) -> tuple[bool, str]:
        return True, f"moved to {x},{y}"

    ok, message = await move(source, target)
    return ActionResult(extracted_content=message)
""",
        ),
        Example(
            title="a value whose type cannot be inferred",
            code="""\
import httpx
from browser_use import Tools

tools = Tools()


@tools.action("Get facts about a place")
def get_facts(query: str):
    response = httpx.get("https://example.com/ask", params={"q": query})
    return response.text
""",
        ),
        Example(
            title="functions that are not actions",
            code="""\
from browser_use import Tools

tools = Tools()


def count_rows(rows: list) -> int:
    return len(rows)
""",
        ),
    )

    def check(self, context: BrowserUseFile, settings: Settings) -> Iterator[Finding]:
        for action in context.actions:
            for _site, node, shape in action.returned:
                if node is None:
                    continue
                if shape.kind in INVALID_KINDS:
                    described = shape.kind.value
                elif shape.kind is Kind.INSTANCE and (
                    shape.local_class is None and shape.type_name in STDLIB_INSTANCE_TYPES
                ):
                    described = shape.describe()
                else:
                    continue
                hint = (
                    "; return `json.dumps(...)` of it"
                    if shape.kind in CONTAINER_KINDS
                    else "; return a `str` or an `ActionResult`"
                )
                yield Finding(
                    node=node,
                    message=(
                        f"Action `{action.name}` returns `{described}`: browser-use raises "
                        f"`Invalid action result type` after the action ran{hint}"
                    ),
                    fix=wrap_in_str(node, context.module)
                    if shape.kind in WRAPPABLE_KINDS
                    else None,
                )
