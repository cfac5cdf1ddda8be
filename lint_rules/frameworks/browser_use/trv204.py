"""TRV204 browser-use-unknown-action-result-field."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from lint_rules.config import Settings
from lint_rules.frameworks.browser_use.recognition import ActionResultCall, BrowserUseFile
from lint_rules.frameworks.browser_use.results import (
    ACTION_RESULT_FIELDS,
    STR_FIELDS,
    is_certainly_not_str,
    suggested_field,
)
from lint_rules.model import Applicability, Severity
from lint_rules.rules import EditSpec, Example, Finding, FixSpec, Rule


class BrowserUseUnknownActionResultField(Rule):
    """
    ## What it does
    Checks for keyword arguments of `ActionResult(...)` that are not among its
    fields, and names the field that was probably meant.

    ## Why is this bad?
    `ActionResult` does not forbid extra fields, so pydantic silently drops an
    unknown keyword: `ActionResult(data=rows)` or `ActionResult(message="Saved")`
    gives the model an empty result and no error tells you why. The fields of
    browser-use 0.13.14 (`agent/views.py:307-338`) are `is_done`, `success`,
    `judgement`, `error`, `attachments`, `images`, `long_term_memory`,
    `extracted_content`, `include_extracted_content_only_once`, `metadata` and
    `include_in_memory`.

    The suggestion is the field such keywords usually mean (`data`, `message`,
    `content`, `result` → `extracted_content`; `memory` → `long_term_memory`;
    `done` → `is_done`), otherwise the closest spelling.

    ## Fix safety
    The fix renames the keyword to the suggested field:
    `ActionResult(message=text)` becomes `ActionResult(extracted_content=text)`.

    At run time the value stops being dropped: pydantic now stores it and it
    takes effect — the model reads it, or, for `is_done`, the task ends. That is
    the likely intent but a guess from the name, and the value starts to act
    where it never did, so the fix is unsafe and is applied only with
    `--unsafe-fixes`; review it. No fix is offered when the field is already
    passed, or when the value is known not to be a string and the field
    requires one (that rename would raise instead of being ignored).
    ## Options
    - `[tool.toolret.browser-use] extra-action-result-fields`: fields a newer
      browser-use accepts that this list lacks.

    ## References
    - [browser-use: custom tools](https://docs.browser-use.com/)
    """

    code = "TRV204"
    name = "browser-use-unknown-action-result-field"
    severity = Severity.WARNING
    framework = "browser_use"
    fix_applicability = Applicability.UNSAFE
    message = "`ActionResult` keyword that pydantic silently drops"

    invalid = (
        Example(
            code="""\
from browser_use import ActionResult, Tools

tools = Tools()


@tools.action("Read the confirmation banner")
async def read_banner(browser_session):
    page = await browser_session.must_get_current_page()
    text = await page.evaluate("() => document.querySelector('.alert-success')?.innerText")
    return ActionResult(message=text, include_in_memory=True)
""",
            fixed="""\
from browser_use import ActionResult, Tools

tools = Tools()


@tools.action("Read the confirmation banner")
async def read_banner(browser_session):
    page = await browser_session.must_get_current_page()
    text = await page.evaluate("() => document.querySelector('.alert-success')?.innerText")
    return ActionResult(extracted_content=text, include_in_memory=True)
""",
        ),
        Example(
            code="""\
from browser_use.agent.views import ActionResult


def remember(note: str) -> ActionResult:
    return ActionResult(long_term_memroy=note)
""",
            fixed="""\
from browser_use.agent.views import ActionResult


def remember(note: str) -> ActionResult:
    return ActionResult(long_term_memory=note)
""",
        ),
        Example(
            title="no fix: the rename would raise (a dict is not a str)",
            code="""\
from browser_use import ActionResult


def rows_result(rows: list) -> ActionResult:
    return ActionResult(data={"rows": rows})
""",
        ),
    )
    valid = (
        Example(
            code="""\
from browser_use import ActionResult, Tools

tools = Tools()


@tools.action("Read the confirmation banner")
async def read_banner(browser_session):
    page = await browser_session.must_get_current_page()
    text = await page.evaluate("() => document.querySelector('.alert-success')?.innerText")
    return ActionResult(
        extracted_content=text,
        long_term_memory=f"Banner said: {text}",
        metadata={"selector": ".alert-success"},
        include_extracted_content_only_once=True,
    )
""",
        ),
        Example(
            title="another library's ActionResult",
            code="""\
from browser_use import Agent
from langgraph_tools import ActionResult


def to_result(data: dict) -> ActionResult:
    return ActionResult(data=data, message="ok")
""",
        ),
        Example(
            title="a name bound both by an import and a local class is not trusted",
            code="""\
try:
    from browser_use import ActionResult
except ImportError:
    class ActionResult:
        def __init__(self, **fields):
            self.fields = fields


def to_result(text: str) -> "ActionResult":
    return ActionResult(message=text)
""",
        ),
    )

    def check(self, context: BrowserUseFile, settings: Settings) -> Iterator[Finding]:
        extra = settings.browser_use.extra_action_result_fields
        known = frozenset(ACTION_RESULT_FIELDS) | frozenset(extra)
        for result in context.action_results:
            unknown = [
                (arg, suggested_field(keyword, ACTION_RESULT_FIELDS))
                for keyword, arg in result.keywords
                if keyword not in known
            ]
            targets = [suggestion for _, suggestion in unknown]
            for arg, suggestion in unknown:
                assert arg.keyword is not None
                hint = f"; did you mean `{suggestion}`?" if suggestion else ""
                fix = None
                if suggestion is not None and targets.count(suggestion) == 1:
                    fix = _rename(result, arg, suggestion)
                yield Finding(
                    node=arg.keyword,
                    message=(
                        f"`ActionResult` has no field `{arg.keyword.value}`: pydantic silently "
                        f"drops it{hint}"
                    ),
                    fix=fix,
                )


def _rename(result: ActionResultCall, arg: cst.Arg, suggestion: str) -> FixSpec | None:
    assert arg.keyword is not None
    if result.argument(suggestion) is not None:
        return None  # renaming onto a keyword already passed is a SyntaxError
    if suggestion in STR_FIELDS and is_certainly_not_str(result.shape_of(arg.value)):
        return None
    return FixSpec(
        title=f"Rename to `{suggestion}`",
        applicability=Applicability.UNSAFE,
        edits=(EditSpec(arg.keyword, suggestion),),
    )
