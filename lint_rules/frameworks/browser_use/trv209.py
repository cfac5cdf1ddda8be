"""TRV209 browser-use-action-kwargs."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from lint_rules.config import Settings
from lint_rules.frameworks.browser_use.recognition import BrowserUseFile
from lint_rules.model import Severity
from lint_rules.rules import Example, Finding, Rule


class BrowserUseActionKwargs(Rule):
    """
    ## What it does
    Checks for browser-use actions whose signature has a `**kwargs` parameter.

    ## Why is this bad?
    browser-use builds each action's parameter model from its signature and
    refuses a variable keyword parameter: the decorator raises `ValueError:
    Action '...' has **kwargs which is not allowed. Actions must have explicit
    positional parameters only.` when the module is imported (browser-use
    0.13.14, `tools/registry/service.py:94-99`), so no agent using these tools
    can even be built. Declare the parameters the model should fill, or a
    `param_model=` with defaults. `*args` is accepted and not reported.

    ## References
    - [browser-use: custom tools](https://docs.browser-use.com/)
    """

    code = "TRV209"
    name = "browser-use-action-kwargs"
    severity = Severity.ERROR
    framework = "browser_use"
    message = "browser-use action declares `**kwargs`"

    invalid = (
        Example(
            code="""\
from browser_use import Tools

tools = Tools()


@tools.action("Search the internal wiki")
async def search_wiki(query: str, **kwargs):
    results = await wiki.search(query, limit=kwargs.get("limit", 5))
    return "\\n".join(r.title for r in results)
""",
        ),
        Example(
            code="""\
from browser_use import Controller

controller = Controller()


@controller.registry.action("Fill the shipping form")
def fill_shipping(browser_session, **fields):
    return f"Filled {len(fields)} fields"
""",
        ),
    )
    valid = (
        Example(
            code="""\
from browser_use import Tools

tools = Tools()


@tools.action("Search the internal wiki")
async def search_wiki(query: str, limit: int = 5):
    results = await wiki.search(query, limit=limit)
    return "\\n".join(r.title for r in results)
""",
        ),
        Example(
            title="helpers called by actions may take **kwargs",
            code="""\
from browser_use import Tools

tools = Tools()


def log_event(name: str, **details) -> None:
    print(name, details)


@tools.action("Open the settings page")
async def open_settings(browser_session):
    log_event("open_settings", tab="settings")
    return "Opened settings"
""",
        ),
        Example(
            title="another library's action decorator",
            code="""\
import typer
from browser_use import Agent

app = typer.Typer()


@app.action("export")
def export(**options):
    return options
""",
        ),
    )

    def check(self, context: BrowserUseFile, settings: Settings) -> Iterator[Finding]:
        for action in context.actions:
            star = action.node.params.star_kwarg
            if isinstance(star, cst.Param):
                yield Finding(
                    node=star,
                    message=(
                        f"Action `{action.name}` declares `**{star.name.value}`: browser-use "
                        "raises `ValueError` when it registers the action"
                    ),
                )
