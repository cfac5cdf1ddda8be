"""TRV208 browser-use-empty-result."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from lint_rules.analysis.shapes import Kind, Shape
from lint_rules.config import Settings
from lint_rules.frameworks.browser_use.recognition import ACTION_RESULT, BrowserUseFile
from lint_rules.frameworks.browser_use.results import ACTION_RESULT_FIELDS, CONTENT_FIELDS
from lint_rules.model import Severity
from lint_rules.rules import Example, Finding, Rule


class BrowserUseEmptyResult(Rule):
    """
    ## What it does
    Checks for browser-use actions that give the model nothing to read: a bare
    `return`, `return None`, falling off the end of the function, or returning
    `ActionResult()` without any content (`extracted_content`,
    `long_term_memory`, `error`, `images`, `attachments`, `judgement`) and
    without `is_done`/`success`.

    ## Why is this bad?
    browser-use turns `None` into an empty `ActionResult()` (browser-use
    0.13.14, `tools/service.py:2262`), and the agent's memory shows only the
    action's name: the model cannot tell whether the action worked, what it
    found, or why it did nothing, and often calls it again. Returning a short
    sentence ("Saved 5 models to models.txt") costs nothing.

    It is legal and sometimes intended, so this rule is off by default: enable
    it with `--select TRV208` to find actions that stay silent. Only action
    return sites are checked: an empty `ActionResult()` built elsewhere, such
    as in a dispatcher, is not reported.

    ## References
    - [browser-use: custom tools](https://docs.browser-use.com/)
    """

    code = "TRV208"
    name = "browser-use-empty-result"
    severity = Severity.INFO
    framework = "browser_use"
    message = "browser-use action returns nothing for the model to read"

    invalid = (
        Example(
            code="""\
from pydantic import BaseModel

from browser_use import Controller

controller = Controller()


class Models(BaseModel):
    names: list[str]


@controller.action("Save models", param_model=Models)
def save_models(params: Models):
    with open("models.txt", "a") as f:
        for name in params.names:
            f.write(name + "\\n")
""",
        ),
        Example(
            code="""\
from browser_use import ActionResult, Tools

tools = Tools()


@tools.action("Dismiss the newsletter pop-up")
async def dismiss_popup(browser_session):
    page = await browser_session.must_get_current_page()
    close = await page.get_elements_by_css_selector(".newsletter .close")
    if not close:
        return
    await close[0].click()
    return ActionResult(include_in_memory=True)
""",
        ),
    )
    valid = (
        Example(
            code="""\
from pydantic import BaseModel

from browser_use import Controller

controller = Controller()


class Models(BaseModel):
    names: list[str]


@controller.action("Save models", param_model=Models)
def save_models(params: Models):
    with open("models.txt", "a") as f:
        for name in params.names:
            f.write(name + "\\n")
    return f"Saved {len(params.names)} models to models.txt"
""",
        ),
        Example(
            title="an empty result built outside an action",
            code="""\
from browser_use import ActionResult


def result_for(value) -> ActionResult:
    if value is None:
        return ActionResult()
    return ActionResult(extracted_content=str(value))
""",
        ),
        Example(
            title="an action that always raises or returns content",
            code="""\
from browser_use import ActionResult, Tools

tools = Tools()


@tools.action("Solve the captcha")
async def solve_captcha(browser_session):
    solution = await solver.solve(browser_session)
    if not solution:
        raise ValueError("Captcha could not be solved")
    return ActionResult(extracted_content=solution)
""",
        ),
    )

    def check(self, context: BrowserUseFile, settings: Settings) -> Iterator[Finding]:
        known = frozenset(ACTION_RESULT_FIELDS) | frozenset(
            settings.browser_use.extra_action_result_fields
        )
        for action in context.actions:
            for site, node, shape in action.returned:
                if site.is_fall_through:
                    yield Finding(
                        node=action.node.name,
                        message=(
                            f"Action `{action.name}` ends without returning anything: the "
                            "model gets an empty result; return a short `str` saying what "
                            "happened"
                        ),
                    )
                elif node is None or (shape.kind is Kind.NONE and shape.has_literal):
                    target: cst.CSTNode
                    if node is not None:
                        target = node
                    else:
                        assert site.statement is not None  # not a fall-through
                        target = site.statement
                    yield Finding(
                        node=target,
                        message=(
                            f"Action `{action.name}` returns `None`: the model gets an empty "
                            "result; return a short `str` saying what happened"
                        ),
                    )
                elif node is not None and _is_empty_result(shape, known):
                    yield Finding(
                        node=node,
                        message=(
                            f"Action `{action.name}` returns an `ActionResult` without "
                            "content: the model learns nothing; set `extracted_content` or "
                            "`long_term_memory`"
                        ),
                    )


def _is_empty_result(shape: Shape, known: frozenset[str]) -> bool:
    if shape.kind is not Kind.INSTANCE or shape.type_name != ACTION_RESULT:
        return False
    if shape.positional or shape.has_star_arguments:
        return False
    for keyword, arg in shape.arguments:
        if keyword not in known:
            return False  # an unknown keyword is TRV204's mistake, not this one
        given = not (isinstance(arg.value, cst.Name) and arg.value.value == "None")
        if given and (keyword in CONTENT_FIELDS or keyword in ("is_done", "success")):
            return False
    return True
