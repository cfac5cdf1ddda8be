"""TRV205 browser-use-non-string-content."""

from __future__ import annotations

from collections.abc import Iterator

from lint_rules.analysis.shapes import CONTAINER_KINDS
from lint_rules.config import Settings
from lint_rules.frameworks.browser_use.recognition import BrowserUseFile
from lint_rules.frameworks.browser_use.results import (
    STR_FIELDS,
    WRAPPABLE_KINDS,
    is_certainly_not_str,
)
from lint_rules.model import Applicability, Severity
from lint_rules.rules import Example, Finding, Rule, wrap_in_str


class BrowserUseNonStringContent(Rule):
    """
    ## What it does
    Checks for `ActionResult(...)` calls that give `extracted_content`,
    `long_term_memory` or `error` a value that is certainly not a string: a
    number, a `bool`, a `dict`, a `list`, a `tuple`, a `set`, or a
    standard-library value such as a `datetime`.

    ## Why is this bad?
    The three fields are `str | None` and pydantic does not convert numbers or
    containers to strings: constructing the result raises `ValidationError:
    Input should be a valid string` (browser-use 0.13.14,
    `agent/views.py:307-338`). The action fails at the line that was meant to
    report its result, after its side effects ran, and the model receives that
    error instead of the result. `None` is allowed, and so is `bytes` (pydantic decodes
    it), so neither is reported.

    ## Fix safety
    An `int` or `float` given to `extracted_content`, `long_term_memory` or
    `error` is wrapped in `str()`: `extracted_content=len(rows)` becomes
    `extracted_content=str(len(rows))`.

    At run time `ActionResult(...)` receives the text `"12"` instead of the
    number 12. pydantic rejected the number with a `ValidationError` (the
    action failed after its side effects ran); it stores the string, which the
    model reads as the same digits. The argument is evaluated as before and
    only its result is converted, so the fix is safe. For a `dict` or `list`,
    use `json.dumps(...)` (suggested, not applied).
    ## References
    - [browser-use: custom tools](https://docs.browser-use.com/)

    No fix is offered where `str` there is not the builtin: a module-level
    `str = ...`, a parameter or local named `str`, a `global str` rebound
    elsewhere, or a star import that could bind it. The diagnostic stays.
    """

    code = "TRV205"
    name = "browser-use-non-string-content"
    severity = Severity.ERROR
    framework = "browser_use"
    fix_applicability = Applicability.SAFE
    message = "`ActionResult` text field given a non-string value"

    invalid = (
        Example(
            code="""\
from browser_use import ActionResult, Tools

tools = Tools()


@tools.action("Count the unread messages in the inbox")
async def count_unread(browser_session):
    page = await browser_session.must_get_current_page()
    unread = await page.get_elements_by_css_selector("tr.zE")
    return ActionResult(extracted_content=len(unread), include_in_memory=True)
""",
            fixed="""\
from browser_use import ActionResult, Tools

tools = Tools()


@tools.action("Count the unread messages in the inbox")
async def count_unread(browser_session):
    page = await browser_session.must_get_current_page()
    unread = await page.get_elements_by_css_selector("tr.zE")
    return ActionResult(extracted_content=str(len(unread)), include_in_memory=True)
""",
        ),
        Example(
            code="""\
from browser_use import ActionResult, Controller

controller = Controller()


@controller.registry.action("Collect the product names on the page")
async def collect_products(names: list[str]):
    found = {"products": names, "count": len(names)}
    return ActionResult(extracted_content=found, long_term_memory=f"{len(names)} products")
""",
        ),
    )
    valid = (
        Example(
            code="""\
import json

from browser_use import ActionResult, Controller

controller = Controller()


@controller.registry.action("Collect the product names on the page")
async def collect_products(names: list[str]):
    found = {"products": names, "count": len(names)}
    return ActionResult(
        extracted_content=json.dumps(found), long_term_memory=f"{len(names)} products"
    )
""",
        ),
        Example(
            title="None and values of unknown type",
            code="""\
from browser_use import ActionResult


def from_response(response) -> ActionResult:
    if response.ok:
        return ActionResult(extracted_content=response.text, error=None)
    return ActionResult(error=response.reason)
""",
        ),
        Example(
            title="a variable assigned values of different types is not guessed at",
            code="""\
from browser_use import ActionResult


def summary(rows: list) -> ActionResult:
    text = 0
    text = f"{len(rows)} rows"
    return ActionResult(extracted_content=text)
""",
        ),
    )

    def check(self, context: BrowserUseFile, settings: Settings) -> Iterator[Finding]:
        for result in context.action_results:
            for field_name in STR_FIELDS:
                arg = result.argument(field_name)
                if arg is None or arg.keyword is None:
                    continue
                shape = result.shape_of(arg.value)
                if not is_certainly_not_str(shape):
                    continue
                hint = "; use `json.dumps(...)`" if shape.kind in CONTAINER_KINDS else ""
                yield Finding(
                    node=arg.keyword,
                    message=(
                        f"`{field_name}` must be a `str`, not `{shape.describe()}`: "
                        f"`ActionResult` raises `ValidationError`{hint}"
                    ),
                    fix=wrap_in_str(arg.value, context.module)
                    if shape.kind in WRAPPABLE_KINDS
                    else None,
                )
