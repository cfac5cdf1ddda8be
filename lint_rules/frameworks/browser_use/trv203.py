"""TRV203 browser-use-positional-action-result."""

from __future__ import annotations

from collections.abc import Iterator

from lint_rules.config import Settings
from lint_rules.frameworks.browser_use.recognition import BrowserUseFile
from lint_rules.model import Severity
from lint_rules.rules import Example, Finding, Rule


class BrowserUsePositionalActionResult(Rule):
    """
    ## What it does
    Checks for `ActionResult(...)` calls with positional arguments, such as
    `ActionResult("Saved the report")`.

    ## Why is this bad?
    `ActionResult` is a pydantic model: its fields are keyword-only and
    `BaseModel.__init__` raises `TypeError: BaseModel.__init__() takes 1
    positional argument but 2 were given`. The action fails at the line that
    was meant to report its result, after its side effects ran, and the model
    receives that error instead of the result. Name the field, usually
    `extracted_content=` (or return the string itself: browser-use wraps a
    returned `str` for you).

    ## References
    - [browser-use: custom tools](https://docs.browser-use.com/)
    """

    code = "TRV203"
    name = "browser-use-positional-action-result"
    severity = Severity.ERROR
    framework = "browser_use"
    message = "`ActionResult` takes keyword arguments only"

    invalid = (
        Example(
            code="""\
from browser_use import ActionResult, Tools

tools = Tools()


@tools.action("Save the page title to a file")
async def save_title(browser_session):
    title = await browser_session.get_current_page_title()
    with open("titles.txt", "a") as f:
        f.write(title + "\\n")
    return ActionResult(f"Saved title: {title}")
""",
        ),
        Example(
            code="""\
from browser_use.agent.views import ActionResult


def failed(message: str) -> ActionResult:
    return ActionResult(None, message)
""",
        ),
    )
    valid = (
        Example(
            code="""\
from browser_use import ActionResult, Tools

tools = Tools()


@tools.action("Save the page title to a file")
async def save_title(browser_session):
    title = await browser_session.get_current_page_title()
    with open("titles.txt", "a") as f:
        f.write(title + "\\n")
    return ActionResult(extracted_content=f"Saved title: {title}")
""",
        ),
        Example(
            title="arguments unpacked from a dict",
            code="""\
from browser_use import ActionResult


def from_payload(payload: dict) -> ActionResult:
    return ActionResult(**payload)
""",
        ),
        Example(
            title="a locally defined ActionResult",
            code="""\
from browser_use import Tools


class ActionResult:
    def __init__(self, message: str) -> None:
        self.message = message


def report() -> ActionResult:
    return ActionResult("done")
""",
        ),
    )

    def check(self, context: BrowserUseFile, settings: Settings) -> Iterator[Finding]:
        for result in context.action_results:
            if not result.positional:
                continue
            count = len(result.positional)
            yield Finding(
                node=result.call,
                message=(
                    f"`ActionResult` takes keyword arguments only; {count} positional "
                    f"argument{'s' if count > 1 else ''} raise{'' if count > 1 else 's'} "
                    "`TypeError` (name the field, e.g. `extracted_content=`)"
                ),
            )
