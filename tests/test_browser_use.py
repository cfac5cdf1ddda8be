"""browser-use (TRV2xx): recognition through imports, and the negatives the issue requires.

Realistic browser-use code in, exact diagnostics (code, row, column) out. The rules'
own examples (tests/test_rule_examples.py) cover each rule; these tests cover what is
*not* browser-use, what cannot be known, and the ways real projects import and register.
"""

from __future__ import annotations

import textwrap

import pytest

from lint_rules.config import Settings
from lint_rules.engine import check_source, describe_tool_functions
from lint_rules.fixes import apply_fixes, fixes_to_apply
from lint_rules.model import Diagnostic

Found = list[tuple[str, int, int]]


def diagnostics(source: str, select: str = "TRV2", **overrides: object) -> list[Diagnostic]:
    settings = Settings().with_overrides(select=[select], **overrides)
    return check_source(textwrap.dedent(source), "agent_tools.py", settings)


def found(source: str, select: str = "TRV2") -> Found:
    return [(d.code, d.location.row, d.location.column) for d in diagnostics(source, select)]


# ------------------------------------------------------- ActionResult through imports


@pytest.mark.parametrize(
    "imports, name",
    [
        ("from browser_use import ActionResult", "ActionResult"),
        ("from browser_use.agent.views import ActionResult", "ActionResult"),
        ("from browser_use.agent.views import ActionResult as Result", "Result"),
        ("from browser_use import ActionResult as AR", "AR"),
        ("import browser_use", "browser_use.ActionResult"),
        ("import browser_use as bu", "bu.ActionResult"),
        ("from browser_use.agent import views", "views.ActionResult"),
        ("import browser_use.agent.views as views", "views.ActionResult"),
    ],
)
def test_action_result_is_recognised_through_every_import_form(imports: str, name: str) -> None:
    source = f"""\
{imports}


def ok(message: str):
    return {name}(message, success=True, data=message)
"""
    codes = {code for code, _, _ in found(source)}
    assert codes == {"TRV202", "TRV203", "TRV204"}


ANOTHER_LIBRARYS = """\
from browser_use import Agent
from workflow_engine.results import ActionResult


def step(rows: list):
    return ActionResult(len(rows), data=rows, success=True, extracted_content=3)
"""

LOCALLY_DEFINED = """\
from browser_use import Agent


class ActionResult:
    def __init__(self, *args, **fields):
        self.args, self.fields = args, fields


def step(rows: list):
    return ActionResult(len(rows), data=rows, success=True, extracted_content=3)
"""

SHADOWED_BY_A_FALLBACK = """\
try:
    from browser_use import ActionResult
except ImportError:
    class ActionResult:
        def __init__(self, *args, **fields):
            self.fields = fields


def step(rows: list):
    return ActionResult(len(rows), data=rows, success=True, extracted_content=3)
"""

REBOUND_INSIDE_THE_FUNCTION = """\
from browser_use import ActionResult


def step(rows: list):
    from workflow_engine.results import ActionResult
    return ActionResult(len(rows), data=rows, success=True, extracted_content=3)
"""

NO_IMPORT_AT_ALL = """\
def step(rows: list):
    return ActionResult(len(rows), data=rows, success=True, extracted_content=3)
"""


@pytest.mark.parametrize(
    "source",
    [
        ANOTHER_LIBRARYS,
        LOCALLY_DEFINED,
        SHADOWED_BY_A_FALLBACK,
        REBOUND_INSIDE_THE_FUNCTION,
        NO_IMPORT_AT_ALL,
    ],
    ids=["another-library", "local-class", "shadowed", "rebound-locally", "no-import"],
)
def test_an_action_result_that_is_not_browser_uses_is_never_checked(source: str) -> None:
    assert found(source) == []


# ----------------------------------------------------------------- action recognition


def test_controller_is_tools_and_both_decorator_forms_register_actions() -> None:
    source = """\
    from browser_use import Controller
    from browser_use.tools.service import Tools

    controller = Controller()
    tools = Tools()
    registry = tools.registry


    @controller.action("a")
    def a():
        return 1


    @controller.registry.action("b")
    def b():
        return 2


    @tools.action("c")
    def c():
        return 3


    @registry.action(description="d")
    async def d():
        return 4
    """
    assert found(source) == [
        ("TRV201", 11, 12),
        ("TRV201", 16, 12),
        ("TRV201", 21, 12),
        ("TRV201", 26, 12),
    ]


def test_old_controller_module_path_is_browser_use_too() -> None:
    source = """\
    from browser_use.controller.service import Controller

    controller = Controller()


    @controller.action("Save models")
    def save_models(count: int):
        return count
    """
    assert found(source) == [("TRV201", 8, 12)]


def test_actions_registered_inside_a_factory_and_inside_a_method() -> None:
    source = """\
    from browser_use import Controller, Tools


    async def create_controller() -> Controller:
        controller = Controller()

        @controller.registry.action("Drag and drop")
        async def drag_drop(source: int, target: int):
            async def execute(x: int, y: int) -> tuple[bool, str]:
                return True, "moved"  # the helper's return, not the action's

            ok, message = await execute(source, target)
            return len(message)

        return controller


    class ShopTools(Tools):
        def __init__(self):
            super().__init__()

            @self.registry.action("Count results")
            async def count_results(rows: list):
                return len(rows)
    """
    assert found(source) == [("TRV201", 13, 16), ("TRV201", 24, 20)]


def test_no_browser_use_import_means_no_actions() -> None:
    source = """\
    from my_agents import Tools

    tools = Tools()


    @tools.action("Count")
    def count(rows: list, **kwargs):
        return len(rows)
    """
    assert found(source) == []


def test_other_libraries_action_decorators_are_not_actions() -> None:
    source = """\
    from django.contrib import admin

    from browser_use import Agent
    from my_project.registry import CommandRegistry


    class Commands:
        def action(self, name):
            return lambda fn: fn


    commands = Commands()
    registry = CommandRegistry()


    @admin.action(description="Mark as tracked")
    def mark_tracked(modeladmin, request, queryset):
        queryset.update(tracked=True)


    @commands.action("export")
    def export(**options):
        return len(options)


    @registry.action("import")
    def import_rows(**options):
        return len(options)
    """
    assert found(source) == []


def test_an_imported_registry_is_trusted() -> None:
    source = """\
    from browser_use import ActionResult
    from .agent_setup import tools


    @tools.action("Count")
    def count(rows: list, **kwargs):
        return len(rows)
    """
    assert found(source) == [("TRV209", 6, 23), ("TRV201", 7, 12)]


def test_describe_lists_actions_with_the_reason() -> None:
    source = textwrap.dedent(
        """\
        from browser_use import Tools

        tools = Tools()


        @tools.registry.action("Save")
        def save(text: str):
            return "saved"


        def helper():
            return 1
        """
    )
    reports = describe_tool_functions(source, "agent_tools.py")
    assert [(r.framework, r.name, r.row, r.is_tool) for r in reports] == [
        ("browser-use", "save", 7, True)
    ]
    assert "`@tools.registry.action(...)`" in reports[0].reason


# ------------------------------------------------------------------ what is not known


def test_returns_inside_nested_helpers_belong_to_the_helpers() -> None:
    source = """\
    from browser_use import ActionResult, Tools

    tools = Tools()


    @tools.action("Compare prices")
    def compare(ours: float, theirs: float):
        def percent(a: float, b: float) -> float:
            return (a - b) / b * 100

        ranked = sorted([ours, theirs], key=lambda p: -p)
        return ActionResult(extracted_content=f"{percent(ours, theirs):.1f}% ({ranked})")
    """
    assert found(source) == []


@pytest.mark.parametrize(
    "body",
    [
        "return response.json()",
        "return inventory.count(sku)",
        "return round(price, 2)",
        "value = 3\n    value = lookup(sku)\n    return value",
        "rows = fetch(sku)\n    rows.append(sku)\n    return rows if flag else 'none'",
        "value = []\n    value = lookup(sku)\n    return value",
        "return ActionResult(extracted_content=inventory.count(sku))",
        "return ActionResult(**payload)",
        "return ActionResult(success=flag, is_done=done)",
    ],
)
def test_values_whose_type_cannot_be_inferred_are_not_reported(body: str) -> None:
    source = f"""\
from browser_use import ActionResult, Tools

tools = Tools()


@tools.action("Look up")
def look_up(sku: str, price, response, flag, done, payload):
    {body}
"""
    assert found(source) == []


def test_an_action_returning_none_on_purpose_is_only_trv208_and_off_by_default() -> None:
    source = """\
    from browser_use import ActionResult, Tools

    tools = Tools()


    @tools.action("Dismiss the cookie banner")
    async def dismiss(browser_session):
        page = await browser_session.must_get_current_page()
        buttons = await page.get_elements_by_css_selector("#accept")
        if not buttons:
            return None
        await buttons[0].click()
    """
    assert found(source) == [("TRV208", 7, 11), ("TRV208", 11, 16)]
    assert check_source(textwrap.dedent(source), "agent_tools.py") == []  # off by default
    assert found(source, select="TRV208") == [("TRV208", 7, 11), ("TRV208", 11, 16)]


def test_an_action_that_always_raises_or_is_a_generator_has_no_empty_result() -> None:
    source = """\
    from browser_use import Tools

    tools = Tools()


    @tools.action("Solve")
    def solve(code: str):
        if code:
            return code
        raise ValueError("no code")


    @tools.action("Stream")
    def stream(items: list):
        yield from items
    """
    assert found(source) == []


def test_arguments_inside_lambdas_and_comprehensions_are_not_guessed_at() -> None:
    source = """\
    from browser_use import ActionResult

    count = 3


    def results(counts: list):
        makers = [lambda count: ActionResult(extracted_content=count)]
        return [ActionResult(extracted_content=count) for count in counts], makers
    """
    assert found(source) == []


def test_a_local_passed_to_action_result_keeps_its_type() -> None:
    source = """\
    from browser_use import ActionResult


    def counted(rows: list):
        count = len(rows)
        return ActionResult(extracted_content=count, long_term_memory=f"{count} rows")
    """
    assert found(source) == [("TRV205", 6, 25)]


def test_bytes_and_none_are_accepted_text() -> None:
    source = """\
    from browser_use import ActionResult


    def raw(body: bytes):
        return ActionResult(extracted_content=body, error=None, long_term_memory=b"ok")
    """
    assert found(source) == []


# --------------------------------------------------------------------------- TRV202/207


@pytest.mark.parametrize(
    "arguments, expected",
    [
        ("success=True", ["TRV202"]),
        ("success=True, is_done=False", ["TRV202"]),
        ("success=True, is_done=None", ["TRV202"]),
        ("success=True, is_done=True", []),
        ("success=1", []),
        ("success=False", []),
        ("is_done=True, error='Login failed'", ["TRV207"]),
        ("is_done=True, success=False, error='Login failed'", []),
        ("is_done=True, error=''", []),
        ("is_done=True, error=None", []),
        ("is_done=False, error='Login failed'", []),
    ],
)
def test_success_and_done_combinations(arguments: str, expected: list[str]) -> None:
    source = f"""\
from browser_use import ActionResult


def result():
    return ActionResult({arguments})
"""
    assert [code for code, _, _ in found(source)] == expected


# ------------------------------------------------------------------------------ TRV204


def _fixed(source: str) -> str:
    text = textwrap.dedent(source)
    found_ = diagnostics(source)
    return apply_fixes(text, fixes_to_apply(found_, unsafe=True))[0]


def test_unknown_field_suggestions_and_fix_safety() -> None:
    source = """\
    from browser_use import ActionResult


    def results(text: str, rows: list):
        a = ActionResult(data=text)
        b = ActionResult(data={"rows": rows})
        c = ActionResult(message=text, extracted_content=text)
        d = ActionResult(data=text, message=text)
        e = ActionResult(long_term_memroy=text, includ_in_memory=True)
        f = ActionResult(xyzzy=1)
        return a, b, c, d, e, f
    """
    messages = [(d.location.row, d.message, d.fix is not None) for d in diagnostics(source)]
    assert messages == [
        (5, "`ActionResult` has no field `data`: pydantic silently drops it; "
            "did you mean `extracted_content`?", True),
        (6, "`ActionResult` has no field `data`: pydantic silently drops it; "
            "did you mean `extracted_content`?", False),  # a dict: the rename would raise
        (7, "`ActionResult` has no field `message`: pydantic silently drops it; "
            "did you mean `extracted_content`?", False),  # already passed
        (8, "`ActionResult` has no field `data`: pydantic silently drops it; "
            "did you mean `extracted_content`?", False),  # two keywords, one field
        (8, "`ActionResult` has no field `message`: pydantic silently drops it; "
            "did you mean `extracted_content`?", False),
        (9, "`ActionResult` has no field `long_term_memroy`: pydantic silently drops it; "
            "did you mean `long_term_memory`?", True),
        (9, "`ActionResult` has no field `includ_in_memory`: pydantic silently drops it; "
            "did you mean `include_in_memory`?", True),
        (10, "`ActionResult` has no field `xyzzy`: pydantic silently drops it", False),
    ]  # fmt: skip
    fixed = _fixed(source)
    assert "a = ActionResult(extracted_content=text)" in fixed
    assert "e = ActionResult(long_term_memory=text, include_in_memory=True)" in fixed


def test_extra_fields_from_settings_are_accepted() -> None:
    source = """\
    from browser_use import ActionResult


    def result(text: str):
        return ActionResult(extracted_content=text, trace_id="abc")
    """
    assert found(source) != []
    overrides = {"browser_use": {"extra_action_result_fields": ["trace_id"]}}
    settings = Settings.from_mapping(overrides).with_overrides(select=["TRV2"])
    assert check_source(textwrap.dedent(source), "agent_tools.py", settings) == []


# ------------------------------------------------------------------------------ TRV206


STRUCTURED = """\
from pydantic import BaseModel

from browser_use import ActionResult, Agent, Tools


class Report(BaseModel):
    title: str


{tools}


@tools.action("Finish")
def finish(title: str):
    return ActionResult(is_done=True, extracted_content={content})


{main}
"""


@pytest.mark.parametrize(
    "tools, content, main, expected",
    [
        ("tools = Tools(output_model=Report)", '"No report"', "", True),
        ("tools = Tools(output_model=Report)", 'f"Report: {title}"', "", True),
        ("tools = Tools(output_model=Report)", 'f"{title}"', "", False),
        ("tools = Tools(output_model=Report)", '\'{"title": "x"}\'', "", False),
        ("tools = Tools(output_model=None)", '"No report"', "", False),
        ("tools = Tools()", '"No report"', "", False),
        (
            "tools = Tools()",
            '"No report"',
            "agent = Agent(task='t', llm=None, tools=tools, output_model_schema=Report)",
            True,
        ),
        (
            "tools = Tools()",
            '"No report"',
            "agent = Agent(task='t', llm=None, controller=tools, output_model_schema=Report)",
            True,
        ),
        (
            "tools = Tools()",
            '"No report"',
            "agent = Agent(task='t', llm=None, output_model_schema=Report)",
            False,
        ),
        (
            "tools = Tools()",
            '"No report"',
            "def main():\n    tools = Tools()\n"
            "    return Agent(task='t', llm=None, tools=tools, output_model_schema=Report)",
            False,
        ),
    ],
)
def test_done_output_needs_the_agent_that_uses_the_action(
    tools: str, content: str, main: str, expected: bool
) -> None:
    source = STRUCTURED.format(tools=tools, content=content, main=main)
    codes = [code for code, _, _ in found(source)]
    assert codes == (["TRV206"] if expected else [])


@pytest.mark.parametrize(
    "content, expected",
    [
        # An object's JSON ends in `}`: text after the last placeholder must too.
        ('f"Done: {title}."', True),
        ('f"{title} saved"', True),
        ('f"{title:>20} (draft)"', True),
        ('f"{title!r} saved"', True),
        ("f\"{json.dumps({'title': title})}\"", False),
        ('f"{title}"', False),
        ('f"{title}\\n"', False),  # an escape: not evaluated, decides nothing
        ('f"{title}  "', False),  # JSON may end in whitespace
        ('f\'{{"title": "{title}"}}\'', False),
        ('f\'{{"title": "{title}"}} \'', False),
        ('f"{title}}}"', False),
        ('f"{title}" "."', False),  # implicit concatenation: not judged
    ],
)
def test_done_output_judged_by_the_text_after_the_last_placeholder(
    content: str, expected: bool
) -> None:
    source = "import json\n" + STRUCTURED.format(
        tools="tools = Tools(output_model=Report)", content=content, main=""
    )
    codes = [code for code, _, _ in found(source)]
    assert codes == (["TRV206"] if expected else [])


@pytest.mark.parametrize(
    "model",
    [
        # A RootModel's JSON need not be an object.
        "class Report(RootModel[list[str]]):\n    pass",
        "class Base(RootModel[str]):\n    pass\n\n\nclass Report(Base):\n    pass",
        # A model whose base is not certainly a plain BaseModel.
        "class Report(SomeMixin, BaseModel):\n    title: str",
        # Imported from elsewhere: its JSON is not known here.
        "from .models import Report",
    ],
)
def test_only_a_model_certainly_serialised_as_an_object_is_judged_by_its_end(
    model: str,
) -> None:
    source = f"""\
from pydantic import BaseModel, RootModel

from browser_use import ActionResult, Tools

from .mixins import SomeMixin

{model}


tools = Tools(output_model=Report)


@tools.action("Finish")
def finish(title: str):
    return ActionResult(is_done=True, extracted_content=f"{{title}} saved")
"""
    assert found(source) == []


def test_a_model_of_a_model_is_an_object_too() -> None:
    source = """\
    from pydantic import BaseModel

    from browser_use import ActionResult, Tools


    class Base(BaseModel):
        title: str


    class Report(Base):
        pages: int


    tools = Tools(output_model=Report)


    @tools.action("Finish")
    def finish(title: str):
        return ActionResult(is_done=True, extracted_content=f"{title} saved")
    """
    assert [code for code, _, _ in found(source)] == ["TRV206"]


def test_done_output_in_a_helper_of_the_action_is_not_reported() -> None:
    source = """\
    from pydantic import BaseModel

    from browser_use import ActionResult, Tools


    class Report(BaseModel):
        title: str


    tools = Tools(output_model=Report)


    @tools.action("Finish")
    def finish(title: str):
        def done(text: str):
            return ActionResult(is_done=True, extracted_content="Finished")

        return done(title)
    """
    assert found(source) == []


# ------------------------------------------------------------------------------ TRV209


def test_kwargs_is_reported_on_the_parameter_and_args_is_fine() -> None:
    source = """\
    from browser_use import Tools

    tools = Tools()


    @tools.action("Search")
    async def search(query: str, *terms, **options):
        return query


    @tools.action("Search more")
    async def search_more(query: str, *terms):
        return query
    """
    found_ = diagnostics(source)
    assert [(d.code, d.location.row, d.location.column, d.end_location.column) for d in found_] == [
        ("TRV209", 7, 38, 47)
    ]


def test_results_built_inside_pytest_raises_are_tests_of_the_error() -> None:
    source = """\
    import pytest
    from pydantic import ValidationError

    from browser_use import ActionResult


    def test_success_requires_done():
        with pytest.raises(ValidationError):
            ActionResult(success=True)
        assert ActionResult(success=True, is_done=True).success
        ActionResult(success=True)
    """
    assert found(source) == [("TRV202", 11, 18)]
