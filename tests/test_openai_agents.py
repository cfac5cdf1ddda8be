"""OpenAI Agents SDK (TRV3xx): recognition, the negatives the issue requires, whole-project mode.

The rules' own examples (tests/test_rule_examples.py) cover each rule; these tests cover
what is *not* the SDK, what cannot be known, behaviour functions judged against every
agent that uses them, and the cross-file facts of ``toolret check`` (index, pre-commit
runs on one file, cache invalidation).
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from dataclasses import replace
from pathlib import Path

import pytest

from lint_rules import runner
from lint_rules.analysis.project import Project
from lint_rules.cache import ResultCache
from lint_rules.config import OpenAIAgentsSettings, Settings, SettingsResolver
from lint_rules.engine import check_source
from lint_rules.model import Diagnostic

Found = list[tuple[str, int]]


def diagnostics(
    source: str, select: str = "TRV3", path: str = "agent_app.py", project: Project | None = None
) -> list[Diagnostic]:
    settings = Settings().with_overrides(select=[select])
    return check_source(textwrap.dedent(source), path, settings, project)


def found(source: str, select: str = "TRV3", **kwargs: object) -> Found:
    return [(d.code, d.location.row) for d in diagnostics(source, select, **kwargs)]  # type: ignore[arg-type]


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        target = root / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(textwrap.dedent(text))


def check(paths: list[Path], cache: ResultCache | None = None) -> list[tuple[str, int, str]]:
    resolver = SettingsResolver(overrides=lambda s: s.with_overrides(select=["TRV3"]))
    result = runner.run(paths, resolver, project=Project(revalidate=False), cache=cache)
    return [(Path(d.filename).name, d.location.row, d.code) for d in result.diagnostics]


WRONG = """\
{imports}


def behaviour(context, results):
    return {{"is_final_output": True}}


agent = {agent}(name="a", tool_use_behaviour="stop", tool_use_behavior=behaviour)
"""


# ------------------------------------------------------------ recognition


@pytest.mark.parametrize(
    ("imports", "agent"),
    [
        ("from agents import Agent", "Agent"),
        ("from agents.agent import Agent", "Agent"),
        ("from agents import Agent as SDKAgent", "SDKAgent"),
        ("import agents", "agents.Agent"),
        ("import agents as sdk", "sdk.Agent[None]"),
        ("from agents.sandbox import SandboxAgent", "SandboxAgent"),
    ],
)
def test_agent_is_recognised_through_imports(imports: str, agent: str) -> None:
    codes = {code for code, _ in found(WRONG.format(imports=imports, agent=agent))}
    assert codes == {"TRV303", "TRV310"}


@pytest.mark.parametrize(
    "imports",
    [
        "from crewai import Agent",
        "from autogen import Agent",
        "from .agents import Agent",
        "from myproject.agents import Agent",
    ],
)
def test_an_agent_class_from_another_library_is_ignored(imports: str) -> None:
    assert found(WRONG.format(imports=imports, agent="Agent")) == []


def test_a_name_shadowed_by_a_fallback_class_is_ignored() -> None:
    source = """\
    try:
        from agents import Agent
    except ImportError:
        class Agent:
            def __init__(self, **kwargs):
                self.kwargs = kwargs


    def behaviour(context, results):
        return {"is_final_output": True}


    agent = Agent(name="a", tool_use_behaviour="stop", tool_use_behavior=behaviour)
    """
    assert found(source) == []


@pytest.mark.parametrize(
    "function",
    [
        "def build(\n    name: str = str(),\n    *,\n    Agent,\n):\n",
        "def build(\n    name: str = str(),\n    *Agent,\n):\n",
        "def build(\n    name: str = str(),\n    Agent: type = dict,\n):\n",
        "async def build(\n    name=str(),\n    **Agent,\n):\n",
    ],
)
def test_a_parameter_on_a_line_of_its_own_shadows_the_sdk_name(function: str) -> None:
    # The parameter is the function's own ``Agent``; the unsafe fix renaming
    # ``toolz`` would edit a call that is not the SDK's.
    source = f"from agents import Agent\n\n\n{function}    return Agent(name=name, toolz=[])\n"
    assert found(source) == []
    outside = source + "\n\nagent = Agent(name='a', toolz=[])\n"
    assert [code for code, _ in found(outside)] == ["TRV310"]


def test_a_lambda_parameter_shadows_the_sdk_name() -> None:
    source = "from agents import Agent\n\nmake = lambda Agent: Agent(name='x', toolz=[])\n"
    assert found(source) == []


def test_a_first_party_agents_package_is_not_the_sdk(tmp_path: Path) -> None:
    source = WRONG.format(imports="from agents import Agent", agent="Agent")
    write(tmp_path, {"pyproject.toml": "", "app/main.py": source})
    main = str(tmp_path / "app" / "main.py")
    assert found(source, path=main, project=Project()) != []
    write(tmp_path, {"agents/__init__.py": "class Agent: ...\n"})
    assert found(source, path=main, project=Project()) == []


def test_a_nested_agents_package_does_not_shadow_the_sdk(tmp_path: Path) -> None:
    # examples/financial_research_agent/agents/ in the SDK's own repository: a package
    # inside a package, run with `python -m`, never shadows the top-level `agents`.
    source = WRONG.format(imports="from agents import Agent", agent="Agent")
    write(
        tmp_path,
        {
            "pyproject.toml": "",
            "bot/__init__.py": "",
            "bot/agents/__init__.py": "",
            "bot/agents/planner.py": source,
        },
    )
    path = str(tmp_path / "bot" / "agents" / "planner.py")
    assert {code for code, _ in found(source, path=path, project=Project())} == {
        "TRV303",
        "TRV310",
    }


SDK_EXAMPLE = """\
from agents import Agent, function_tool


@function_tool
def get_weather(city: str) -> str:
    return f"The weather in {city} is sunny"


agent = Agent(
    name="Weather agent",
    tools=[get_weather],
    tool_use_behavior="stop_at_first_tool",
)
"""


@pytest.mark.parametrize(
    "metadata",
    [
        {"pyproject.toml": '[project]\nname = "openai-agents"\nversion = "0.24.0"\n'},
        {"pyproject.toml": '[project]\nname = "OpenAI_Agents"\n'},
        {"pyproject.toml": '[tool.poetry]\nname = "openai.agents"\n'},
        {"setup.cfg": "[metadata]\nname = openai-agents\nversion = 0.1\n"},
        {
            "setup.py": 'from setuptools import setup\n\nsetup(name="openai-agents", '
            'package_dir={"": "src"})\n'
        },
    ],
    ids=["pyproject", "pep503-normalised", "poetry", "setup-cfg", "setup-py"],
)
def test_the_sdks_own_repository_checks_its_examples(
    tmp_path: Path, metadata: dict[str, str]
) -> None:
    # The SDK's repository: src/agents/ is the SDK itself, not a package shadowing it.
    write(
        tmp_path,
        {
            **metadata,
            "src/agents/__init__.py": "from .agent import Agent\n",
            "src/agents/agent.py": "class Agent: ...\n",
            "examples/__init__.py": "",
            "examples/basic/__init__.py": "",
            "examples/basic/tools.py": SDK_EXAMPLE,
            "tests/__init__.py": "",
            "tests/test_agent_config.py": SDK_EXAMPLE,
        },
    )
    for name in ("examples/basic/tools.py", "tests/test_agent_config.py"):
        path = str(tmp_path / name)
        assert found(SDK_EXAMPLE, path=path, project=Project()) == [("TRV301", 12)]
    assert check([tmp_path]) == [
        ("tools.py", 12, "TRV301"),
        ("test_agent_config.py", 12, "TRV301"),
    ]


def test_flake8_checks_the_sdks_own_examples(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "pyproject.toml": '[project]\nname = "openai-agents"\n',
            "src/agents/__init__.py": "",
            "examples/tools.py": SDK_EXAMPLE,
        },
    )
    result = subprocess.run(
        [sys.executable, "-m", "flake8", "--select", "TRV", "--format",
         "%(path)s|%(row)d|%(code)s", "examples"],
        cwd=tmp_path, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert result.stdout.split() == [f"{Path('examples', 'tools.py')}|12|TRV301"], result.stderr


@pytest.mark.parametrize(
    "files",
    [
        # Another project's metadata: its agents/ shadows the SDK.
        {"pyproject.toml": '[project]\nname = "support-bot"\n', "src/agents/__init__.py": ""},
        # The SDK's name in a dependency list is not the project's name.
        {
            "pyproject.toml": '[project]\nname = "support-bot"\n'
            'dependencies = ["openai-agents>=0.24"]\n',
            "agents/__init__.py": "",
        },
        # A name setup.py computes is not read (setup.py is never run).
        {"setup.py": 'NAME = "openai-agents"\nsetup(name=NAME)\n', "agents/__init__.py": ""},
        # The SDK's repository with a second agents/ package beside the example.
        {
            "pyproject.toml": '[project]\nname = "openai-agents"\n',
            "src/agents/__init__.py": "",
            "examples/agents/__init__.py": "class Agent: ...\n",
        },
        # Unreadable metadata is no metadata.
        {"pyproject.toml": '[project\nname = "openai-agents"\n', "agents/__init__.py": ""},
    ],
    ids=["other-project", "dependency", "computed-name", "second-package", "broken-toml"],
)
def test_a_shadowing_package_stays_a_shadow(tmp_path: Path, files: dict[str, str]) -> None:
    write(tmp_path, {**files, "examples/tools.py": SDK_EXAMPLE})
    path = str(tmp_path / "examples" / "tools.py")
    assert found(SDK_EXAMPLE, path=path, project=Project()) == []


def test_the_tool_module_is_not_the_tool_decorator() -> None:
    # `from agents import tool` is the agents.tool module; the alias lives in agents.decorators.
    source = """\
    from agents import Agent, tool
    from agents.decorators import tool as function_tool_alias


    @tool
    def not_a_tool() -> dict:
        return {"a": 1}


    @function_tool_alias
    def a_tool() -> dict:
        return {"a": 1}
    """
    assert found(source, select="TRV308") == [("TRV308", 12)]


def test_trv308_never_fires_by_default() -> None:
    source = """\
    from agents import function_tool


    @function_tool
    def fetch(order_id: str) -> dict:
        return {"id": order_id}
    """
    assert diagnostics(source, select="TRV308") != []
    assert check_source(textwrap.dedent(source), "x.py", Settings()) == []


def test_trv309_instead_of_trv308() -> None:
    source = """\
    from agents import Agent, function_tool

    billing = Agent(name="Billing")


    @function_tool
    def transfer():
        return billing
    """
    assert found(source) == [("TRV309", 8)]


# --------------------------------------------------- behaviour functions


BEHAVIOUR_USED_TWICE = """\
from pydantic import BaseModel

from agents import Agent, ToolsToFinalOutputResult


class Weather(BaseModel):
    city: str


def behaviour(context, results):
    return ToolsToFinalOutputResult(is_final_output=True, final_output={value})


structured = Agent(name="Structured", output_type=Weather, tool_use_behavior=behaviour)
plain = Agent(name="Plain", tool_use_behavior=behaviour)
"""


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ('"Tokyo is sunny"', [("TRV305", "Structured")]),
        ('Weather(city="Tokyo")', [("TRV312", "Plain")]),
        ("42", [("TRV305", "Structured"), ("TRV312", "Plain")]),
        ("results[0].output", []),
    ],
)
def test_a_behaviour_function_is_judged_against_each_agent(
    value: str, expected: list[tuple[str, str]]
) -> None:
    found_codes = [
        (d.code, d.message.split('agent "')[1].split('"')[0])
        for d in diagnostics(BEHAVIOUR_USED_TWICE.format(value=value))
    ]
    assert sorted(found_codes) == sorted(expected)


@pytest.mark.parametrize(
    "value",
    [
        "results[0].output",
        "compute()",
        "context.context.report",
        "build_weather(results)",
        "data if data else fallback",
    ],
)
def test_unknown_final_output_shapes_are_not_reported(value: str) -> None:
    source = f"""\
from pydantic import BaseModel

from agents import Agent, ToolsToFinalOutputResult

from .helpers import build_weather, compute, defaults


class Weather(BaseModel):
    city: str


def behaviour(context, results, data=None, fallback=None):
    return ToolsToFinalOutputResult(is_final_output=True, final_output={value})


agent = Agent(name="a", output_type=Weather, tool_use_behavior=behaviour)
other = Agent(name="b", tool_use_behavior=behaviour)
"""
    assert found(source) == []


@pytest.mark.parametrize(
    ("output_type", "value", "reported"),
    [
        ("list[str]", '"a, b"', True),
        ("list[str]", '["a", "b"]', False),
        ("list[str]", '["a", 3]', True),
        ("int", "True", False),
        ("float", "3", False),
        ("dict", '{"a": 1}', False),
        ("Totals", '{"count": 1}', False),
        ("Totals", '"one"', True),
        ("AgentOutputSchema(Weather)", '{"city": "x"}', True),
        ("AgentOutputSchema(str)", "3", False),
        ("Weather | None", '"x"', False),
        ("Other", 'Weather(city="x")', True),
    ],
)
def test_declared_output_types(output_type: str, value: str, reported: bool) -> None:
    source = f"""\
from typing import TypedDict

from pydantic import BaseModel

from agents import Agent, AgentOutputSchema, ToolsToFinalOutputResult


class Weather(BaseModel):
    city: str


class Other(BaseModel):
    name: str


class Totals(TypedDict):
    count: int


def behaviour(context, results):
    return ToolsToFinalOutputResult(is_final_output=True, final_output={value})


agent = Agent(name="a", output_type={output_type}, tool_use_behavior=behaviour)
"""
    codes = [code for code, _ in found(source)]
    assert codes == (["TRV305"] if reported else [])


def test_trv303_instead_of_trv305_and_trv312() -> None:
    source = """\
    from agents import Agent, ToolsToFinalOutputResult


    def behaviour(context, results):
        result = ToolsToFinalOutputResult(is_final_output=True, final_output=3)
        return {"result": result}


    agent = Agent(name="a", tool_use_behavior=behaviour)
    """
    assert found(source) == [("TRV303", 6)]


def test_nested_and_lambda_behaviours() -> None:
    source = """\
    from agents import Agent, ToolsToFinalOutputResult


    def build(tools):
        def decide(context, results):
            return ToolsToFinalOutputResult(is_final_output=True, final_output=len(results))

        return Agent(name="Built", tools=tools, tool_use_behavior=decide)


    quick = Agent(
        name="Quick",
        tool_use_behavior=lambda ctx, results: ToolsToFinalOutputResult(
            is_final_output=True, final_output=[r.output for r in results]
        ),
    )
    """
    assert found(source) == [("TRV312", 6), ("TRV312", 14)]


# ------------------------------------------- a misspelled keyword is still read

MISSPELLED = """\
from pydantic import BaseModel

from agents import Agent, StopAtTools, ToolsToFinalOutputResult, function_tool


class Invoice(BaseModel):
    number: str
    total: float


@function_tool
def lookup_invoice(number: str) -> str:
    return f"Invoice {number}: 120.00"


def stop_on_lookup(context, results):
    return {"is_final_output": True, "final_output": results[0].output}


def invoice_from_tool(context, results):
    return ToolsToFinalOutputResult(is_final_output=True, final_output=f"{results[0].output}")


def invoice_model(context, results):
    invoice = Invoice(number="INV-1", total=120.0)
    return ToolsToFinalOutputResult(is_final_output=True, final_output=invoice)


quick = Agent(name="Quick", tools=[lookup_invoice], tool_use_behaviour="stop_on_first")
names = Agent(
    name="Names",
    tools=[lookup_invoice],
    tool_use_behaviour=StopAtTools(stop_at_tool_names=["lookup"]),
)
custom = Agent(name="Custom", tools=[lookup_invoice], tool_use_behaviour=stop_on_lookup)
billing = Agent(name="Billing", output_types=Invoice, tool_use_behavior=invoice_from_tool)
models = Agent(name="Models", output_types=Invoice, tool_use_behaviour=invoice_model)
"""
MISSPELLED_FOUND = [
    ("TRV303", 17),
    ("TRV305", 21),
    ("TRV301", 29),
    ("TRV310", 29),
    ("TRV302", 33),
    ("TRV310", 33),
    ("TRV310", 35),
    ("TRV310", 36),
    ("TRV310", 37),
    ("TRV310", 37),
]


def test_a_misspelled_keyword_is_read_as_the_field_trv310_renames_it_to() -> None:
    # TRV312 stays silent on line 26: once `output_types` is renamed, `Invoice` is declared.
    assert found(MISSPELLED) == MISSPELLED_FOUND


def test_a_misspelled_keyword_is_read_by_toolret_check_and_flake8(tmp_path: Path) -> None:
    write(tmp_path, {"pyproject.toml": "", "billing.py": MISSPELLED})
    assert [(code, row) for _, row, code in check([tmp_path])] == sorted(
        MISSPELLED_FOUND, key=lambda f: f[1]
    )
    result = subprocess.run(
        [sys.executable, "-m", "flake8", "--select", "TRV3", "--format",
         "%(row)d|%(code)s", "billing.py"],
        cwd=tmp_path, capture_output=True, text=True, check=False,
    )  # fmt: skip
    flake8 = [(code, int(row)) for row, code in (line.split("|") for line in result.stdout.split())]
    assert sorted(flake8, key=lambda f: f[1]) == sorted(MISSPELLED_FOUND, key=lambda f: f[1])


def test_a_misspelled_behaviour_in_another_file_is_read(tmp_path: Path) -> None:
    main = PROJECT["app/main.py"].replace("tool_use_behavior=", "tool_use_behaviour=")
    write(tmp_path, {**PROJECT, "app/main.py": main})
    assert check([tmp_path / "behaviors.py"]) == [("behaviors.py", 5, "TRV305")]


@pytest.mark.parametrize(
    "agent",
    [
        # The right spelling is passed too: it is the one read (TRV310 offers no rename).
        'Agent(name="a", tool_use_behavior="run_llm_again", tool_use_behaviour="stop")',
        # Two misspellings of one field: which one was meant is not certain.
        'Agent(name="a", tool_use_behaviour="stop", tool_use_behavor="stop")',
        # Not close to any field: TRV310 suggests nothing.
        'Agent(name="a", when_to_stop="stop")',
        # Another library's Agent.
        'OtherAgent(name="a", tool_use_behaviour="stop")',
    ],
)
def test_a_misspelling_is_read_only_when_the_rename_is_certain(agent: str) -> None:
    source = f"""\
    from agents import Agent
    from crewai import Agent as OtherAgent

    agent = {agent}
    """
    assert [code for code, _ in found(source) if code != "TRV310"] == []


@pytest.mark.parametrize(
    ("declared", "silenced"),
    [("tool_use_behaviour", {"TRV301", "TRV302", "TRV303"}), ("output_types", {"TRV305"})],
)
def test_a_misspelling_declared_a_field_is_not_read(declared: str, silenced: set[str]) -> None:
    # `extra-agent-arguments`: a newer SDK's own field, whatever it is close to.
    settings = replace(
        Settings(), openai_agents=OpenAIAgentsSettings(extra_agent_arguments=(declared,))
    ).with_overrides(select=["TRV3"])
    result = check_source(MISSPELLED, "billing.py", settings)
    expected = [f for f in MISSPELLED_FOUND if f[0] not in silenced and f[0] != "TRV310"]
    assert [(d.code, d.location.row) for d in result if d.code != "TRV310"] == expected


# -------------------------------------------------------- whole-project mode

PROJECT = {
    "pyproject.toml": "",
    "models.py": """\
        from pydantic import BaseModel


        class Weather(BaseModel):
            city: str
        """,
    "behaviors.py": """\
        from agents import ToolsToFinalOutputResult


        def stop_on_weather(context, results):
            return ToolsToFinalOutputResult(is_final_output=True, final_output="sunny")
        """,
    "app/__init__.py": "",
    "app/main.py": """\
        from agents import Agent

        from behaviors import stop_on_weather
        from models import Weather

        weather = Agent(name="Weather", output_type=Weather, tool_use_behavior=stop_on_weather)
        """,
}


def test_a_behaviour_function_is_checked_against_an_agent_in_another_file(
    tmp_path: Path,
) -> None:
    write(tmp_path, PROJECT)
    assert check([tmp_path]) == [("behaviors.py", 5, "TRV305")]


def test_checking_only_the_behaviour_file_still_finds_the_agent(tmp_path: Path) -> None:
    # pre-commit passes only the changed file; the Agent lives in an unchanged one.
    write(tmp_path, PROJECT)
    assert check([tmp_path / "behaviors.py"]) == [("behaviors.py", 5, "TRV305")]


def test_relative_imports_and_reexports_are_followed(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "setup.cfg": "",
            "pkg/__init__.py": "from .behaviors import stop_on_weather\n",
            "pkg/behaviors.py": PROJECT["behaviors.py"],
            "pkg/models.py": PROJECT["models.py"],
            "pkg/main.py": """\
                from agents import Agent

                from . import models
                from pkg import stop_on_weather

                weather = Agent(
                    name="Weather", output_type=models.Weather, tool_use_behavior=stop_on_weather
                )
                """,
        },
    )
    assert check([tmp_path / "pkg" / "behaviors.py"]) == [("behaviors.py", 5, "TRV305")]


def test_a_behaviour_file_that_imports_nothing_is_named_by_the_agent(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            **PROJECT,
            "behaviors.py": """\
                def stop_on_weather(context, results):
                    return {"is_final_output": True, "final_output": "sunny"}
                """,
        },
    )
    assert check([tmp_path / "behaviors.py"]) == [("behaviors.py", 2, "TRV303")]


def test_flake8_style_checks_use_same_file_facts_only(tmp_path: Path) -> None:
    write(tmp_path, PROJECT)
    behaviors = tmp_path / "behaviors.py"
    assert found(behaviors.read_text(), path=str(behaviors), project=Project()) == []


def test_a_changed_agent_invalidates_the_cached_behaviour_file(tmp_path: Path) -> None:
    write(tmp_path, PROJECT)
    cache_dir = tmp_path / ".cache"
    assert check([tmp_path / "behaviors.py"], ResultCache(cache_dir)) == [
        ("behaviors.py", 5, "TRV305")
    ]
    main = tmp_path / "app" / "main.py"
    main.write_text(main.read_text().replace("output_type=Weather, ", ""))
    os.utime(main, ns=(1, 1))
    assert check([tmp_path / "behaviors.py"], ResultCache(cache_dir)) == []
    main.write_text(main.read_text().replace("name=", "output_type=int, name="))
    assert check([tmp_path / "behaviors.py"], ResultCache(cache_dir)) == [
        ("behaviors.py", 5, "TRV305")
    ]


def test_a_changed_output_type_class_invalidates_the_cached_result(tmp_path: Path) -> None:
    write(tmp_path, PROJECT)
    cache_dir = tmp_path / ".cache"
    assert check([tmp_path], ResultCache(cache_dir)) != []
    models = tmp_path / "models.py"
    models.write_text("from typing import Any\n\nWeather = Any\n")
    assert check([tmp_path], ResultCache(cache_dir)) == []


@pytest.mark.parametrize(
    ("before", "after"), [("support-bot", "openai-agents"), ("openai-agents", "support-bot")]
)
def test_changed_metadata_invalidates_cached_results_and_facts(
    tmp_path: Path, before: str, after: str
) -> None:
    # A project with a src/agents/ package: a shadow, or the SDK itself, as its metadata says.
    # The cross-file finding needs main.py's index facts, which the cache keeps: they
    # must be re-extracted when the metadata changes even though main.py did not.
    write(tmp_path, {**PROJECT, "src/agents/__init__.py": ""})
    pyproject = tmp_path / "pyproject.toml"
    expected = {"openai-agents": [("behaviors.py", 5, "TRV305")], "support-bot": []}
    cache_dir = tmp_path / ".cache"
    pyproject.write_text(f'[project]\nname = "{before}"\n')
    assert check([tmp_path], ResultCache(cache_dir)) == expected[before]
    pyproject.write_text(f'[project]\nname = "{after}"\n')
    assert check([tmp_path], ResultCache(cache_dir)) == expected[after]
    assert check([tmp_path / "behaviors.py"], ResultCache(cache_dir)) == expected[after]


def test_a_warm_run_reads_no_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The index facts of main.py and models.py come from the cache, and so do the
    # diagnostics of behaviors.py: its text is read only if a code frame asks for it.
    write(tmp_path, PROJECT)
    cache_dir = tmp_path / ".cache"
    check([tmp_path / "behaviors.py"], ResultCache(cache_dir))
    opened: list[str] = []
    real_open = open

    def spy(file: object, *args: object, **kwargs: object) -> object:
        if str(file).endswith(".py"):
            opened.append(str(file))
        return real_open(file, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr("builtins.open", spy)
    assert check([tmp_path / "behaviors.py"], ResultCache(cache_dir)) == [
        ("behaviors.py", 5, "TRV305")
    ]
    assert opened == []


def test_calls_a_test_expects_to_raise_are_not_reported() -> None:
    source = """\
    import pytest

    from agents import Agent


    def test_invalid_behaviour():
        with pytest.raises(TypeError, match="Agent tool_use_behavior must be"):
            Agent(name="test", tool_use_behavior=123)
        with pytest.raises(TypeError):
            Agent(name="test", tool_use_behaviour="stop_on_first_tool")
        Agent(name="test", tool_use_behavior="stop")
    """
    assert found(source) == [("TRV301", 11)]
