"""TRV206 browser-use-done-output-mismatch."""

from __future__ import annotations

from collections.abc import Iterator

from lint_rules.config import Settings
from lint_rules.frameworks.browser_use.recognition import BrowserUseFile
from lint_rules.frameworks.browser_use.results import (
    cannot_be_json,
    is_literal,
    is_object_model,
)
from lint_rules.model import Severity
from lint_rules.rules import Example, Finding, Rule


class BrowserUseDoneOutputMismatch(Rule):
    """
    ## What it does
    Checks custom actions that finish the task (`ActionResult(is_done=True,
    ...)`) for an agent with a structured output model — `Agent(...,
    output_model_schema=M)` or `Tools(output_model=M)` — when the action's
    `extracted_content` certainly cannot be JSON of the model: a plain
    sentence, an f-string such as `f"Saved {n} rows"` (its text before the
    first placeholder cannot start JSON), or — when the model is a pydantic
    model of the same file, whose JSON is an object and so ends in `}` — an
    f-string whose text after the last placeholder does not end in `}`
    (`f"{n} rows saved."`).

    ## Why is this bad?
    The last result's `extracted_content` is the agent's final result, and
    `history.structured_output` parses it with `M.model_validate_json(...)`
    (browser-use 0.13.14, `agent/views.py:914-925`). Text that is not JSON
    raises `ValidationError: Invalid JSON` in the code that reads the agent's
    answer, after the whole run. Return `json.dumps(...)` of the data, or
    `M(...).model_dump_json()`.

    The action must certainly belong to that agent: its decorator's `Tools` is
    the one built with `output_model=M`, or the one passed as `tools=` /
    `controller=` to the `Agent(..., output_model_schema=M)` in the same file.
    A missing `extracted_content` is not reported (`structured_output` is then
    `None`, not an error), nor is anything whose text is not known:
    `f"{json.dumps(data)}"` (nothing after the placeholder), text with a
    backslash escape after it, a `RootModel` or an imported model (its JSON
    need not be an object).

    ## Known problems
    Only agents built in the same file are seen for now; whole-project mode
    will also find them in other files.

    ## References
    - [browser-use: structured output](https://docs.browser-use.com/)
    """

    code = "TRV206"
    name = "browser-use-done-output-mismatch"
    severity = Severity.WARNING
    framework = "browser_use"
    message = "Task-finishing action's content is not JSON of the agent's output model"

    invalid = (
        Example(
            code="""\
from pydantic import BaseModel

from browser_use import ActionResult, Agent, Tools


class Flights(BaseModel):
    prices: list[float]


tools = Tools()


@tools.action("Save the flight prices and finish")
def save_prices(prices: list[float]):
    with open("prices.csv", "w") as f:
        f.write(",".join(map(str, prices)))
    return ActionResult(is_done=True, extracted_content=f"Saved {len(prices)} prices")


async def main(llm):
    agent = Agent(task="Find flights", llm=llm, tools=tools, output_model_schema=Flights)
    history = await agent.run()
    return history.structured_output
""",
        ),
        Example(
            code="""\
from pydantic import BaseModel

from browser_use import ActionResult, Controller


class Report(BaseModel):
    title: str


controller = Controller(output_model=Report)
registry = controller.registry


@registry.action("Finish when the page has no report")
async def no_report():
    message = "No report found"
    return ActionResult(is_done=True, success=False, extracted_content=message)
""",
        ),
        Example(
            title="text after the last placeholder: an object's JSON ends in `}`",
            code="""\
import json
from pathlib import Path

from pydantic import BaseModel

from browser_use import ActionResult, Agent, Tools


class Listings(BaseModel):
    urls: list[str]


tools = Tools()


@tools.action("Save the listings and finish")
async def save_listings(urls: list[str]):
    path = Path("listings.json")
    path.write_text(json.dumps(urls))
    return ActionResult(is_done=True, extracted_content=f"{len(urls)} listings saved to {path}.")


async def main(llm):
    agent = Agent(task="Collect listings", llm=llm, tools=tools, output_model_schema=Listings)
    return (await agent.run()).structured_output
""",
        ),
    )
    valid = (
        Example(
            code="""\
import json

from pydantic import BaseModel

from browser_use import ActionResult, Agent, Tools


class Flights(BaseModel):
    prices: list[float]


tools = Tools()


@tools.action("Save the flight prices and finish")
def save_prices(prices: list[float]):
    with open("prices.csv", "w") as f:
        f.write(",".join(map(str, prices)))
    return ActionResult(is_done=True, extracted_content=json.dumps({"prices": prices}))


async def main(llm):
    agent = Agent(task="Find flights", llm=llm, tools=tools, output_model_schema=Flights)
    history = await agent.run()
    return history.structured_output
""",
        ),
        Example(
            title="an agent without an output model",
            code="""\
from browser_use import ActionResult, Controller

controller = Controller()


@controller.registry.action("Send the summary by e-mail and finish")
async def done(text: str):
    mailer.send(to="team@example.com", body=text)
    return ActionResult(is_done=True, extracted_content="Email sent!")
""",
        ),
        Example(
            title="the structured agent does not use these tools",
            code="""\
from pydantic import BaseModel

from browser_use import ActionResult, Agent, Tools


class Flights(BaseModel):
    prices: list[float]


tools = Tools()


@tools.action("Finish")
def finish():
    return ActionResult(is_done=True, extracted_content="Finished")


async def main(llm):
    plain = Agent(task="Browse", llm=llm, tools=tools)
    structured = Agent(task="Find flights", llm=llm, output_model_schema=Flights)
    return plain, structured
""",
        ),
        Example(
            title="text that may be JSON",
            code="""\
from pydantic import BaseModel

from browser_use import ActionResult, Tools


class Flights(BaseModel):
    prices: list[float]


tools = Tools(output_model=Flights)


@tools.action("Finish with the prices")
def finish(prices: list[float], raw: str):
    if not prices:
        return ActionResult(is_done=True, extracted_content='{"prices": []}')
    return ActionResult(is_done=True, extracted_content=raw)
""",
        ),
        Example(
            title="JSON built in an f-string, and a RootModel whose JSON is a list",
            code="""\
import json

from pydantic import BaseModel, RootModel

from browser_use import ActionResult, Tools


class Listings(BaseModel):
    urls: list[str]


class Prices(RootModel[list[float]]):
    pass


listing_tools = Tools(output_model=Listings)
price_tools = Tools(output_model=Prices)


@listing_tools.action("Finish with the listings")
def finish_listings(urls: list[str]):
    return ActionResult(is_done=True, extracted_content=f'{{"urls": {json.dumps(urls)}}}')


@listing_tools.action("Finish with the listings as given")
def finish_raw(urls_json: str):
    return ActionResult(is_done=True, extracted_content=f"{urls_json}\\n")


@price_tools.action("Finish with the prices")
def finish_prices(prices: list[float]):
    return ActionResult(is_done=True, extracted_content=f"[{', '.join(map(str, prices))}]")
""",
        ),
    )

    def check(self, context: BrowserUseFile, settings: Settings) -> Iterator[Finding]:
        if not context.output_models:
            return
        for result in context.action_results:
            action = result.action
            if action is None or result.has_star_arguments:
                continue
            done = result.argument("is_done")
            if done is None or done.keyword is None:
                continue
            if not is_literal(result.value_shape("is_done"), True):
                continue
            content = result.argument("extracted_content")
            if content is None:
                continue
            model = context.output_model_for(action)
            if model is None:
                continue
            an_object = is_object_model(context.module, model.model)
            if not cannot_be_json(
                content.value, result.shape_of(content.value), an_object=an_object
            ):
                continue
            yield Finding(
                node=done.keyword,
                message=(
                    f"Action `{action.name}` finishes the task with text that cannot be JSON "
                    f"of the agent's output model `{model.model}`: "
                    "`history.structured_output` raises `ValidationError`; return "
                    "`json.dumps(...)` or `.model_dump_json()`"
                ),
            )
