# toolret example: code that looks like browser-use but is not checked: a local
# ActionResult class, another library's ActionResult, `.action` decorators that are not
# browser-use's, and a function that is not an action. Expected: nothing.
from django.contrib import admin

from browser_use import Agent
from workflow_engine.results import ActionResult as StepResult


class ActionResult:
    """This project's own result type, unrelated to browser-use's."""

    def __init__(self, *args, **fields):
        self.args = args
        self.fields = fields


class ActionRegistry:
    """A tiny command registry of this project (no relation to browser-use's Tools)."""

    def __init__(self):
        self.commands = {}

    def action(self, name):
        def register(fn):
            self.commands[name] = fn
            return fn

        return register


commands = ActionRegistry()


def local_result() -> ActionResult:
    return ActionResult("done", success=True, data={"rows": 3})


def step_result(rows: list) -> StepResult:
    return StepResult(len(rows), data=rows, success=True)


@admin.action(description="Mark the selected listings as tracked")
def mark_tracked(modeladmin, request, queryset):
    queryset.update(tracked=True)


@commands.action("export")
def export(path: str, **options):
    return len(options)


def run_agent(task: str, llm) -> int:
    agent = Agent(task=task, llm=llm)
    return len(agent.task)
