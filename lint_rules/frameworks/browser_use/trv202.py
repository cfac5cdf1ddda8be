"""TRV202 browser-use-success-without-done."""

from __future__ import annotations

from collections.abc import Iterator

from lint_rules.config import Settings
from lint_rules.frameworks.browser_use.recognition import ActionResultCall, BrowserUseFile
from lint_rules.frameworks.browser_use.results import is_literal
from lint_rules.model import Severity
from lint_rules.rules import Example, Finding, Rule


class BrowserUseSuccessWithoutDone(Rule):
    """
    ## What it does
    Checks for `ActionResult(success=True)` without `is_done=True`.

    ## Why is this bad?
    `ActionResult`'s model validator raises "success=True can only be set when
    is_done=True" (browser-use 0.13.14, `agent/views.py:340-348`): the action
    fails with a `ValidationError` at the line that was meant to report its
    success, after its side effects ran, and the model receives that error
    instead of the result. For an ordinary action that worked, leave `success` unset; use
    `success=False` only for failures, and `success=True` only together with
    `is_done=True` when the action finishes the whole task.

    Reported only when `success` is the literal `True` and `is_done` is absent
    or literally `False`/`None`; `**kwargs` or an `is_done` computed at run time
    is not judged.

    ## References
    - [browser-use: custom tools](https://docs.browser-use.com/)
    """

    code = "TRV202"
    name = "browser-use-success-without-done"
    severity = Severity.ERROR
    framework = "browser_use"
    message = "`ActionResult(success=True)` without `is_done=True` raises"

    invalid = (
        Example(
            code="""\
from browser_use import ActionResult, Tools

tools = Tools()


@tools.action("Accept the cookie banner")
async def accept_cookies(browser_session):
    page = await browser_session.must_get_current_page()
    buttons = await page.get_elements_by_css_selector("#cookie-accept")
    if not buttons:
        return ActionResult(extracted_content="No cookie banner", success=False)
    await buttons[0].click()
    return ActionResult(extracted_content="Cookies accepted", success=True)
""",
        ),
        Example(
            code="""\
from browser_use.agent.views import ActionResult as Result


def ok(message: str) -> Result:
    return Result(success=True, is_done=False, long_term_memory=message)
""",
        ),
    )
    valid = (
        Example(
            title="success left unset for an ordinary action",
            code="""\
from browser_use import ActionResult, Tools

tools = Tools()


@tools.action("Accept the cookie banner")
async def accept_cookies(browser_session):
    page = await browser_session.must_get_current_page()
    buttons = await page.get_elements_by_css_selector("#cookie-accept")
    if not buttons:
        return ActionResult(error="No cookie banner", success=False)
    await buttons[0].click()
    return ActionResult(extracted_content="Cookies accepted")
""",
        ),
        Example(
            title="an action that finishes the task",
            code="""\
from browser_use import ActionResult, Controller

controller = Controller()


@controller.action("Report the order number and finish")
def finish(order_number: str):
    return ActionResult(is_done=True, success=True, extracted_content=order_number)
""",
        ),
        Example(
            title="another library's ActionResult",
            code="""\
from browser_use import Tools
from workflows.results import ActionResult

tools = Tools()


def report() -> ActionResult:
    return ActionResult(success=True)
""",
        ),
        Example(
            title="values known only at run time",
            code="""\
from browser_use import ActionResult


def result(done: bool, **extra) -> ActionResult:
    return ActionResult(success=True, is_done=done, **extra)
""",
        ),
    )

    def check(self, context: BrowserUseFile, settings: Settings) -> Iterator[Finding]:
        for result in context.action_results:
            if result.has_star_arguments:
                continue
            success = result.argument("success")
            if success is None or success.keyword is None:
                continue
            if not is_literal(result.value_shape("success"), True):
                continue
            if not _certainly_not_done(result):
                continue
            yield Finding(
                node=success.keyword,
                message=(
                    "`ActionResult(success=True)` without `is_done=True` raises a "
                    "`ValidationError`; leave `success` unset for an action that worked"
                ),
            )


def _certainly_not_done(result: ActionResultCall) -> bool:
    shape = result.value_shape("is_done")
    return shape is None or is_literal(shape, False) or is_literal(shape, None)
