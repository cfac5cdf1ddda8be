"""TRV207 browser-use-done-on-error."""

from __future__ import annotations

from collections.abc import Iterator

from lint_rules.analysis.shapes import Kind
from lint_rules.config import Settings
from lint_rules.frameworks.browser_use.recognition import BrowserUseFile
from lint_rules.frameworks.browser_use.results import is_literal
from lint_rules.model import Severity
from lint_rules.rules import Example, Finding, Rule


class BrowserUseDoneOnError(Rule):
    """
    ## What it does
    Checks for `ActionResult(is_done=True, error=...)`: a result that reports an
    error *and* finishes the task.

    ## Why is this bad?
    `is_done=True` ends the agent's run as soon as the action returns
    (browser-use 0.13.14: the run loop stops on `history.is_done()`,
    `agent/service.py:2644-2646`, `agent/views.py:722`), so
    the agent never gets to read the error and retry or work around it: one
    failed lookup ends the whole task. This is a common surprise
    (browser-use issue #2575, "Agent exiting in between after calling custom
    controller"). To let the agent recover, return `ActionResult(error=...)`
    alone.

    Not reported when the result also says `success=False` explicitly: that is
    how a run is stopped on purpose (browser-use's own
    `examples/custom-functions/assertions.py` fails fast exactly like this).
    Nor when the error is `None`, empty, or of unknown type.

    ## References
    - [browser-use issue #2575](https://github.com/browser-use/browser-use/issues/2575)
    """

    code = "TRV207"
    name = "browser-use-done-on-error"
    severity = Severity.WARNING
    framework = "browser_use"
    message = "`ActionResult` reports an error and ends the task"

    invalid = (
        Example(
            code="""\
from browser_use import ActionResult, Tools

tools = Tools()


@tools.action("Ask a human for the one-time password")
async def ask_for_otp(session_id: str):
    response = await otp_service.request(session_id)
    if response is None:
        return ActionResult(is_done=True, error="The OTP service did not answer")
    return ActionResult(extracted_content=response.code)
""",
        ),
        Example(
            code="""\
from browser_use.agent.views import ActionResult


def lookup_failed(name: str) -> ActionResult:
    return ActionResult(error=f"No customer named {name}", is_done=True)
""",
        ),
    )
    valid = (
        Example(
            title="let the agent read the error and recover",
            code="""\
from browser_use import ActionResult, Tools

tools = Tools()


@tools.action("Ask a human for the one-time password")
async def ask_for_otp(session_id: str):
    response = await otp_service.request(session_id)
    if response is None:
        return ActionResult(error="The OTP service did not answer; try again")
    return ActionResult(extracted_content=response.code)
""",
        ),
        Example(
            title="failing fast on purpose, as browser-use's assertion example does",
            code="""\
from browser_use import ActionResult, Tools

tools = Tools()


@tools.action("Assert the page title")
async def assert_title(expected: str, browser_session):
    title = await browser_session.get_current_page_title()
    if title != expected:
        msg = f"Title assertion failed: expected {expected!r}, got {title!r}"
        return ActionResult(is_done=True, success=False, error=msg, long_term_memory=msg)
    return ActionResult(extracted_content=f"Title is {expected!r}")
""",
        ),
        Example(
            title="an error that may be None",
            code="""\
from browser_use import ActionResult


def finish(report: str, warning: str | None) -> ActionResult:
    return ActionResult(is_done=True, extracted_content=report, error=warning)
""",
        ),
    )

    def check(self, context: BrowserUseFile, settings: Settings) -> Iterator[Finding]:
        for result in context.action_results:
            if result.has_star_arguments:
                continue
            done = result.argument("is_done")
            if done is None or done.keyword is None:
                continue
            if not is_literal(result.value_shape("is_done"), True):
                continue
            error = result.value_shape("error")
            if error is None or error.kind is not Kind.STR or is_literal(error, ""):
                continue
            if is_literal(result.value_shape("success"), False):
                continue
            yield Finding(
                node=done.keyword,
                message=(
                    "`is_done=True` next to an `error` ends the run before the agent can "
                    "recover; return `ActionResult(error=...)` alone (or say "
                    "`success=False` if stopping is intended)"
                ),
            )
